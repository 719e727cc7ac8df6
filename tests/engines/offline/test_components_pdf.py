"""A question on NIST's logical components (PDF pages 18-20) asked in plain words (bench/data/doc_qa_dev3.json): a
list item whose answer is the sentence after its first."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def components(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 18: "3 Logical Components …" and the core components; page 19: the data sources, "An enterprise CDM
    # system provides the policy engine with …"; page 20: "• ID management system: … This system contains …"
    return bank_of_pages("NIST.SP.800-207.pdf", [17, 18, 19], tmp_path_factory.mktemp("components"),
                         embedder=embedder)


def test_a_list_item_is_read_on_where_its_passage_goes_on(components: MemoryBank) -> None:
    """The item's first sentence was read in the section's outline, where the next item (the SIEM system) follows
    it, and the answer went on with that item instead of "This system contains … name, email address …"."""
    answer = components.run("What information about a subject does the enterprise ID management system hold?").answer
    assert "email address" in answer and "assigned assets" in answer, answer
    assert "SIEM" not in answer, answer
