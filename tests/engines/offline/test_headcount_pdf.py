"""A figure from a list of value-label pairs on a real 10-K page: Oracle's employee counts by line of business,
asked the ways three question sets asked it (bench/data/doc_qa_dev.json, doc_qa_blind5.json, doc_qa_blind7.json),
beside the statement of operations whose "Research and development" row is the expense of every year."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def oracle_workforce(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 1 names the filer; PDF page 15: "Workforce" ("… employee counts by lines of business are:" then
    # "27,000 Cloud services … 39,000 Services" two pairs a line); PDF page 67: the statement of operations
    return bank_of_pages("ORACLE_2023_10K.pdf", [0, 14, 66], tmp_path_factory.mktemp("oracle_workforce"),
                         embedder=embedder)


@pytest.mark.parametrize("question", [
    "How many Oracle employees work in research and development?",
    "Roughly how many Oracle employees worked in research and development as of May 31, 2023?",
])
def test_the_headcount_is_the_row_of_the_pairs_not_the_expense(oracle_workforce: MemoryBank, question: str) -> None:
    """The answer was the company-wide sentence (164,000 employees) or the R&D expense row (8,623 millions): the
    pairs were read as a row labelled "35,000" and the table as an index (its thousands read as page numbers)."""
    result = oracle_workforce.run(question)
    assert result.answer.startswith("Research and development, approximate employee counts: 47,000"), result.answer
    assert "8,623" not in result.answer
    assert {page for c in result.citations for page in c.pages} == {2}  # PDF page 15, the second of the three


def test_two_rows_of_the_pairs_asked_at_once_are_both_given(oracle_workforce: MemoryBank) -> None:
    answer = oracle_workforce.run("As of May 31, 2023, roughly how many Oracle employees worked in research and "
                                  "development, and how many in hardware?").answer
    assert "47,000" in answer and "Hardware, approximate employee counts: 3,000" in answer, answer


def test_the_expense_is_still_the_expense(oracle_workforce: MemoryBank) -> None:
    answer = oracle_workforce.run("How much did Oracle spend on research and development in fiscal 2023?").answer
    assert answer.startswith("Research and development, 2023: 8,623 (millions)"), answer
