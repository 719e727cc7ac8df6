"""A question about what happens in a scene the document sets up (NIST PDF page 29, bench/data/doc_qa_dev3.json):
the sentence matching the question sets the scene, the one after it says what happens."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def trust_algorithms(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 28-29: "3.3.1 Trust Algorithm Variations", the singular and contextual TAs and their examples
    return bank_of_pages("NIST.SP.800-207.pdf", [27, 28], tmp_path_factory.mktemp("trust_algorithms"),
                         embedder=embedder)


def test_what_happens_in_an_example_is_read_after_the_sentence_setting_it(trust_algorithms: MemoryBank) -> None:
    """The answer stopped at "In another example, an accountant … is now trying to access the system in the middle
    of the night from an unrecognizable location.": the sentence saying what the contextual TA does was past the
    answer's word budget."""
    answer = trust_algorithms.run("What might a contextual trust algorithm do when an accountant who normally uses "
                                  "the financial system during business hours tries to get in at night from an "
                                  "unrecognized location?").answer
    assert "In another example, an accountant" in answer and "trigger an alert" in answer, answer
