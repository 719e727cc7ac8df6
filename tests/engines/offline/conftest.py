"""Fixtures for the offline engine tests: the real embedding model (loaded once) and small real texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

SQUAD = SHARED_DATA / "squad" / "squad_dev_visible.json"


@pytest.fixture(scope="session")
def squad_article() -> dict:
    """The first SQuAD article (title, paragraphs with their questions)."""
    if not SQUAD.is_file():
        pytest.skip(f"shared data missing: {SQUAD}")
    return json.loads(Path(SQUAD).read_text(encoding="utf-8"))["data"][0]
