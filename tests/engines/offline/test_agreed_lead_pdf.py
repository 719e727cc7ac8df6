"""A lead the found model refused, kept when the best sentences after it agree on one short sub-section, on real
pages of NIST SP 800-207 (bench/data/doc_qa_blind7.json's nist-h07 was answered "not found": its three best
sentences all come from "7.3.6 Initial Deployment and Monitoring", the first rated -0.38 by a model fit on SQuAD's
one-fact questions); and never for a long part of the documents, where a near miss's best sentences agree too."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.titled_section import short_section
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def migration(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 45-50: 7 Migrating to a Zero Trust Architecture, to 7.3.6 Initial Deployment and Monitoring and
    # 7.3.7 Expanding the ZTA
    return bank_of_pages("NIST.SP.800-207.pdf", list(range(44, 50)), tmp_path_factory.mktemp("migration"),
                         embedder=embedder)


def test_a_long_question_in_the_readers_words_is_answered_from_the_sub_section_its_best_sentences_agree_on(
        migration: MemoryBank) -> None:
    answer = migration.run("How should access policies for a newly migrated workflow change between its first "
                           "deployment and steady operation, and why?").answer
    assert not answer.startswith("Not found"), answer
    assert "more lenient" in answer and "baseline" in answer, answer


def test_a_short_section_is_a_sub_section_not_a_chapter(migration: MemoryBank, tmp_path: Path,
                                                        embedder: CachedEmbedder) -> None:
    view = migration.view
    paths = {node.section() for node in view.section_nodes()}
    sub = next(p for p in paths if p and p[-1].startswith("7.3.6"))
    assert short_section(sub, view)
    long_one = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    long_one.ingest_text("# History\n\n" + " ".join(f"In {1800 + i} the town built its bridge number {i}."
                                                    for i in range(120)), "town.md")
    history = next(p for p in (n.section() for n in long_one.view.section_nodes()) if p)
    assert not short_section(history, long_one.view)
    assert not short_section(("No such section",), view)
