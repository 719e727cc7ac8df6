"""A throwaway PostgreSQL cluster for the tests: the store's contract tests and the two-server app test use one.

PostgreSQL is Debian's (`scripts/test.sh` installs it as root): a cluster is initialised in a temp folder as the
`postgres` user, listens on a Unix socket in that folder only (no TCP at all), and is stopped and deleted at the
end. Without the server binaries or root, `postgres_cluster` says why it cannot start one (the caller skips).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql")


def pg_bin() -> Path | None:
    versions = sorted(PG_BIN.glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name))
    return versions[-1].parent if versions else None


def unavailable() -> str | None:
    """Why no cluster can be started here, or None."""
    if pg_bin() is None:
        return "PostgreSQL is not installed (scripts/test.sh installs Debian's postgresql as root)"
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return "starting a throwaway PostgreSQL cluster needs root (runuser -u postgres)"
    return None


def as_postgres(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, text=True,
                          timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """The URL of database `tasks` on a fresh cluster, for as long as the block runs."""
    bin_dir = pg_bin()
    root = Path(tempfile.mkdtemp(prefix="amb-pg-"))
    shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", _free_port()
    as_postgres(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
    as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "server.log"), "-o",
                f"-k {root} -p {port} -c listen_addresses='' -c fsync=off", "start")
    try:
        as_postgres(str(bin_dir / "createdb"), "-h", str(root), "-p", str(port), "-U", "postgres", "tasks")
        yield f"postgresql+psycopg://postgres@/tasks?host={root}&port={port}"
    finally:
        subprocess.run(["runuser", "-u", "postgres", "--", str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-m",
                        "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def create_database(server_url: str, name: str) -> str:
    """A new empty database on the cluster of `server_url`; its URL."""
    base, query = server_url.split("?")
    host = dict(p.split("=") for p in query.split("&"))
    as_postgres(str(pg_bin() / "createdb"), "-h", host["host"], "-p", host["port"], "-U", "postgres", name)
    return f"{base.rsplit('/', 1)[0]}/{name}?{query}"
