"""The dated periods a text names: a quarter or a half of a year ("the fourth quarter of 2022", "Q4 2022",
"Fourth Quarter 2022:", "the first half of fiscal 2021").

A filing reports every quarter of several years in the same words, so "the fourth quarter" of a question meets
"the fourth quarter of 2021" as well as "Fourth Quarter 2022:" word for word; only the year tells the two apart.
A question dated this way is answered by the evidence that names the same period, never by the same period of
another year. A year alone is no period here: every passage of a filing names its years.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_PARTS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_FISCAL = r"(?:of\s+)?(?:(?:the\s+)?(?:fiscal|financial)\s+(?:year\s+)?)?"
_SPELLED = re.compile(rf"\b(?P<part>{'|'.join(_PARTS)})\s+(?P<unit>quarter|half)\s+{_FISCAL}(?P<year>(?:19|20)\d\d)\b",
                      re.IGNORECASE)
_SHORT = re.compile(r"\b(?P<unit>[QH])(?P<part>[1-4])\s*(?:of\s+)?(?:FY\s*|fiscal\s+(?:year\s+)?)?'?"
                    r"(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)


class Period(NamedTuple):
    unit: str  # "quarter" or "half"
    part: int  # 1-4 for a quarter, 1-2 for a half
    year: str


def periods(text: str) -> frozenset[Period]:
    """Every quarter or half of a year the text names, however written."""
    found = {Period(m.group("unit").lower(), _PARTS[m.group("part").lower()], m.group("year"))
             for m in _SPELLED.finditer(text)}
    found |= {Period("quarter" if m.group("unit").lower() == "q" else "half", int(m.group("part")), m.group("year"))
              for m in _SHORT.finditer(text)}
    return frozenset(p for p in found if p.unit == "quarter" or p.part <= 2)


def names_period(asked: frozenset[Period], text: str) -> bool:
    """Does the text name one of the periods asked about?"""
    return bool(asked) and not asked.isdisjoint(periods(text))


def misdated_period(asked: frozenset[Period], text: str) -> bool:
    """Does the text name the asked quarter or half of another year only ("the fourth quarter of 2021" for a
    question on the fourth quarter of 2022)? Its words match the question's, its period is another one."""
    if not asked:
        return False
    said = periods(text)
    others = {(p.unit, p.part) for p in said} & {(p.unit, p.part) for p in asked}
    return bool(others) and said.isdisjoint(asked)
