"""Hostile callers against the REAL local model server (llama.cpp, the fetched model): what a web page in the
user's browser could send it. The server opens no TCP port (a Unix socket in a 0700 folder), wants a per-start key
on every endpoint but /health, grants CORS to no origin and has slots, metrics and the web UI off; this
process's own client still works through it.

Requests here go over the socket with any headers a test likes (a foreign Host, an Origin, no key): that is more
than a page could do, since a page cannot reach the socket at all. Skips without the model like
tests/engines/llm/test_real_model.py (and fails under CI, where the model must be there).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import psutil
import pytest

from memory_bank import Settings
from memory_bank.control import CancelToken
from memory_bank.engines.llm.local_server import LocalModelServer
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import RunCancelled
from tests.support.local_model import local_model_server

pytestmark = pytest.mark.real_model

EVIL = "https://evil.example"
PREFLIGHT = {"Origin": EVIL, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization,content-type"}
# what a page would try: generate, list models, read other prompts from the slots, read or change the settings
CLOSED = [("POST", "/v1/chat/completions"), ("POST", "/completion"), ("GET", "/v1/models"), ("GET", "/slots"),
          ("GET", "/props"), ("POST", "/props"), ("GET", "/metrics"), ("POST", "/tokenize"),
          ("GET", "/lora-adapters"), ("POST", "/slots/0?action=save")]


@dataclass
class Started:
    server: LocalModelServer
    tcp_before: set[tuple[str, int]]
    tcp_after: set[tuple[str, int]]


def listening_tcp() -> set[tuple[str, int]]:
    return {(c.laddr.ip, c.laddr.port) for c in psutil.Process().net_connections(kind="inet")
            if c.status == psutil.CONN_LISTEN}


@pytest.fixture(scope="module")
def started() -> Iterator[Started]:
    local = local_model_server()
    before = listening_tcp()
    local.start()
    try:
        yield Started(local, before, listening_tcp())
    finally:
        local.stop()


@pytest.fixture
def server(started: Started) -> LocalModelServer:
    return started.server


def key_of(server: LocalModelServer) -> str:
    """Read at each use: a test below restarts the server, which draws a new key."""
    key = server.settings_for(Settings()).secret("llm_api_key")
    assert key
    return key


def raw(server: LocalModelServer) -> httpx2.Client:
    """A client on the server's socket that sends exactly the headers a test gives."""
    return httpx2.Client(transport=httpx2.HTTPTransport(uds=server.socket_path), base_url="http://localhost",
                         timeout=120)


def chat(server: LocalModelServer) -> dict:
    return {"model": server.alias, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 2}


def send(client: httpx2.Client, method: str, path: str, server: LocalModelServer, **headers: str) -> httpx2.Response:
    body = chat(server) if method == "POST" else None
    return client.request(method, path, json=body, headers=headers)


def test_no_tcp_port_is_opened_and_the_socket_is_private(started: Started) -> None:
    """Nothing for a page to connect to or to rebind a name to: the only way in is a file only this user can
    reach."""
    assert started.tcp_after == started.tcp_before, "the server listens on no TCP port"
    folder = Path(started.server.socket_path).parent
    info = folder.stat()
    assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
    assert stat.S_ISSOCK(Path(started.server.socket_path).stat().st_mode)


@pytest.mark.parametrize(("method", "path"), CLOSED)
def test_a_request_without_the_key_is_refused(server: LocalModelServer, method: str, path: str) -> None:
    with raw(server) as client:
        assert send(client, method, path, server).status_code == 401
        wrong = send(client, method, path, server, Authorization="Bearer " + "x" * 43)
        assert wrong.status_code == 401


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.evil.example"])
def test_a_foreign_host_header_is_refused(server: LocalModelServer, host: str) -> None:
    """What a DNS-rebound page sends: its own host name, its own Origin, and no key (it cannot know it)."""
    with raw(server) as client:
        for method, path in CLOSED:
            answer = send(client, method, path, server, Host=host, Origin=f"http://{host}")
            assert answer.status_code == 401, (method, path, answer.status_code)
            assert answer.headers.get("access-control-allow-origin", "") == ""


