"""Acronyms a document defines ("Risk Management Framework (RMF)"), so a question in the long form meets
sentences that use the short one.

A document defines an acronym once and then uses it: "The overall process described in the RMF will not change"
answers "Does the overall Risk Management Framework process change?", but word by word the question's
"risk", "management" and "framework" find nothing in that sentence, and the honest "not found" fires. Read
from the documents' own definitions (the words before the parenthesis whose initials spell it), never guessed.
"""

from __future__ import annotations

import re

_DEFINED = re.compile(r"((?:[A-Za-z][\w’'\-]*[\s\-]+){1,8}?)\(([A-Z][A-Za-z]{1,9})s?\)")
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
        letters = acronym.upper() if acronym.isupper() else "".join(c for c in acronym if c.isupper())
        words = match.group(1).split()
        for start in range(len(words)):
            tail = words[start:]
            if tail[0].lower() in _SKIPPED:
                continue
            if _initials(tail) == letters and len(letters) >= 2:
                found.setdefault(acronym, " ".join(tail))
                break
    return found


def shorten(question: str, acronyms: dict[str, str]) -> str:
    """The question with each long form a document defined replaced by its acronym ("… the overall RMF process
    …"), the form the documents' sentences use."""
    for acronym, long_form in sorted(acronyms.items(), key=lambda kv: -len(kv[1])):
        words = [re.escape(w) for w in long_form.split()]
        pattern = re.compile(r"\b" + r"[\s\-]+".join(words) + r"\b(?:\s*\(" + re.escape(acronym) + r"\))?",
                             re.IGNORECASE)
        question = pattern.sub(acronym, question)
    return question
