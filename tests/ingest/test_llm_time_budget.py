"""An LLM ingestion stops within one call of its time budget (INGEST_TIME_BUDGET), keeps what it built, says so.

The budget was checked between waves only: on a local model a wave of the NIST PDF began inside the budget and
ran on ~48 minutes past it (stopped by hand). After the first wave (read whole, so something is always read) it
is checked before every call as well. The clock here is the number of calls the scripted server answered, so
what is checked is counted, never timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import ChunksStored, MemoryBank, ReadingStopped
from memory_bank.ingest import pipeline
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import ScriptedLLM

# one chunk a wave (one call at once), each paragraph a cluster of its own with candidates before it
NOTES = "\n\n".join(f"Site {i} of the ALPHA network runs PUMPS that move water to the BETA tank every hour, and its "
                    f"valves close at night. FACT:site{i}=open. " * 3 for i in range(24))
LIMITS = {"llm_concurrency": 1, "agent_window": 1_024, "llm_timeout": 30.0}


def ingest(embedder: CachedEmbedder, tmp_path: Path, budget: float,
           monkeypatch: pytest.MonkeyPatch) -> tuple[MemoryBank, FakeOpenAI, list, list[int]]:
    """Ingest NOTES on a clock that is the calls made so far; returns the calls made when each wave ended."""
    with FakeOpenAI(handler=ScriptedLLM(per_cluster=1)) as fake:
        monkeypatch.setattr(pipeline, "perf_counter", lambda: float(len(fake.chat_requests)))
        bank = MemoryBank(fake.settings(ingest_time_budget=budget, **LIMITS), embedder=embedder, workdir=tmp_path)
        events: list = []
        waves: list[int] = []
        bank.subscribe(events.append)
        bank.subscribe(lambda e: waves.append(len(fake.chat_requests)) if isinstance(e, ChunksStored) else None)
        bank.ingest_text(NOTES, source="alpha.txt")
    return bank, fake, events, waves


def test_an_llm_ingestion_stops_within_one_call_of_its_budget(embedder: CachedEmbedder, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    whole, _, _, waves = ingest(embedder, tmp_path / "whole", 1e6, monkeypatch)
    assert len(waves) >= 3 and waves[1] - waves[0] >= 3, "the text is read in waves of several calls"
    budget = waves[0] + 0.5  # spent during the second wave's first call
    bank, fake, events, done = ingest(embedder, tmp_path / "cut", budget, monkeypatch)
    assert len(fake.chat_requests) == waves[0] + 1, "one call past the budget, not the rest of the wave"
    assert done == waves[:1], "the cut wave is not counted as stored: a resumed ingestion reads it again"
    [stop] = [e for e in events if isinstance(e, ReadingStopped)]
    assert (stop.source, stop.unit, stop.done) == ("alpha.txt", "parts", 1)
    assert "between two model calls" in stop.message and "INGEST_TIME_BUDGET" in stop.message
    assert "what was read is kept" in stop.message
    [report] = bank.reports
    assert report.stopped is not None and report.stopped.message == stop.message
    kept = {n.id for n in bank.snapshot().nodes}
    assert set(report.node_ids) <= kept and 0 < len(report.node_ids) < len(whole.reports[0].node_ids)