def test_a_preflight_from_another_origin_is_granted_nothing(server: LocalModelServer) -> None:
    with raw(server) as client:
        preflight = client.options("/v1/chat/completions", headers=PREFLIGHT)
        post = send(client, "POST", "/v1/chat/completions", server, Origin=EVIL,
                    Authorization=f"Bearer {key_of(server)}")
    for answer in (preflight, post):
        allowed = answer.headers.get("access-control-allow-origin", "")
        assert allowed == "", f"an empty or absent header matches no origin, got {allowed!r}"
        assert answer.headers.get("access-control-allow-credentials", "false") == "false"
    assert post.status_code == 200, "the key works whatever the Origin: CORS is the browser's check, not ours"


def test_slots_metrics_props_writing_and_the_web_ui_are_off_even_with_the_key(server: LocalModelServer) -> None:
    auth = {"Authorization": f"Bearer {key_of(server)}"}
    with raw(server) as client:
        assert client.get("/slots", headers=auth).status_code == 501
        assert client.post("/slots/0?action=save", json={"filename": "x.bin"}, headers=auth).status_code == 501
        assert client.get("/metrics", headers=auth).status_code == 501
        assert client.post("/props", json={}, headers=auth).status_code == 501
        assert client.get("/", headers=auth).status_code == 404
        assert client.get("/v1/models", headers=auth).status_code == 200, "the key itself is accepted"


def test_the_projects_own_client_works_and_streams(server: LocalModelServer, tmp_path: Path) -> None:
    settings = server.settings_for(Settings(data_dir=tmp_path))
    assert settings.llm_socket == server.socket_path and settings.secret("llm_api_key") == key_of(server)
    client = OpenAIClient(settings)
    assert client.check_connection().startswith("Connected")
    pieces: list[tuple[str, int]] = []
    streamed = client.complete([{"role": "user", "content": "Say hello."}], agent="react", temperature=0.2,
                               top_p=0.9, max_tokens=4, on_text=lambda piece, offset: pieces.append((piece, offset)))
    assert streamed.text and pieces and "".join(p for p, _ in pieces) == streamed.text
    assert [o for _, o in pieces] == [sum(len(p) for p, _ in pieces[:i]) for i in range(len(pieces))]


def test_a_cancel_cuts_a_reply_on_the_socket_at_once(server: LocalModelServer, tmp_path: Path) -> None:
    """The watchdog must see the socket's connections as it sees TCP ones: cancelled at the first piece, the
    stream stops within a few pieces instead of running to its 300 tokens."""
    token = CancelToken()
    client = OpenAIClient(server.settings_for(Settings(data_dir=tmp_path)), cancel=token)
    pieces: list[str] = []

    def on_text(piece: str, _offset: int) -> None:
        pieces.append(piece)
        token.cancel()

    with pytest.raises(RunCancelled):
        client.complete([{"role": "user", "content": "Count from 1 to 300, one number per line."}],
                        agent="react", temperature=0.2, top_p=0.9, max_tokens=300, on_text=on_text)
    assert 1 <= len(pieces) < 30, len(pieces)


def test_a_restart_draws_a_new_key_and_removes_the_old_socket(server: LocalModelServer) -> None:
    old_key, old_socket = key_of(server), server.socket_path
    server.stop()
    assert not Path(old_socket).parent.exists(), "stop removes the socket's folder"
    server.start()
    assert server.socket_path != old_socket and key_of(server) != old_key
    with raw(server) as client:
        stale = send(client, "POST", "/v1/chat/completions", server, Authorization=f"Bearer {old_key}")
        fresh = send(client, "POST", "/v1/chat/completions", server, Authorization=f"Bearer {key_of(server)}")
    assert (stale.status_code, fresh.status_code) == (401, 200)
