"""Questions asking for an account ("What happens to …?", "How does …?") worded apart from the sentences that give
it (bench/data/doc_qa_dev3.json, dev2): the found model, fit on SQuAD's one-fact questions, rated the answering
sentence a little below its threshold and the reply was "not found"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.kind_named import EXPLAIN_LOGIT, explain_accepts
from memory_bank.engines.protocol.not_found import is_not_found
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.asks import explains
from tests.support.pdf_pages import bank_of_pages

from .conftest import SQUAD


@pytest.fixture(scope="module")
def components(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 18-19: "3 Logical Components of Zero Trust Architecture", the PE, PA and PEP
    return bank_of_pages("NIST.SP.800-207.pdf", [17, 18], tmp_path_factory.mktemp("components"), embedder=embedder)


def test_an_account_worded_apart_from_its_sentence_is_answered(components: MemoryBank) -> None:
    """"later withdrawn" of "a previous approval is countermanded": the PA's sentence is the best one, below the
    threshold by 0.64."""
    answer = components.run("What happens to a session that is already open if the approval it was granted on is "
                            "later withdrawn?").answer
    assert not is_not_found(answer) and "countermanded" in answer and "shut down" in answer, answer


def test_which_questions_ask_for_an_account() -> None:
    for question in ("What happens to a session if its approval is withdrawn?", "Why did margins fall?",
                     "On a device where apps run sandboxed, how does one of them reach a resource?",
                     "How should an agency pick its first workflow?",
                     "Before an enterprise starts bringing in ZTA, what groundwork has to be done first?"):
        assert explains(question), question
    for question in ("How many tenets are there?", "How much did Apple spend on R&D?", "How long is a session?",
                     "When was the plan approved?", "What is the capital of Kenya?", "Who chairs the board?"):
        assert not explains(question), question
    assert explain_accepts("How does the PA end a session?", EXPLAIN_LOGIT)
    assert not explain_accepts("How does the PA end a session?", EXPLAIN_LOGIT - 0.1)
    assert not explain_accepts("Who ends a session?", 0.9 * EXPLAIN_LOGIT)



def test_an_account_is_not_read_past_a_best_sentence_refused_for_a_near_miss(embedder: CachedEmbedder,
                                                                             tmp_path: Path) -> None:
    """bench/squad_near_miss.py: "Why does the United Methodist Church support conscription?" is a near miss of
    "… opposes conscription …" (refused for "support"); the found model rates "… also supports and extends its
    ministry …" higher, and it was taken for the account asked."""
    if not SQUAD.is_file():
        pytest.skip(f"shared data missing: {SQUAD}")
    article = next(a for a in json.loads(SQUAD.read_text(encoding="utf-8"))["data"]
                   if a["title"] == "United_Methodist_Church")
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    bank.ingest_text("\n\n".join(p["context"] for p in article["paragraphs"]), "umc.txt")
    assert is_not_found(bank.run("Why does the United Methodist Church support conscription?").answer)
