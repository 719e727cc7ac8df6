"""A question of several parts that one short sub-section answers is answered with that sub-section whole, on real
pages of NIST SP 800-207 (bench/data/doc_qa_blind4.json's nist-e02: each part got its best sentence of "5.5 Storage
of System and Network Information", and the protection the second part asks for, in its last sentence, was left
out)."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def threats(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 37-41: 5 Threats Associated with Zero Trust Architecture to 6.1 ZTA and NIST Risk Management Framework
    return bank_of_pages("NIST.SP.800-207.pdf", [36, 37, 38, 39, 40], tmp_path_factory.mktemp("threats"),
                         embedder=embedder)


def test_parts_answered_in_one_short_sub_section_get_it_whole(threats: MemoryBank) -> None:
    answer = threats.run("Which information kept for monitoring and policy management becomes a target for "
                         "attackers in a ZTA, and how should it be protected?").answer
    assert "monitor scans, network traffic, and metadata" in answer, answer
    assert "management tool used to encode access policies" in answer, answer
    assert "most restrictive access policies" in answer and "dedicated administrator accounts" in answer, answer
    assert "5.6" not in answer and "proprietary" not in answer.lower(), answer  # the next sub-section is not read


def test_parts_answered_in_different_places_stay_apart(threats: MemoryBank) -> None:
    answer = threats.run("What can an attacker do with stolen credentials in a ZTA, and why is the policy engine "
                         "a target?").answer
    assert answer.count("\n- ") + answer.startswith("- ") >= 2, answer
