"""Checks of an LLM summary against the text it was written from: its figures are the text's own.

A summary is what retrieval indexes and what the answer reads first. The local 1.5B model wrote one cluster's
summary for every cluster of a call (a spending node said the budget was 9 million), and merged two nodes into
a one-line summary that kept neither's figures ("The Northwind project budget and zero trust migration plan
summary"). A figure is a number as written ("1.2", "2021", "9"), thousands separators aside.
"""

from __future__ import annotations

import re

_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
# a figure that states an amount: two digits or more, or one followed by a word ("5 million", not "Item 1:")
_AMOUNT = re.compile(r"\d+(?:[.,]\d+)+|\d{2,}|\d(?= [^\W\d_])")


def figures(text: str) -> set[str]:
    return {f.replace(",", "") for f in _FIGURE.findall(text)}


def unfaithful(summary: str, content: str) -> str | None:
    """What makes a summary untrue to its text (a figure the text does not state), or None."""
    foreign = sorted(figures(summary) - figures(content))
    if foreign:
        return (f"the summary states {', '.join(foreign[:5])}, which its own text does not; summarise only "
                "this item's text")
    return None


def lossy(summary: str, merged: list[str]) -> str | None:
    """What a duplicate merge's summary lost (an amount one of the merged nodes states), or None. A heading's
    number ("Item 1: Northwind") is no amount: a summary may leave it out."""
    stated = {f.replace(",", "") for text in merged for f in _AMOUNT.findall(text)}
    lost = sorted(stated - figures(summary))
    if lost:
        return (f"the merged summary leaves out {', '.join(lost[:5])}; keep every figure the merged nodes state")
    return None


def must(problem: str | None) -> None:
    """A structured call's `check`: the problem, if any, becomes the re-ask's correction."""
    if problem is not None:
        raise ValueError(problem)
