"""Real SQuAD text for the embedding runtimes' tests (skipped where the shared data is missing)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from memory_bank.retrieval.embedding import CachedEmbedder, Runtime, load_embedder

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
