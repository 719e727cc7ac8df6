"""A question about a year after the documents' period: "How many employees did Oracle have at the end of fiscal
2024?" of a filing for fiscal 2023.

A filing reports its fiscal year and the years before it; a later year it names only in expectations ("we expect
this growth to continue during fiscal 2024") and schedules of future payments. When nothing answers such a
question, the closest thing the documents hold is the same fact for the last year they report, said as that
year's, never as the asked one's. The period is read off the tables: the year most of them end on (a 10-K's
statements and notes end on its fiscal year; a schedule of maturities is one table of many).
"""

from __future__ import annotations

import re
from collections import Counter

from ...retrieval.view import MemoryView
from ...text.tokens import stems
from ..protocol.table_rows import asked_years

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
MIN_TABLES = 3  # tables that must end on the year before it is taken for the documents' period


def reported_year(view: MemoryView) -> int | None:
    """The year most of the documents' tables end on (their columns' latest year), or None without tables."""
    ends: Counter[int] = Counter()
    for entry, _ in view.table_entries():
        columns = entry.metadata.get("columns")
        years = [int(y) for c in columns if isinstance(c, str) for y in _YEAR.findall(c)] if isinstance(
            columns, list) else []
        if years:
            ends[max(years)] += 1
    if not ends:
        return None
    year, count = ends.most_common(1)[0]
    return year if count >= MIN_TABLES else None


def later_years(question: str, reported: int | None) -> list[str]:
    """The years the question asks about, when every one is after the `reported` year; [] otherwise."""
    years = sorted(asked_years(frozenset(stems(question))))
    return years if reported is not None and years and all(int(y) > reported for y in years) else []


def at_year(question: str, years: list[str], reported: int) -> str:
    """The question asked of the reported year instead ("… at the end of fiscal 2023?")."""
    for year in years:
        question = re.sub(rf"\b{year}\b", str(reported), question)
    return question
