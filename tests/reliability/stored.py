"""A bank bound to a real SQLite task store, seeded, and the check every stored-task case ends with: the memory
held in the bank is exactly what a reopen of the store finds."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore

from .support import NOTES, SECRET

SEED_NAME = "seed-notes.txt"


def stored_bank(tmp_path: Path) -> tuple[MemoryBank, SqlTaskStore, Settings]:
    """A stored task holding one ingested file, flushed: the memory every case must leave intact."""
    data = tmp_path / "data"
    settings = Settings(llm_api_key=SECRET, data_dir=data)
    store = SqlTaskStore(data)
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder(), task_name="hostile")
    seed = tmp_path / SEED_NAME
    seed.write_text(NOTES, encoding="utf-8")
    bank.ingest_file(seed)
    bank.flush()
    return bank, store, settings


def node_ids(bank: MemoryBank) -> set[str]:
    return {n.id for n in bank.snapshot().nodes}


def reopened_equal(bank: MemoryBank, store: SqlTaskStore, settings: Settings) -> MemoryBank:
    """Close `bank` (its final flush must succeed), reopen the task and require the same memory: node count,
    query graph and interaction tree. Returns the reopened bank (closed)."""
    live = bank.export()
    bank.close()
    reopened = MemoryBank.open(bank.task_id or "", store, settings, embedder=HashingEmbedder())
    try:
        again = reopened.export()
        assert len(again["query_graph"]["nodes"]) == len(live["query_graph"]["nodes"]) > 0
        assert again["query_graph"] == live["query_graph"]
        assert again["interaction_tree"] == live["interaction_tree"]
    finally:
        reopened.close()
    return reopened


def source_names(bank: MemoryBank) -> set[str]:
    return {s.name for n in bank.memory.graph.nodes() for s in n.sources}
