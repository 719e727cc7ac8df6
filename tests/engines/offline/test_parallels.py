"""A document's parallel passages (`parallels.py`): two rows of one table, one clause for two dates or series,
two sections written alike are two facts; the same pair from two sources, or from notes without sections, is
still a conflict to validate."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from memory_bank.engines.models import NodeInfo
from memory_bank.engines.offline.contradiction import Substitution, align, align_tokens
from memory_bank.engines.offline.parallels import parallel
from tests.support.pdf_pages import PDF_DIR

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
    assert parallel(*one, "x", "y", [Substitution("5", "9", "approved a project budget of")]) is None
    two = node("a", ["minutes.md"], ["Budget"]), node("b", ["review.md"], ["Budget"])
    assert parallel(*two, "x", "y", lead_in) is None


def test_a_number_naming_a_thing_or_values_of_two_named_measures_are_two_facts() -> None:
    """"Section 906" / "Section 302" and "the 2042 Notes" / "the 2027 Notes" name two things, so what else the
    two clauses say belongs to each ("a United Kingdom government bond" / "a German government bond"); values
    after "tax credit carryforwards of" / "operating loss carryforwards of" measure two things. A value restated
    after the same words stays a conflict."""
    one = node("a", ["10k.pdf"], ["Exhibits"]), node("b", ["10k.pdf"], ["Exhibits"])
    section = [Substitution("906", "302", "AS ADOPTED PURSUANT TO SECTION", "ADOPTED PURSUANT TO SECTION", "OF THE")]
    assert parallel(*one, "x", "y", section) is not None
    notes = [Substitution("2042", "2027", "3.050 2029 Notes and the", "2026 Notes and the", "Notes at the"),
             Substitution("United Kingdom", "German", "bank selected by us a", "bank selected by us a", "government")]
    assert parallel(*one, "x", "y", notes) is not None
    measures = [Substitution("1.4", "1.9", "tax credit carryforwards of approximately",
                             "operating loss carryforwards of approximately", "billion at May")]
    assert parallel(*one, "x", "y", measures) is not None
    restated = [Substitution("5", "9", "approved a project budget of", "approved a project budget of", "million")]
    assert parallel(*one, "x", "y", restated) is None
    two = node("a", ["minutes.md"], ["Budget"]), node("b", ["review.md"], ["Budget"])
    assert parallel(*two, "x", "y", section) is None  # two sources: still a conflict to validate


def _said(name: str, pages: tuple[int, ...], opening: str, chars: int) -> str:
    """The words of the PDF from `opening` on, as the page text has them."""
    pdf = PDF_DIR / name
    if not pdf.is_file():
        pytest.skip(f"shared data missing: {pdf}")
    document = pdfium.PdfDocument(str(pdf))
    text = " ".join(" ".join(document[i].get_textpage().get_text_range() for i in pages).split())
    at = text.find(opening)
    assert at >= 0, opening
    return text[at:at + chars]


@pytest.mark.parametrize(("name", "pages", "ours", "theirs"), [
    ("APPLE_2022_10K.pdf", (73, 74), "With respect to the 3.050% 2029 Notes and the 2042 Notes, the term",
     "With respect to the 2022 Notes, the 2024 Notes"),  # the defeasance clause of two series of notes
    ("ORACLE_2023_10K.pdf", (100,), "We had tax credit carryforwards", "We had total foreign net operating loss"),
])
def test_a_filings_parallel_clauses_are_two_facts(name: str, pages: tuple[int, ...], ours: str,
                                                  theirs: str) -> None:
    """The filings' own words align like an edited copy with values changed, and are two facts (both were
    pending conflicts on the Query Graph of the ingested filing)."""
    a_text, b_text = _said(name, pages, ours, 420), _said(name, pages, theirs, 560)
    alignment = align(align_tokens(a_text), align_tokens(b_text))
    assert alignment.distinct
    one = node("a", [name], ["Notes"]), node("b", [name], ["Notes"])
    assert parallel(*one, a_text, b_text, alignment.distinct) is not None
    two = node("a", [name], ["Notes"]), node("b", ["other.pdf"], ["Notes"])
    assert parallel(*two, a_text, b_text, alignment.distinct) is None
