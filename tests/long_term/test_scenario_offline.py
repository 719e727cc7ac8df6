"""A multi-task scenario through the public API on the offline engine (seed 004 §6-8).

Task 1 hits a tool error, recovers and records a strategy; task 2 meets the same error and applies it at the first
retry (fewer calls, counted at the server); 👎 on an answer demotes the records it used, which rank lower in the
next task; what was injected is on the run result and published as an event.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import (
    Category,
    LongTermInjected,
    LongTermLearned,
    LongTermMemory,
    MemoryBank,
    RecoveryMetadata,
    Settings,
    Source,
    ToolError,
    ToolRecovered,
)
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.long_term.conftest import VISIT_TIMEOUT, Clock
from tests.tools.local_server import LocalServer

QUESTION = "When was the Northwind budget approved?"


def _bank(tmp_path: Path, name: str, embedder: CachedEmbedder, ltm: LongTermMemory,
          budget: int = 120) -> MemoryBank:
    settings = Settings(engine="offline", visit_timeout=VISIT_TIMEOUT, visit_allow_private=True,
                        data_dir=tmp_path / "data", long_term_budget_tokens=budget)
    return MemoryBank(settings, embedder=embedder, workdir=tmp_path / name, long_term=ltm)


def test_a_recovered_tool_error_is_remembered_and_reused(tmp_path: Path, embedder: CachedEmbedder, storage: Path,
                                                         clock: Clock, slow_server: LocalServer) -> None:
    url = f"{slow_server.url}/slow"
    ltm = LongTermMemory(storage, "alice", embedder=embedder, clock=clock)
    bank = _bank(tmp_path, "task1", embedder, ltm)
    recovered: list[ToolRecovered] = []
    bank.subscribe(lambda e: recovered.append(e) if isinstance(e, ToolRecovered) else None)
    text = bank.call_tool("visit", {"url": url, "goal": "budget approval"}, goal=QUESTION)
    assert "approved by the board in March" in text
    # no strategy yet: the built-in rules try the same call (a timeout may be transient), then a longer deadline
    assert slow_server.paths().count("/slow") == 3
    assert [(e.fix_source, e.retries, e.ok) for e in recovered] == [("rule", 2, True)]
    [strategy] = ltm.records(Category.STRATEGY, tags=["error_recovery", "tool:visit", "error:Timeout"])
    meta = RecoveryMetadata.model_validate(strategy.metadata)
    assert (meta.tool_name, meta.error_type, meta.success) == ("visit", "Timeout", True)
    assert meta.fix_pattern.original == {"timeout": None}
    assert meta.fix_pattern.fixed == {"timeout": pytest.approx(VISIT_TIMEOUT * 3)}
    detail = ltm.reflection(strategy.memory_id) or ""
    assert "# Error recovery strategy: visit" in detail and '"timeout"' in detail
    bank.clear()

    # task 2, a new bank and the memory re-read from disk: the strategy is applied at the first retry
    ltm2 = LongTermMemory(storage, "alice", embedder=embedder, clock=clock)
    bank2 = _bank(tmp_path, "task2", embedder, ltm2)
    recovered.clear()
    bank2.subscribe(lambda e: recovered.append(e) if isinstance(e, ToolRecovered) else None)
    before = slow_server.paths().count("/slow")
    assert "approved by the board" in bank2.call_tool("visit", {"url": url, "goal": "budget"}, goal=QUESTION)
    assert slow_server.paths().count("/slow") - before == 2  # the failing call and the remembered fix: 3 -> 2
    assert [(e.fix_source, e.retries, e.memory_id) for e in recovered] == [("memory", 1, strategy.memory_id)]
    again = ltm2.get(strategy.memory_id)
    assert again.confidence > strategy.confidence
    assert RecoveryMetadata.model_validate(again.metadata).successes == 2

    reflection = ltm2.reflect("strategy")
    assert reflection is not None
    summary = ltm2.reflection(reflection.memory_id) or ""
    assert "# Tool execution error recovery experience" in summary and "visit, Timeout" in summary


def test_an_unrecoverable_error_reaches_the_caller(tmp_path: Path, embedder: CachedEmbedder,
                                                   ltm: LongTermMemory) -> None:
    bank = _bank(tmp_path, "t", embedder, ltm)
    with pytest.raises(ToolError, match="no memory node"):
        bank.call_tool("deep_retrieval", {"node_id": "0123456789ab"})
    assert ltm.records(Category.STRATEGY) == []


def test_empty_search_takes_the_task_goal(tmp_path: Path, embedder: CachedEmbedder, ltm: LongTermMemory,
                                          northwind_text: str) -> None:
    bank = _bank(tmp_path, "t", embedder, ltm)
    bank.ingest_text(northwind_text, source="northwind")
    text = bank.call_tool("search", {"query": ""}, goal=QUESTION)
    assert "Local documents for 'When was the Northwind budget approved?'" in text
    [strategy] = ltm.records(Category.STRATEGY, tags=["error:MissingArgument"])
    assert RecoveryMetadata.model_validate(strategy.metadata).fix_pattern.fixed == {"query": "{task_goal}"}


def test_feedback_demotes_the_records_an_answer_used(tmp_path: Path, embedder: CachedEmbedder, storage: Path,
                                                     clock: Clock, northwind_text: str) -> None:
    ltm = LongTermMemory(storage, "alice", embedder=embedder, clock=clock)
    used = ltm.add("The Northwind budget figures are in the board minutes", Category.WORK,
                   source=Source.USER_INPUT, confidence=0.8)
    other = ltm.add("The Northwind budget was discussed in the finance review", Category.WORK,
                    source=Source.USER_INPUT, confidence=0.7)
    bank = _bank(tmp_path, "task1", embedder, ltm, budget=110)
    bank.ingest_text(northwind_text, source="northwind")
    seen = []
    bank.subscribe(seen.append)
    first = bank.run(QUESTION)
    assert first.long_term is not None and first.long_term.injection is not None
    assert first.long_term.injection.memory_ids == [used.memory_id]  # the budget holds one record
    assert first.long_term.injection.tokens <= 110
    [event] = [e for e in seen if isinstance(e, LongTermInjected)]
    assert event.memory_ids == (used.memory_id,)
    assert any(isinstance(e, LongTermLearned) for e in seen) and first.long_term.distilled
    lesson = ltm.get(first.long_term.distilled[0])
    assert lesson.category is Category.STRATEGY and "Northwind budget" in lesson.content
    assert ltm.get(used.memory_id).access_count == 1

    changed = ltm.feedback(first.long_term.answer_id, "down", reason="cited the wrong document")
    assert [r.memory_id for r in changed] == [used.memory_id]
    demoted = ltm.get(used.memory_id)
    assert demoted.needs_revision and demoted.reward < 0 and demoted.confidence < used.confidence

    second = bank.run(QUESTION)
    assert second.long_term is not None and second.long_term.injection is not None
    assert second.long_term.injection.memory_ids[0] == other.memory_id  # the demoted record ranks lower now
    ltm.feedback(second.long_term.answer_id, 5)
    [pair] = ltm.feedback_pairs()
    assert pair["rejected_id"] == first.long_term.answer_id and pair["chosen_id"] == second.long_term.answer_id
    assert ltm.feedback_jsonl().count("\n") == 1
    assert ltm.records(Category.WORK, tags=["confirmed"]), "a liked answer is a fact the user confirmed"


def test_the_bank_works_unchanged_without_long_term(tmp_path: Path, embedder: CachedEmbedder,
                                                    northwind_text: str) -> None:
    bank = MemoryBank(Settings(engine="offline", data_dir=tmp_path / "data"), embedder=embedder,
                      workdir=tmp_path / "plain")
    bank.ingest_text(northwind_text, source="northwind")
    result = bank.run(QUESTION)
    assert result.long_term is None and result.answer
    assert not (tmp_path / "data").exists()
