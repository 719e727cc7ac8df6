"""A document's parallel passages (`parallels.py`): two rows of one table, one clause for two dates or series,
two sections written alike are two facts; the same pair from two sources, or from notes without sections, is
still a conflict to validate."""

from __future__ import annotations

from memory_bank.engines.models import NodeInfo
from memory_bank.engines.offline.contradiction import Substitution
from memory_bank.engines.offline.parallels import parallel

ROWS_2022 = "Balance as of September 24, 2022 | Number of RSUs (in thousands): 180,247 | Value: $147.98"
ROWS_2019 = "Balance as of September 28, 2019 | Number of RSUs (in thousands): 194,958 | Value: $86.75"
DATES = [Substitution("24 2022", "28 2019", "Balance as of September")]
SERIES = [Substitution("2042", "2031", "3.050 2029 Notes and the")]
FIGURE = [Substitution("5", "9", "approved a project budget of")]


def node(i: str, documents: list[str], sections: list[str]) -> NodeInfo:
    return NodeInfo(id=i, summary="s", context="c", documents=documents, sections=sections)


def test_parallel_passages_of_one_document_are_two_facts() -> None:
    a, b = node("a", ["10k.pdf"], ["Note 10 > RSUs"]), node("b", ["10k.pdf"], ["Note 10 > RSUs"])
    assert parallel(a, b, ROWS_2022, ROWS_2019, DATES) == "two rows of one table"
    prose = "With respect to the 3.050% 2029 Notes and the 2042 Notes, payments are made in U.S. dollars."
    assert parallel(a, b, prose, prose, SERIES) == "one clause of one document for two dates or series"
    other = node("c", ["10k.pdf"], ["Europe"])
    assert parallel(node("d", ["10k.pdf"], ["Greater China"]), other, prose, prose, FIGURE) == \
        "two sections of one document written alike"


def test_a_restatement_inside_one_section_and_any_pair_of_two_sources_stay_conflicts() -> None:
    minutes = "The steering board approved a project budget of 5 million dollars."
    review = "The steering board approved a project budget of 9 million dollars."
    one = node("a", ["report.pdf"], ["Budget"]), node("b", ["report.pdf"], ["Budget"])
    assert parallel(*one, minutes, review, FIGURE) is None
    two = node("a", ["minutes.md"], ["Budget"]), node("b", ["review.md"], ["Budget"])
    assert parallel(*two, ROWS_2022, ROWS_2019, DATES) is None
    pasted = node("a", ["notes"], []), node("b", ["notes"], [])  # nothing says these are one document's parts
    assert parallel(*pasted, minutes, review, DATES) is None


def test_a_lead_in_against_its_rows_is_no_conflict_but_two_values_are() -> None:
    """One side of every difference holds no number, date or name: a table's lead-in against a row ("… is
    summarized as follows" / "… 2,780"), or a lead-in worded two ways. Two values in one section stay a conflict."""
    one = node("a", ["10k.pdf"], ["Stock-Based Awards"]), node("b", ["10k.pdf"], ["Stock-Based Awards"])
    lead_in = [Substitution("2,780", "is summarized as follows", "2020 through May 31 2023")]
    assert parallel(*one, "x", "y", lead_in) == "wording against a value in one document: a lead-in and its rows, " \
                                                "not two facts"
    worded = [Substitution("This table includes", "The table below provides", "closed prior to fiscal 2022")]
    assert parallel(*one, "x", "y", worded) is not None
    assert parallel(*one, "x", "y", [Substitution("906", "302", "PURSUANT TO SECTION")]) is None
    two = node("a", ["minutes.md"], ["Budget"]), node("b", ["review.md"], ["Budget"])
    assert parallel(*two, "x", "y", lead_in) is None
