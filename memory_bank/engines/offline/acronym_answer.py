""""What does 'PA' stand for?": the long form the documents define, cited where they define it.

A reader asking what an acronym stands for wants its long form first; the sentences that use "PA" most are not
the one that says what it is. The long form is the documents' own definition ("policy administrator (PA)",
read by `text.acronyms`), never guessed; an acronym they never define is left to the ordinary answer.
"""

from __future__ import annotations

import re

from ...retrieval.view import MemoryView
from ...text.split import split_sentences
from ..protocol.not_found import NOT_FOUND
from .answering import Answer
from .evidence import Evidence

_ASKED = re.compile(
    r"^\s*what\s+(?:does|do|did|is|was)\s+(?:the\s+(?:acronym|abbreviation|term)\s+)?[\"'“‘]?"
    r"(?P<acronym>[A-Z][A-Za-z0-9&]{0,9}[A-Z0-9]s?)[\"'”’]?\s+(?:stand\s+for|mean|short\s+for|an?\s+"
    r"(?:acronym|abbreviation)\s+(?:for|of))\b", re.IGNORECASE)
# "What is an NPE?": an acronym alone asked what it is, which its long form and defining sentence answer
_WHAT_IS = re.compile(r"^\s*(?i:what(?:'s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?)[\"'“‘]?(?P<acronym>[A-Z][A-Za-z0-9&]{0,9}"
                      r"[A-Z0-9]s?)[\"'”’]?\s*\??\s*$")
SEARCHED = 5  # passages searched for the sentence that defines it
MIN_SAYING_WORDS = 8  # a defining sentence shorter than this is a heading ("5.7 Use of Non-person Entities (NPE)")


def asked_acronym(question: str) -> str | None:
    """The acronym a question asks the long form of, as written in it."""
    match = _ASKED.match(question) or _WHAT_IS.match(question)
    if match is None:
        return None
    acronym = match.group("acronym")
    return acronym if sum(c.isupper() for c in acronym) >= 2 else None


class AcronymAnswerer:
    def __init__(self, view: MemoryView) -> None:
        self.view = view

    def run(self, question: str) -> Answer | None:
        """'PA stands for Policy administrator.' cited where the documents define it, or None when the question
        asks no acronym, or the documents define none by that name, or its definition cannot be found again."""
        acronym = asked_acronym(question)
        if acronym is None:
            return None
        defined = self.view.acronyms()
        # "CODM" of a filing that defines "chief operating decision makers (CODMs)" in the plural, and back
        forms = (acronym, acronym.upper(), acronym.rstrip("s"), f"{acronym}s")
        key = next((k for k in forms if k in defined), None)
        if key is None:
            return None
        long_form = defined[key]
        text = f"{key} stands for {long_form[:1].upper()}{long_form[1:]}."
        where = self._definition(key, long_form)
        if where is None:
            return None
        if _WHAT_IS.match(question):  # what it is, as the sentence defining it says, or the ordinary answer's
            return Answer(f"{text} {where.text}", [where], 1.0) if _says_what_it_is(where, key, long_form) else None
        return Answer(text, [where], 1.0)

    def named(self, question: str, answer: str) -> str:
        """The answer to "What is an NPE?" opening with the long form ("NPE stands for Non-person Entities.")
        when it does not say it: the sentences that use an acronym rarely spell it out. `answer` unchanged for
        any other question, a "not found", or an acronym the documents do not define."""
        match = _WHAT_IS.match(question)
        defined = self.view.acronyms() if match else {}
        acronym = match.group("acronym") if match else ""
        key = next((k for k in (acronym, acronym.rstrip("s")) if k in defined), None)
        if key is None or answer.startswith(NOT_FOUND) or defined[key].lower() in answer.lower():
            return answer
        return f"{key} stands for {defined[key][:1].upper()}{defined[key][1:]}. {answer}"

    def _definition(self, acronym: str, long_form: str) -> Evidence | None:
        """The sentence that defines it ("… policy administrator (PA) …"), with its place."""
        spelled = r"\s+".join(re.escape(w) for w in long_form.split())
        mark = re.compile(spelled + r"\s*\([\"“]?" + re.escape(acronym) + r"s?[\"”]?\)", re.IGNORECASE)
        for passage in self.view.search_passages(f"{long_form} ({acronym})", SEARCHED):
            sentence = next((s for s in split_sentences(passage.text) if mark.search(s)), None)
            if sentence is not None:
                node = passage.node_ids[0] if passage.node_ids else ""
                return Evidence(sentence, node, passage.source, passage.pages, 1.0,
                                printed=tuple(sorted(passage.printed_pages.items())), section=passage.section)
        return None


def _says_what_it_is(where: Evidence, acronym: str, long_form: str) -> bool:
    """Is the defining sentence a sentence of prose, not a heading ("5.7 Use of Non-person Entities (NPE) in ZTA
    Administration", read glued to the sentence after it): its words past its section's title define the term."""
    text = where.text.strip()
    title = where.section[-1] if where.section else ""
    if title and text.startswith(title):
        text = text[len(title):].strip()
    mark = re.compile(re.escape(long_form) + r"\s*\(" + re.escape(acronym) + r"s?\)", re.IGNORECASE)
    return len(text.split()) >= MIN_SAYING_WORDS and text[-1:] in ".!" and mark.search(text) is not None
