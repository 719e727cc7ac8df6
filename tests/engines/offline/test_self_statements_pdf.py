"""A question opened by what the user says of themselves, on real pages of NIST SP 800-207 (PDF pp. 16-17 and 32):
the case's words ("single-site", "hotel and home networks") made the answer "not found" (a term the documents never
mention, or a ranking pulled off the sentences that answer)."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("NIST.SP.800-207.pdf", [15, 16, 31], tmp_path_factory.mktemp("self"), embedder=embedder)


def test_a_users_case_is_not_a_term_the_documents_must_say(nist: MemoryBank) -> None:
    answer = nist.run("We are a single-site organization with hardly any remote staff. Can we still benefit from a "
                      "zero trust architecture, or is it really meant for distributed organizations?").answer
    assert not answer.startswith(NOT_FOUND) and "any organization can benefit" in answer, answer


def test_a_users_case_does_not_pull_the_answer_off_its_sentences(nist: MemoryBank) -> None:
    answer = nist.run("Our staff often work over hotel and home networks. What should their devices assume about "
                      "those local networks, and what should every connection they make provide?").answer
    assert "hostile" in answer and "authenticated and authorized" in answer, answer
