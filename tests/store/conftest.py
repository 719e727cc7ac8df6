"""Store fixtures: every contract test runs on SQLite and on a real PostgreSQL server.

PostgreSQL is Debian's (`scripts/test.sh` installs it as root): a throwaway cluster is initialised in a temp
folder as the `postgres` user, listens on a Unix socket in that folder only (no TCP at all), and is stopped and
deleted at the end of the session. Without the server binaries or root the PostgreSQL half skips with a reason.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.store import SqlTaskStore

PG_BIN = Path("/usr/lib/postgresql")


def _pg_bin() -> Path | None:
    versions = sorted(PG_BIN.glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name))
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (scripts/test.sh installs Debian's postgresql as root)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("starting a throwaway PostgreSQL cluster needs root (runuser -u postgres)")
    root = Path(tempfile.mkdtemp(prefix="amb-pg-"))
    shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", _free_port()
    _as_postgres(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
    _as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "server.log"), "-o",
                 f"-k {root} -p {port} -c listen_addresses='' -c fsync=off", "start")
    try:
        _as_postgres(str(bin_dir / "createdb"), "-h", str(root), "-p", str(port), "-U", "postgres", "tasks")
        yield f"postgresql+psycopg://postgres@/tasks?host={root}&port={port}"
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-m",
                        "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """None for SQLite (the default file in the data folder); a fresh database on the session's server."""
    if backend == "sqlite":
        return None
    server = request.getfixturevalue("postgres_url")
    name = f"t{tmp_path.name.lower().replace('-', '_')[-40:]}"
    base, query = server.split("?")
    host = dict(p.split("=") for p in query.split("&"))
    _as_postgres(str(_pg_bin() / "createdb"), "-h", host["host"], "-p", host["port"], "-U", "postgres", name)
    return f"{base.rsplit('/', 1)[0]}/{name}?{query}"


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
