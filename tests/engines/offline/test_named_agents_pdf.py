"""How many bodies run something, counted from the names a sentence gives as its agents (NIST SP 800-207 §6.4:
"TIC is a federal cybersecurity initiative jointly managed by OMB, DHS, and the General Services Administration
(GSA), and is intended to …")."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.named_agents import agents_count
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def tic(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 42: "6.4 ZTA and Trusted Internet Connections 3.0"
    return bank_of_pages("NIST.SP.800-207.pdf", [41], tmp_path_factory.mktemp("tic"), embedder=embedder)


def test_the_agents_a_sentence_names_are_counted(tic: MemoryBank) -> None:
    """It was "not found": the sentence gives no number and never says "agencies" or "bodies"."""
    answer = tic.run("How many agencies jointly run the TIC initiative?").answer
    assert answer.startswith("There are 3 agencies: OMB, DHS and General Services Administration (GSA)"), answer


def test_only_names_are_counted_and_only_of_the_asked_subject() -> None:
    ev = Evidence("TIC is a federal cybersecurity initiative jointly managed by OMB, DHS, and the General Services "
                  "Administration (GSA), and is intended to establish a network security baseline.", "n1", "nist.pdf")
    counted = agents_count("How many organizations manage the TIC initiative?", [ev])
    assert counted is not None and counted.text.startswith("There are 3 organizations"), counted
    federal = agents_count("How many federal agencies manage the TIC initiative?", [ev])  # says what it counts
    assert federal is not None and federal.text.startswith("There are 3 agencies: OMB, DHS"), federal
    assert agents_count("How many organizations manage the EINSTEIN program?", [ev]) is None  # another subject
    assert agents_count("How many employees manage the TIC initiative?", [ev]) is None  # no kind of agent
    # who runs it answers no other count of agencies ("How many federal agencies have fully deployed a ZTA?")
    assert agents_count("How many federal agencies have fully deployed the TIC initiative?", [ev]) is None
