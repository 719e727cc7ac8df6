"""Store fixtures: every contract test runs on SQLite and on a real PostgreSQL server (the suite's throwaway
cluster: `postgres_url` in tests/conftest.py, tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bank import Settings
from memory_bank.store import SqlTaskStore

from ..support.postgres import create_database


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """None for SQLite (the default file in the data folder); a fresh database on the session's server."""
    if backend == "sqlite":
        return None
    server = request.getfixturevalue("postgres_url")
    return create_database(server, f"t{tmp_path.name.lower().replace('-', '_')[-40:]}")


@pytest.fixture
def settings(tmp_path: Path, db_url: str | None) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=db_url)


@pytest.fixture
def store(settings: Settings) -> Iterator[SqlTaskStore]:
    opened = SqlTaskStore.from_settings(settings)
    yield opened
    opened.close()
