"""Acronyms a document defines ("Risk Management Framework (RMF)"), so a question in the long form meets
sentences that use the short one.

A document defines an acronym once and then uses it: "The overall process described in the RMF will not change"
answers "Does the overall Risk Management Framework process change?", but word by word the question's
"risk", "management" and "framework" find nothing in that sentence, and the honest "not found" fires. Read
from the documents' own definitions (the words before the parenthesis whose initials spell it), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# the words before a parenthesis holding a short form, bare or quoted as a defined term is: "Risk Management
# Framework (RMF)", "Other income/(expense), net (“OI&E”)"; a word may hold a slash and brackets ("income/(expense)")
_DEFINED = re.compile(r"((?:[A-Za-z][\w’'\-/()]{0,40}+,?[\s\-]+){1,8}?)\([\"“]?([A-Z][A-Za-z&]{1,9})s?[\"”]?\)")
_WORD = re.compile(r"[A-Za-z][\w’'\-]*")
_SKIPPED = frozenset({"of", "and", "for", "the", "to", "in", "on", "a", "an", "&"})


def _initials(words: list[str]) -> str:
    out = ""
    for word in words:
        if word.lower() in _SKIPPED:
            continue
        out += "".join(part[:1] for part in re.split(r"[\-]", word) if part)
    return out.upper()


def defined_acronyms(text: str) -> dict[str, str]:
    """Acronym -> its long form, for each acronym the text defines by its initials."""
    found: dict[str, str] = {}
    for match in _DEFINED.finditer(text):
        acronym = match.group(2)
        letters = "".join(c for c in acronym if c.isupper())  # "OI&E" is spelled by three words
        long_form = _spelling(match.group(1), letters) if len(letters) >= 2 else None
        if long_form is not None:
            found.setdefault(acronym, long_form)
    return found


def _spelling(phrase: str, letters: str) -> str | None:
    """The shortest end of `phrase` whose words' initials are `letters`, as printed; a qualifier after its last
    comma may follow unspelled ("Other income/(expense), net" is "OI&E")."""
    heads = [phrase] + ([phrase[:phrase.rindex(",")]] if "," in phrase else [])
    for head in heads:
        words = list(_WORD.finditer(head))
        for start, word in enumerate(words):
            tail = [w.group() for w in words[start:]]
            if tail[0].lower() not in _SKIPPED and _initials(tail) == letters:
                return " ".join(phrase[word.start():].split()).rstrip(",")
    return None


def shorten(question: str, acronyms: dict[str, str]) -> str:
    """The question with each long form a document defined replaced by its acronym ("… the overall RMF process
    …"), the form the documents' sentences use."""
    for acronym, long_form in sorted(acronyms.items(), key=lambda kv: -len(kv[1])):
        question = _long_form(acronym, long_form).sub(acronym, question)
    return question


def shortened_for(question: str, acronyms: dict[str, str], sentences: list[str]) -> str | None:
    """The question in short forms (`shorten`) when the sentences it is answered from say its long forms less
    often than their acronyms: that is the documents' way of saying it, so asking again in it finds what the long
    form missed. None when the question names no defined long form, or the sentences say the long form as often:
    then the question was already in their words, and asking again would only take a lesser sentence for the one
    the first asking judged and refused ("Why does the United Methodist Church support conscription?", of a
    Church that opposes it)."""
    named = [(a, f) for a, f in acronyms.items() if _long_form(a, f).search(question)]
    if not named:
        return None
    said = " ".join(sentences)
    for acronym, long_form in named:
        if len(_long_form(acronym, long_form).findall(said)) >= len(re.findall(rf"\b{re.escape(acronym)}\b", said)):
            return None
    return shorten(question, acronyms)


def with_acronyms(question: str, acronyms: dict[str, str],
                  said: Callable[[list[tuple[str, str]]], set[str]] | None = None) -> str:
    """The question with the acronym the documents define written after each long form of it the question says
    ("What does a continuous diagnostics and mitigation (CDM) system tell …?"): their sentences say the acronym
    ("An enterprise CDM system provides the policy engine with …"), which the long form alone does not match.
    The longest long form wins where two overlap ("zero trust architecture", not its "zero trust"); an acronym the
    question already says is not added, nor one of a one-word long form; with `said` (the view's `acronyms_said`),
    only those the documents say more often than their long forms, though not throughout ("ZTA" of a publication
    on zero trust architecture, added to every question, weighed its definitions first)."""
    taken: list[tuple[int, int, str]] = []
    for acronym, long_form in sorted(acronyms.items(), key=lambda kv: -len(kv[1])):
        if len(long_form.split()) < 2 or re.search(rf"(?<![\w-]){re.escape(acronym)}(?![\w-])", question):
            continue
        for match in _said_form(long_form).finditer(question):
            if not any(start < match.end() and match.start() < end for start, end, _ in taken):
                taken.append((match.start(), match.end(), acronym))
                break
    kept = said([(a, acronyms[a]) for _, _, a in taken]) if said and taken else {a for _, _, a in taken}
    for _start, end, acronym in sorted(taken, reverse=True):
        if acronym not in kept:
            continue
        question = f"{question[:end]} ({acronym}){question[end:]}"
    return question


def _said_form(long_form: str) -> re.Pattern[str]:
    """The long form as a question may say it: each word singular or plural ("continuous diagnostics and
    mitigation" of "Continuous Diagnostics and Mitigations"), a space or hyphen apart."""
    words = [re.escape(w[:-1] if len(w) > 3 and w.endswith("s") else w) + "(?:s|es)?" for w in long_form.split()]
    return re.compile(r"(?<![\w-])" + r"[\s\-]+".join(words) + r"(?![\w-])", re.IGNORECASE)


def _long_form(acronym: str, long_form: str) -> re.Pattern[str]:
    """The long form as written in running text, its words a space or hyphen apart, the acronym after it in
    brackets or not."""
    words = [re.escape(w) for w in long_form.split()]
    return re.compile(r"\b" + r"[\s\-]+".join(words) + r"\b(?:\s*\(" + re.escape(acronym) + r"\))?", re.IGNORECASE)


_SMALL = r"(?:\s+(?:of|and|for|the|&))?"


def spelled_out(acronym: str) -> re.Pattern[str] | None:
    """The long form an undefined acronym is read as: capitalised words whose initials spell it, small words
    between allowed ("CEO" said as "Chief Executive Officer", "FDA" as "Food and Drug Administration"). A filing
    writes its officers' titles out and never the acronym a reader asks by. None for what is no acronym, or one
    of two letters: any two capitalised words would spell it ("AV" is no "Apollo Vehicle")."""
    if not re.fullmatch(r"[A-Z]{3,6}", acronym):
        return None
    words = [rf"{letter}(?:[a-z’'\-]+|[A-Z’'\-]+)" for letter in acronym]
    return re.compile(r"(?<![\w-])" + (_SMALL + r"\s+").join(words) + r"(?![\w-])")


# a question names a few acronyms; each is searched for in every passage, so a pasted wall of capitals is not
MAX_ACRONYMS = 8
_ACRONYM_WORD = re.compile(r"(?<![\w-])([A-Z]{3,6})(?:['’]s)?(?![\w-])")


def in_document_words(question: str, long_forms: Callable[[list[str]], dict[str, str]]) -> str:
    """The question with each acronym the documents seldom say written as they write it: "Who is Oracle's CEO?"
    is searched and answered as "Who is Oracle's Chief Executive Officer?". `long_forms` is the view's."""
    acronyms = list(dict.fromkeys(m.group(1) for m in _ACRONYM_WORD.finditer(question)))[:MAX_ACRONYMS]
    found = long_forms(acronyms) if acronyms else {}
    for acronym, long_form in found.items():
        question = re.sub(rf"(?<![\w-]){acronym}(?![\w-])", lambda _m, text=long_form: text, question)
    return question
