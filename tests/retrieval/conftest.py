"""Real SQuAD text for the embedding runtimes' tests (skipped where the shared data is missing)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.memory.query_graph import Node
from memory_bank.retrieval.embedding import CachedEmbedder, Runtime, load_embedder

Ranking = list[tuple[Node, float]]

SQUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "squad" / "squad_dev_visible.json"


@pytest.fixture(scope="module")
def squad() -> list[dict]:
    if not SQUAD.is_file():
        pytest.skip(f"shared data missing: {SQUAD}")
    return json.loads(SQUAD.read_text(encoding="utf-8"))["data"]


@pytest.fixture(scope="module")
def dev_texts(squad: list[dict]) -> list[str]:
    """Questions, whole paragraphs, and paragraphs past the model's 256-token window (truncated alike)."""
    paragraphs = [p["context"] for article in squad[:6] for p in article["paragraphs"]][:60]
    questions = [q["question"] for article in squad[6:8] for p in article["paragraphs"] for q in p["qas"]][:60]
    long_ones = [" ".join(paragraphs[i:i + 4]) for i in range(0, 20, 4)]
    return questions + paragraphs + long_ones + ["", "ab", "Zero trust (ZT) ☃ — 42 %"]


@pytest.fixture(scope="session")
def runtime_embedder() -> Callable[[str], CachedEmbedder]:
    """The bundled model on a named runtime (onnx, onnx-int8, torch), each loaded once for the session's tests;
    a test skips where the model is not available."""
    loaded: dict[str, CachedEmbedder] = {}

    def get(runtime: str) -> CachedEmbedder:
        if runtime not in loaded:
            loaded[runtime] = load_embedder(runtime=cast(Runtime, runtime))
        embedder = loaded[runtime]
        if embedder.warning:
            pytest.skip("the MiniLM model is not available here")
        assert embedder.runtime == runtime
        return embedder

    return get


@pytest.fixture
def ranked_across(squad: list[dict]) -> Callable[[CachedEmbedder, CachedEmbedder], list[tuple[str, Ranking, Ranking]]]:
    """A task made on one runtime, exported and imported on another: (question, its top 5 in the task, its top 5
    in the import) for a question of each of 12 SQuAD paragraphs. The export keeps the node vectors; only the
    question is embedded again, on the other runtime."""
    text = "\n\n".join(p["context"] for p in squad[0]["paragraphs"][:12])
    questions = [q["question"] for p in squad[0]["paragraphs"][:12] for q in p["qas"][:1]]
    settings = Settings(engine="offline")

    def across(made_on: CachedEmbedder, read_on: CachedEmbedder) -> list[tuple[str, Ranking, Ranking]]:
        bank = MemoryBank(settings, embedder=made_on)
        try:
            bank.ingest_text(text, source="squad")
            again = MemoryBank.from_export(json.dumps(bank.export()), settings, embedder=read_on)
            try:
                return [(q, bank.ranked(q, k=5), again.ranked(q, k=5)) for q in questions]
            finally:
                again.clear()
        finally:
            bank.clear()

    return across
