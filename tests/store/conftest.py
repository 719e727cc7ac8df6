"""Store fixtures: every contract test runs on SQLite and on a real PostgreSQL server (the suite's throwaway
cluster: `postgres_url` in tests/conftest.py, tests/support/postgres.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import CachedEmbedder
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
    """The store, closed after the test, which must have closed every bank it opened: a bank left open leaves
    its lease renewing, and after the session's PostgreSQL server stopped each such bank logged "renewing a
    task's lease failed: connection is bad" every few seconds (`reopen` opens and closes for a test)."""
    before = set(threading.enumerate())
    opened = SqlTaskStore.from_settings(settings)
    yield opened
    left = sorted(t.name for t in set(threading.enumerate()) - before if t.name.startswith("task-lease-"))
    opened.close()
    if left:
        pytest.fail(f"the test left a bank open: its lease keeper still runs ({', '.join(left)})")


@pytest.fixture
def reopen(settings: Settings, store: SqlTaskStore,
           embedder: CachedEmbedder) -> Iterator[Callable[..., MemoryBank]]:
    """Opens a stored task again for a test to look at, and closes it when the test ends, passed or failed."""
    opened: list[MemoryBank] = []

    def open_task(task_id: str, with_settings: Settings | None = None) -> MemoryBank:
        opened.append(MemoryBank.open(task_id, store, with_settings or settings, embedder=embedder))
        return opened[-1]

    yield open_task
    for bank in opened:
        bank.close()
