"""A kind of item asked in the reader's words ("dangers" of a section that names risks), and a sentence that only
says where the document discusses a thing, on real pages of NIST SP 800-207 (bench/data/doc_qa_blind7.json's
nist-h08 was answered "not found": "• Section 5 discusses threats …" of the document's outline led its ranking,
and no sentence of section 5.7 said "danger")."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.kind_named import asked_kind
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.asks import item_noun
from memory_bank.text.reader_concepts import kind_synonyms
from memory_bank.text.signposts import asks_where, points_elsewhere
from memory_bank.text.tokens import stems
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 10-13 (the introduction and "1.2 Structure of This Document": "• Section 5 discusses threats to an
    # enterprise using a ZTA.") and 39-40 (5.7 Use of Non-person Entities (NPE) in ZTA Administration)
    return bank_of_pages("NIST.SP.800-207.pdf", [9, 10, 11, 12, 38, 39], tmp_path_factory.mktemp("nist"),
                         embedder=embedder)


def test_dangers_asked_are_the_risks_the_section_names(nist: MemoryBank) -> None:
    answer = nist.run("What dangers does the document see in handing ZTA administration tasks to AI or other "
                      "software agents?").answer
    assert "false positives" in answer and "impersonate the agent" in answer, answer
    assert "Section 5 discusses" not in answer and not answer.startswith("Not found"), answer


def test_where_a_thing_is_discussed_still_answers_a_question_asking_where(nist: MemoryBank) -> None:
    answer = nist.run("Where does the publication present the starting point for transitioning an enterprise to a "
                      "ZTA?").answer
    assert "Section 7 presents the starting point" in answer, answer


def test_a_signpost_is_a_sentence_pointing_to_a_part_of_the_document() -> None:
    assert points_elsewhere("• Section 5 discusses threats to an enterprise using a ZTA.")
    assert points_elsewhere("Appendix B identifies the gaps found in a technology survey.")
    assert points_elsewhere("This section describes the logical components of a ZTA.")
    assert not points_elsewhere("Section 230 provides immunity to online platforms for what their users post.")
    assert not points_elsewhere("The policy engine decides whether a subject gets access to a resource.")
    assert not points_elsewhere("Sections of the network are segmented by gateways that list the allowed flows.")
    assert asks_where("Which section covers threats?") and not asks_where("What threats does a ZTA face?")


def test_a_readers_kind_of_item_is_asked_in_the_documents_words_too() -> None:
    assert item_noun("What dangers does the document see in handing tasks to software agents?") == "dangers"
    assert kind_synonyms("dangers") == "risks; threats" and kind_synonyms("components") == ""
    assert {"risk", "threat", "danger"} <= asked_kind("What dangers come from software agents?")
    assert asked_kind("What components make up a ZTA?") == frozenset(stems("components"))
