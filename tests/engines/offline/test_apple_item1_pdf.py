"""Questions on the real pages of Apple's Item 1 (bench/data/doc_qa_dev3.json): a count asked of a list one sentence
names (the section's sub-sections are no list of the asked kind because two of their openings mention it), and a
yes/no question answered from the intellectual property paragraphs (no notice, though they list kinds of rights)."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def apple_business(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 4-7: Item 1, its eleven sub-sections ("Company Background", "Products", …, "Markets and
    # Distribution": "The Company's customers are primarily in the consumer, small and mid-sized business,
    # education, enterprise and government markets.", "Competition": "The markets for the Company's products …",
    # "Intellectual Property"); PDF pages 12-14: risk factors on third-party intellectual property
    return bank_of_pages("APPLE_2022_10K.pdf", [3, 4, 5, 6, 11, 12, 13], tmp_path_factory.mktemp("apple_business"),
                         embedder=embedder)


def test_the_markets_are_counted_from_the_sentence_not_the_sub_sections(apple_business: MemoryBank) -> None:
    """It answered "There are 11 markets" and listed Item 1's sub-sections."""
    answer = apple_business.run("How many markets does Apple say its customers are primarily in?").answer
    assert answer.startswith("There are 5 markets: The Company’s customers are primarily in the consumer"), answer


def test_the_intellectual_property_paragraphs_answer(apple_business: MemoryBank) -> None:
    """They were read as a legal notice ("patents, designs, copyrights, trademarks, trade secrets" on an early
    page) and cited only when nothing else answered: "Yes." was read off a risk factor on third-party rights."""
    answer = apple_business.run("Does any single intellectual property right on its own protect Apple's products "
                                "and services?").answer
    assert answer.startswith("No. No single intellectual property right is solely responsible"), answer
