"""Test-wide guards.

Every test runs with outbound network limited to loopback: a test that would reach a real API (OpenAI, Serper,
Jina, a model hub) fails loudly instead of passing by luck on a connected machine. The hub's offline switches
are deliberately not set: the embedder must load with no network on its own, as it does in the product.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bank.retrieval.embedding import CachedEmbedder, load_embedder

from .support.postgres import postgres_cluster, unavailable

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
NIST_PDF = SHARED_DATA / "pdf" / "NIST.SP.800-207.pdf"

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _is_loopback(host: object) -> bool:
    if not isinstance(host, str):
        return True  # an abstract AF_UNIX address (bytes) and the like
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _guard(sock: socket.socket, address: object) -> None:
    if sock.family == socket.AF_UNIX:
        return  # a path on this machine (the local model server's socket): nothing leaves it
    host = address[0] if isinstance(address, tuple) else address
    if not _is_loopback(host):
        raise RuntimeError(f"test tried to reach {address!r}: tests may only talk to 127.0.0.1")


def _connect(self, address):  # noqa: ANN001
    _guard(self, address)
    return _real_connect(self, address)


def _connect_ex(self, address):  # noqa: ANN001
    _guard(self, address)
    return _real_connect_ex(self, address)


def _getaddrinfo(host, *args, **kwargs):  # noqa: ANN001
    if isinstance(host, str) and not _is_loopback(host):
        raise socket.gaierror(f"test tried to resolve {host!r}: tests may only talk to 127.0.0.1")
    return _real_getaddrinfo(host, *args, **kwargs)


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", _getaddrinfo)


@pytest.fixture(scope="session")
def nist_pdf() -> Path:
    if not NIST_PDF.is_file():
        pytest.skip(f"shared data missing: {NIST_PDF}")
    return NIST_PDF


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    """The real MiniLM model, loaded once for the whole session (engines and contract tests share it)."""
    loaded = load_embedder()
    if loaded.warning:
        pytest.skip(f"the MiniLM model is not available here: {loaded.warning}")
    return loaded


@pytest.fixture(scope="session", autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The app keeps its tasks in MEMORY_BANK_DATA_DIR: the tests' (and the servers they start) is a temp
    folder, never the home folder."""
    before = os.environ.get("MEMORY_BANK_DATA_DIR")
    folder = tmp_path_factory.mktemp("data-dir")
    os.environ["MEMORY_BANK_DATA_DIR"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("MEMORY_BANK_DATA_DIR", None)
    else:
        os.environ["MEMORY_BANK_DATA_DIR"] = before


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for the whole session (database `tasks`); skipped with the reason where
    one cannot be started."""
    why = unavailable()
    if why:
        pytest.skip(why)
    with postgres_cluster() as url:
        yield url
