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


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
# "May 2022", "May 31, 2022", "August 28, 2022": a month (capitalised: "may" is a verb) and its year
_MONTH_YEAR = re.compile(rf"\b(?P<month>{'|'.join(_MONTHS)})\s+(?:\d{{1,2}},?\s+)?(?P<year>(?:19|20)\d\d)\b")
_SECOND = _MONTH_YEAR.pattern.replace("?P<month>", "?P<month2>").replace("?P<year>", "?P<year2>")
_SPAN = re.compile(rf"{_MONTH_YEAR.pattern}\s*(?:to|through|-|–)\s*{_SECOND}")  # "June 26, 2022 to July 30, 2022"


def months(text: str) -> set[tuple[int, str]]:
    """Every (month, year) the text names, a span's months between included ("June 26, 2022 to July 30, 2022")."""
    found = {(_MONTHS.index(m.group("month")) + 1, m.group("year")) for m in _MONTH_YEAR.finditer(text)}
    for m in _SPAN.finditer(text):
        first, last = _MONTHS.index(m.group("month")) + 1, _MONTHS.index(m.group("month2")) + 1
        if m.group("year") == m.group("year2"):
            found |= {(month, m.group("year")) for month in range(first, last + 1)}
    return found


def misdated_month(question: str, text: str) -> bool:
    """Does the text date itself by other months of the year the question asks a month of ("in May 2022" read
    against the repurchases "August 28, 2022 to September 24, 2022")? A text naming no month of that year leaves
    the date to its context."""
    asked = months(question)
    if not asked:
        return False
    said = months(text)
    return all(any(y == year for _, y in said) and (m, year) not in said for m, year in asked)


# a date asked of an event or a schedule: "When was the university founded?", "When is the plan due?" (not "When
# does the PA shut the connection down?", which a condition answers)
_SCHEDULED_Q = re.compile(r"\bwhen\s+(?:is|are|was|were|will|did|does|do|has|have)\b[^?]{0,80}?\b(?:scheduled|expected|"
                          r"due|planned|slated|released|published|issued|launched|introduced|founded|established|"
                          r"created|opened|completed|signed|approved|adopted|enacted|announced|built|born|held)\b",
                          re.IGNORECASE)
# a time said in words: a month (not "may", mostly the verb), a season, a quarter or a day of the week
_TIMED = re.compile(r"\b(?:january|february|march|april|june|july|august|september|october|november|december|"
                    r"spring|summer|autumn|winter|quarter|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                    r"today|yesterday|tomorrow)\b", re.IGNORECASE)


def asks_dated_event(question: str) -> bool:
    return _SCHEDULED_Q.search(question) is not None


def says_time(text: str) -> bool:
    return _TIMED.search(text) is not None
