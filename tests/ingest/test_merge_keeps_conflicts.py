"""A merge never closes a pending conflict unexamined.

With the fake engine, `DUP` in two texts means merge and `FACT:x=1` against `FACT:x=2` a conflict. A third note
that duplicates both sides would, merged with both, put the conflict's two sides into one node and close it as
moot: the linker merges it with one side only and relates it to the other, so the conflict still waits for its
cross-validation.
"""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.settings import Settings
from tests.support.fake_engine import fake_engine


def test_a_duplicate_of_both_sides_leaves_the_conflict_pending(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(), embedder=HashingEmbedder(), engine=fake_engine(), workdir=tmp_path / "work")
    bank.ingest_text("DUP ALPHA pumps move water FACT:rate=10 every hour.", "first")
    bank.ingest_text("DUP ALPHA pumps move water FACT:rate=12 every hour.", "second")
    memory = bank.snapshot()
    assert memory.counts["pending_conflicts"] == 1
    bank.ingest_text("DUP ALPHA pumps move water every hour at the northern depot.", "third")
    after = bank.snapshot()
    assert after.counts["pending_conflicts"] == 1, "the conflict waits for its cross-validation"
    assert after.counts["merges"] == 1  # the third note joined one side
    (conflict,) = [c for c in bank.memory.conflicts.values() if c.status == "pending"]
    graph = bank.memory.graph
    assert conflict.node_a in graph and conflict.node_b in graph and conflict.node_a != conflict.node_b
    assert conflict.node_b in graph.neighbors(conflict.node_a), "the side it did not join is related to it"
