""""What does 'PA' stand for?": the long form the documents define, cited where they define it.

A reader asking what an acronym stands for wants its long form first; the sentences that use "PA" most are not
the one that says what it is. The long form is the documents' own definition ("policy administrator (PA)",
read by `text.acronyms`), never guessed; an acronym they never define is left to the ordinary answer.
"""

from __future__ import annotations

import re

from ...retrieval.view import MemoryView
from ...text.split import split_sentences
from .answering import Answer
from .evidence import Evidence

_ASKED = re.compile(
    r"^\s*what\s+(?:does|do|did|is|was)\s+(?:the\s+(?:acronym|abbreviation|term)\s+)?[\"'“‘]?"
    r"(?P<acronym>[A-Z][A-Za-z0-9&]{0,9}[A-Z0-9]s?)[\"'”’]?\s+(?:stand\s+for|mean|short\s+for|an?\s+"
    r"(?:acronym|abbreviation)\s+(?:for|of))\b", re.IGNORECASE)
SEARCHED = 5  # passages searched for the sentence that defines it


def asked_acronym(question: str) -> str | None:
    """The acronym a question asks the long form of, as written in it."""
    match = _ASKED.match(question)
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
        return None if where is None else Answer(text, [where], 1.0)

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
