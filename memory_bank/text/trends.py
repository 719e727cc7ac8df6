""""Is it improving, and why?": a question about a change and its cause, and the passages that state one.

A filing says why a figure moved in its management's discussion ("total revenues increased in fiscal 2023 … due to
growth in our cloud services and license support revenues"); a question asking whether something grows and why
shares its nouns with every passage that merely names the business ("Our cloud and license business' revenue growth
is affected by many factors"). A passage stating a change with its cause carries a mark, `CHANGE_MARK`, among its
search terms, and a question asking for one asks for the mark, as a count question asks for its count's marks
(`text/counts.py`).
"""

from __future__ import annotations

import re

from .tokens import stems

CHANGE_MARK = "#change"
# the beginnings of the verbs that say a figure moved, up or down (`verdict.py` reads the direction off them too)
RISING = ("increas", "grew", "grow", "rose", "rise", "improv", "expand")
FALLING = ("decreas", "declin", "fell", "fall", "dropp", "drop", "shrank", "shrink")
_MOVED = rf"(?:{'|'.join(RISING + FALLING)})\w*"
_CAUSE = r"(?:due to|primarily|driven by|as a result of|because|attributable to|reflect\w*|owing to)"
_CHANGE = re.compile(rf"\b{_MOVED}\b[^.;]{{0,160}}?\b{_CAUSE}\b", re.IGNORECASE)
_WHY = re.compile(r"\bwhy\b", re.IGNORECASE)
_MOVED_WORD = re.compile(rf"\b{_MOVED}\b", re.IGNORECASE)
_ASKED_WORD = re.compile(rf"\b(?:{_MOVED}|improving|worsening)\b", re.IGNORECASE)


def states_change(text: str) -> bool:
    """Does the text state a change with its cause ("… increased … primarily due to …")?"""
    return _CHANGE.search(text) is not None


def asks_change(question: str) -> bool:
    """Does the question ask whether or why something changed ("Is X growing and why?", "Why did X fall?"): a
    "why" before a verb of change, or a change ("improving", "worsening") before a "why", in one sentence of it
    (no "?" between). Read by the words' places, in one pass: a pattern that scanned on from every "why" took
    23 s over a pasted 50,000-character question of them."""
    for part in question.split("?"):
        whys = [m.start() for m in _WHY.finditer(part)]
        if not whys:
            continue
        moved = [m.start() for m in _MOVED_WORD.finditer(part)]
        asked = [m.start() for m in _ASKED_WORD.finditer(part)]
        if (moved and whys[0] < moved[-1]) or (asked and asked[0] < whys[-1]):
            return True
    return False


def change_marks(text: str) -> list[str]:
    """[CHANGE_MARK] when the text states a change with its cause, else []."""
    return [CHANGE_MARK] if states_change(text) else []


def asked_change_marks(question: str) -> list[str]:
    """[CHANGE_MARK] when the question asks whether or why something changed, else []."""
    return [CHANGE_MARK] if asks_change(question) else []


CHANGE_WORDS = (*RISING, *FALLING, "chang", "wors", "better", "get", "becom", "happen", "caus", "driv", "trend")


def names_no_subject(question: str) -> bool:
    """A question about a change that names nothing that changed ("Is it improving, and why?", "Why did it
    change?"): every word it has beyond function words asks about the change itself. Answered, it got "Yes." and
    the first sentence saying "improve" (a restructuring plan's), so it is answered by asking what it is about."""
    asked = stems(question)
    return bool(asked) and all(w.startswith(CHANGE_WORDS) for w in asked)
