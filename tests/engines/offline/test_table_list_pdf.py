"""Items a table lists under a heading, on a real page of Apple's 2022 10-K (PDF p. 45, the income tax note): "What
gives rise to Apple's deferred tax assets?" was answered by the sentence announcing the table ("the significant
components of the Company's deferred tax assets and liabilities were (in millions)") and nothing after it."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages

ROWS = ["Amortization and depreciation", "Accrued liabilities and other reserves", "Lease liabilities",
        "Deferred revenue", "Unrealized losses", "Tax credit carryforwards", "Other"]


@pytest.fixture(scope="module")
def apple(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("APPLE_2022_10K.pdf", [44], tmp_path_factory.mktemp("taxes"), embedder=embedder)


def test_the_rows_under_a_heading_the_question_says_are_its_items(apple: MemoryBank) -> None:
    answer = apple.run("What gives rise to Apple's deferred tax assets?").answer
    assert answer.startswith("The documents list 7 deferred tax assets"), answer
    lines = [line.removeprefix("- ").split(":")[0] for line in answer.splitlines()[1:8]]
    assert lines == ROWS, answer
    assert "Total deferred tax assets: 27,624" in answer and "Valuation allowance" not in answer, answer


def test_the_largest_item_is_told_when_asked_in_another_part(apple: MemoryBank) -> None:
    answer = apple.run("What gives rise to Apple's deferred tax assets, and which item was the biggest at the end "
                       "of fiscal 2022?").answer
    assert "The largest: Tax credit carryforwards (6,962)." in answer, answer
    assert "Not found" not in answer, answer  # the second part is answered by the rows


def test_a_year_asked_takes_that_years_column(apple: MemoryBank) -> None:
    answer = apple.run("What made up Apple's deferred tax assets in 2021?").answer
    assert "figures for 2021" in answer and "Amortization and depreciation: $5,575" in answer, answer


def test_a_question_for_a_figure_gets_no_list_of_rows(apple: MemoryBank) -> None:
    answer = apple.run("What were Apple's total deferred tax assets in 2022?").answer
    assert not answer.startswith("The documents list"), answer


def test_a_heading_that_only_qualifies_the_asked_kind_is_no_list(apple: MemoryBank) -> None:
    """"Which companies hold Apple's deferred tax assets?" names another kind of item than the rows."""
    answer = apple.run("Which companies hold Apple's deferred tax assets?").answer
    assert not answer.startswith("The documents list"), answer
