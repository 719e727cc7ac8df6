"""Real SQuAD text for the embedding runtimes' tests (skipped where the shared data is missing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
