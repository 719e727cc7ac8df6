"""The bank's snapshot is typed all through: conflicts, merge events, the Insight Doc and the usage are values
with fields (a misspelt key is an error where it is read, not a silent default), and detached from the live
memory."""

from __future__ import annotations

from pathlib import Path

from memory_bank import (
    ConflictView,
    InsightDoc,
    MemoryBank,
    MergeEventView,
    RunUsage,
    Settings,
)
from memory_bank.engines.llm.client import Completion
from memory_bank.retrieval.embedding import HashingEmbedder

NOTES = Path(__file__).resolve().parents[2] / "samples" / "northwind"


def _bank(tmp_path: Path) -> MemoryBank:
    return MemoryBank(Settings(engine="offline", temp_dir=str(tmp_path), max_llm_calls=50, max_tokens=1000),
                      embedder=HashingEmbedder())


def test_conflicts_merges_and_the_insight_doc_are_typed_and_detached(tmp_path: Path) -> None:
    bank = _bank(tmp_path)
    result = bank.run("What is the Northwind project budget?",
                      files=[NOTES / n for n in ("project-overview.md", "finance-review.md", "board-minutes.md")])
    snap = bank.snapshot()
    assert snap.conflicts and all(isinstance(c, ConflictView) for c in snap.conflicts)
    assert snap.merge_events and all(isinstance(e, MergeEventView) for e in snap.merge_events)
    live = {c.id: c for c in bank.memory.conflicts.values()}
    for view in snap.conflicts:
        stored = live[view.id]
        assert (view.node_a, view.node_b, view.status, view.merged_into) == (
            stored.node_a, stored.node_b, stored.status, stored.merged_into)
        assert view.pending == (stored.status == "pending")
    assert snap.counts["pending_conflicts"] == sum(c.status == "pending" for c in live.values())
    events = bank.memory.tree.merge_events
    assert [(e.new_node_id, e.merged_node_ids) for e in snap.merge_events] == [
        (e.new_node_id, tuple(e.merged_node_ids)) for e in events]
    assert isinstance(snap.insight_doc, InsightDoc) and snap.insight_doc == result.insight_doc
    snap.insight_doc.completed_tasks.clear()
    assert bank.memory.insight_doc.completed_tasks, "the snapshot's doc is a copy"


def test_usage_counts_tokens_and_keeps_its_stored_form(tmp_path: Path) -> None:
    bank = _bank(tmp_path)
    bank.meter.record("ingest", Completion("x", prompt_tokens=70, completion_tokens=30, cached_tokens=20), 0.5)
    bank.meter.begin_run()
    bank.meter.record("react", Completion("y", prompt_tokens=12, completion_tokens=3), 0.1)
    usage = bank.snapshot().usage
    assert isinstance(usage, RunUsage)
    assert (usage.run.calls, usage.run.tokens, usage.task.calls, usage.task.tokens) == (1, 15, 2, 115)
    assert (usage.task.cached_tokens, usage.max_llm_calls, usage.max_tokens) == (20, 50, 1000)
    assert usage.run.cost is None, "no prices set"
    assert usage.task.processed_tokens == 62, "sent less served by the prompt cache"
    assert bank.usage() == {"calls": 2, "prompt_tokens": 82, "cached_tokens": 20, "processed_tokens": 62,
                            "completion_tokens": 33,
                            "run_calls": 1, "run_tokens": 15, "max_llm_calls": 50, "max_tokens": 1000,
                            "cost": None, "run_cost": None, "max_cost": None,
                            "per_agent": bank.meter.snapshot()}
