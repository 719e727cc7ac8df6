"""Answers to questions a reader of NIST SP 800-207 asks (bench/data/doc_qa_blind2.json showed them wrong), on
real pages: a comparison whose best sentence for one side is a lead-in ("… is as follows:"), "What is ZTA?" /
"What is an NPE?" of acronyms the document defines, and an acronym asked in the plural ("NPEs")."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.constraints import other_forms, unmet_terms
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder
from memory_bank.text.tokens import stems, tokenize
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 10-13 (the introduction: "An operative definition of zero trust and zero trust architecture is as
    # follows:" and the two definitions after it) and 39-40 (5.7 Use of Non-person Entities (NPE) in ZTA
    # Administration)
    return bank_of_pages("NIST.SP.800-207.pdf", [9, 10, 11, 12, 38, 39], tmp_path_factory.mktemp("nist"),
                         embedder=embedder)


def test_a_lead_in_is_not_an_answer_what_it_announces_is(nist: MemoryBank) -> None:
    answer = nist.run("What is the difference between zero trust and a zero trust architecture?").answer
    assert "as follows:" not in answer, answer
    assert "Zero trust architecture (ZTA) is an enterprise’s cybersecurity plan" in answer, answer


def test_what_an_acronym_is_opens_with_its_long_form(nist: MemoryBank) -> None:
    zta = nist.run("What is ZTA?").answer
    assert zta.startswith("ZTA stands for Zero trust architecture. A zero trust architecture (ZTA) is an enterprise "
                          "cybersecurity architecture"), zta
    npe = nist.run("What is an NPE?").answer  # defined only in a heading: the long form, then what the text says
    assert npe.startswith("NPE stands for Non-person Entities. "), npe


def test_an_acronym_in_the_plural_is_its_singular() -> None:
    assert tokenize("letting NPEs and PEPs help") == ["letting", "npe", "pep", "help"]
    assert "npe" in stems("Which NPEs?")
    assert unmet_terms("What risks come from letting NPEs administer a ZTA?",
                       "An attacker could induce or coerce an NPE to perform some task in a ZTA.", "") == []
    assert tokenize("IDs of US users") == ["id", "us", "users"]
    assert other_forms("NPEs") == ("npe",) and other_forms("Apple") == ()


def test_an_acronym_asked_in_the_plural_is_not_reported_unmentioned(tmp_path: Path) -> None:
    """Notes that say "PE" only: "What do the PEs decide?" was answered "They never mention “PEs”"."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("The policy engine (PE) decides whether a subject gets access to a resource.", "notes.txt")
    answer = bank.run("What do the PEs decide?").answer
    assert "never mention" not in answer, answer


def test_a_yes_no_question_opening_with_its_setting_gets_a_verdict(tmp_path_factory: pytest.TempPathFactory,
                                                                   embedder: CachedEmbedder) -> None:
    """"Under a ZTA, can visitors on an enterprise campus …?" opens with its setting, not its auxiliary: it asks for
    a verdict all the same (PDF page 35, the campus with visitors)."""
    bank = bank_of_pages("NIST.SP.800-207.pdf", [33, 34], tmp_path_factory.mktemp("campus"), embedder=embedder)
    answer = bank.run("Under a ZTA, can visitors on an enterprise campus use its network to reach the enterprise's "
                      "internal resources?").answer
    assert answer.startswith(("Yes. ", "No. ")), answer  # it was the sentence alone, no verdict
