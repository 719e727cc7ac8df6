"""Fixtures for the offline engine tests: the real embedding model (loaded once) and small real texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank.retrieval.embedding import CachedEmbedder, load_embedder
from tests.conftest import SHARED_DATA

SQUAD = SHARED_DATA / "squad" / "squad_dev_visible.json"


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    loaded = load_embedder()
    if loaded.warning:
        pytest.skip(f"the MiniLM model is not available here: {loaded.warning}")
    return loaded


@pytest.fixture(scope="session")
def squad_article() -> dict:
    """The first SQuAD article (title, paragraphs with their questions)."""
    if not SQUAD.is_file():
        pytest.skip(f"shared data missing: {SQUAD}")
    return json.loads(Path(SQUAD).read_text(encoding="utf-8"))["data"][0]
