"""A question's typo of a name: the same name, not another one.

Readers misspell long names ("Ologesailie" for "Olorgesailie", "Ghengis" for "Genghis"); taking such a name for
one the documents never say turns an answerable question into "not found". A long word one letter apart (changed,
added or dropped), or of seven letters or more with its letters swapped, is the same word; two letters apart is
another ("Austria" / "Australia"). Short words are left alone: one letter is the whole difference between many
names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MIN_LETTERS = 6  # shorter words are not matched loosely
_WORD = re.compile(r"[a-z]+")


def words(text: str) -> set[str]:
    """The lower-case words of a text: what `misspelt` compares against."""
    return set(_WORD.findall(text.lower()))


def misspelt(term: str, vocabulary: Iterable[str]) -> bool:
    """Is `term` (a single word) a misspelling of a word of `vocabulary` (lower-case words)?"""
    core = term.lower()
    if len(core) < MIN_LETTERS or not core.isalpha():
        return False
    letters = sorted(core)
    return any(one_apart(core, word) or (len(core) >= MIN_LETTERS + 1 and sorted(word) == letters)
               for word in vocabulary if abs(len(word) - len(core)) <= 1 and word != core)


def one_apart(a: str, b: str) -> bool:
    """One letter changed, added or dropped."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = sorted((a, b), key=len)
    return len(long_) - len(short) == 1 and any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
