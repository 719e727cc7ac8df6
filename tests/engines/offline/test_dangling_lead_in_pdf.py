"""An answer never ends on, nor shows, a lead-in whose items it does not show: on Apple's 10-K, "Operating expenses
for 2022, 2021 and 2020 were as follows (dollars in millions):" was followed in an answer on R&D spending by the
sentence after the table ("The year-over-year growth in R&D expense …"), its table's rows being left out of the
prose; and on Oracle's, an answer ended on "… on Oracle's five D&I Imperatives:" with no imperative after it."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def apple_expenses(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 1 names the filer; PDF pages 26-27: "Operating Expenses", its lead-in, the table of R&D, SG&A and
    # total operating expenses, then "The year-over-year growth in R&D expense in 2022 was driven primarily by …"
    return bank_of_pages("APPLE_2022_10K.pdf", [0, 25, 26], tmp_path_factory.mktemp("apple_expenses"),
                         embedder=embedder)


@pytest.mark.parametrize("question", ["How much did Apple's research and development expense grow in 2022 "
                                      "compared with 2021?",
                                      "Did Apple's operating expenses rise in 2022 compared with 2021?"])
def test_a_lead_in_without_its_table_is_left_out(apple_expenses: MemoryBank, question: str) -> None:
    answer = apple_expenses.run(question).answer
    assert "were as follows" not in answer, answer
    assert not answer.rstrip().endswith(":"), answer
    assert "| 2022:" in answer, answer  # the row the lead-in introduced is shown, labelled, by year


def test_a_lead_in_that_says_something_ends_as_a_statement() -> None:
    """Oracle's 10-K (PDF page 15): the sentence is the best one, its list is not among the evidence."""
    said = ("Our programs are supported by Oracle leaders across the company with strategic sponsorship from "
            "Oracle’s Executive Diversity Council, which is led by Safra Catz, our Chief Executive Officer, and "
            "extend through the actions we are taking globally on Oracle’s five D&I Imperatives:")
    pool = [Evidence(said, "d&i", "ORACLE_2023_10K.pdf", (15,), 1.0, position=0)]
    answer = Answerer(HashingEmbedder()).compose("Who sponsors Oracle's diversity programs?", pool, [0], 1.0)
    assert answer.text == said.removesuffix(":") + ".", answer.text
