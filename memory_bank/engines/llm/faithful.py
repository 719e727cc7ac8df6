"""Checks of an LLM summary against the text it was written from: its figures are the text's own.

A summary is what retrieval indexes and what the answer reads first. The local 1.5B model wrote one cluster's
summary for every cluster of a call (a spending node said the budget was 9 million), and merged two nodes into
a one-line summary that kept neither's figures ("The Northwind project budget and zero trust migration plan
summary"). A figure is a number as written ("1.2", "2021", "9"), thousands separators aside.

A merged summary that leaves a figure out is mended, not asked again (`with_figures`): the sentences of the
merged nodes that state the lost figures are added to it as written. Asked again, the 1.5B model wrote the same
one-node summary three times over (4 re-asks and 2 stand-ins of the offline agent on the notes sample, ~2 min).
"""

from __future__ import annotations

import re

from ...text.split import split_sentences

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


def _amounts(text: str) -> set[str]:
    return {f.replace(",", "") for f in _AMOUNT.findall(text)}


def lost_figures(summary: str, merged: list[str]) -> list[str]:
    """The amounts the merged nodes state that a duplicate merge's summary does not. A heading's number
    ("Item 1: Northwind") is no amount: a summary may leave it out."""
    return sorted(set().union(*map(_amounts, merged)) - figures(summary)) if merged else []


def with_figures(summary: str, merged: list[str]) -> tuple[str, list[str]]:
    """`summary` with, appended in the merged nodes' order, each first sentence of theirs that states a figure
    the summary lost (so every claim survives the merge in its own words), and the figures restored."""
    wanted = set(lost_figures(summary, merged))
    if not wanted:
        return summary, []
    lost = set(wanted)
    added: list[str] = []
    for sentence in (s for text in merged for s in split_sentences(text)):
        carries = _amounts(sentence) & lost
        if carries and sentence not in added:
            added.append(sentence)
            lost -= carries
    return " ".join([summary.strip(), *added]), sorted(wanted - lost)


def must(problem: str | None) -> None:
    """A structured call's `check`: the problem, if any, becomes the re-ask's correction."""
    if problem is not None:
        raise ValueError(problem)
