"""The local model as an OpenAI-compatible endpoint: llama.cpp's own HTTP server, run in this process.

`xllamacpp.Server` serves `/v1/chat/completions` with grammar-constrained decoding (a JSON schema as
`response_format`, or as an llguidance `grammar`, which `OpenAIClient` sends it to keep replies compact), so the
LLM engine talks to it through the same `OpenAIClient` as to any remote endpoint: nothing else changes. Loading
1.1 GB of weights takes seconds and 2 GB of memory, so there is one server per process (the app holds it in a
resource cache shared by every session) and it stops when its owner stops it or the process ends.
`xllamacpp` is imported only when a server is started.

No web page may use it. A server on a loopback TCP port is reachable from any page the user's browser opens:
llama.cpp answers any `Host` (DNS rebinding turns a page into a same-origin caller), reflects any `Origin` in
`Access-Control-Allow-Origin`, and leaves `/slots` and `/props` open. llama.cpp has an API key and CORS settings
but no `Host` check, and a reverse proxy with one would leave the server's own port behind it open. So the server
opens no TCP port at all: it listens on a Unix socket in a folder only this user can enter (browsers cannot
connect to Unix sockets, so there is nothing to rebind), and on top of that every endpoint but `/health` wants
a key drawn afresh for each start (`secrets.token_urlsafe`), which `settings_for` hands to this process's own
client; CORS grants no origin, and the slots, metrics, props-writing and web UI endpoints are off.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx2
from pydantic import SecretStr

from ...errors import ConfigError, LLMError
from ...settings import Settings
from .local_model import DEFAULT_MODEL, ModelSpec, require_model

LOCAL_TIMEOUT = 900.0  # seconds per call: a 2-core machine under load generates a few tokens a second
LOCAL_REPLY_ROOM = 1_024  # tokens of a slot's context kept for the reply when sizing the agent window
READY_DEADLINE = 120.0  # seconds: loading takes ~3 s on a quiet machine; minutes only when the disk is cold
_POLL = 0.25
BASE_URL = "http://localhost/v1"  # the paths on the socket; the host name is never resolved
SOCKET_NAME = "llm.sock"
MAX_SOCKET_PATH = 100  # bytes: a Unix socket's path must fit sun_path (108 on Linux, 104 on macOS)


@dataclass(frozen=True)
class ServerOptions:
    """What the server is started with. `context` is the whole KV cache, shared by `parallel` slots."""

    context: int = 8_192
    parallel: int = 2
    unified: bool = True  # one KV cache the slots share: a long prompt may use the whole context
    threads: int = 0  # 0: the machine's cores, at most 4 (more threads than cores only adds contention)


def _threads(requested: int) -> int:
    """Measured here: on 2 cores with other work running (load 10), 2 threads generated 0.2 tokens/s and 1
    thread 3 tokens/s, because llama.cpp's threads wait on each other at every layer. So all cores (up to 4)
    only while the machine is not busy, one thread otherwise."""
    if requested > 0:
        return requested
    cores = os.cpu_count() or 1
    busy = os.getloadavg()[0] >= cores / 2 if hasattr(os, "getloadavg") else False
    return 1 if busy else max(1, min(4, cores))


class LocalModelServer:
    """One running llama.cpp server on a Unix socket (`socket_path`); `settings_for` points settings at it."""

    def __init__(self, model_path: Path, alias: str, options: ServerOptions | None = None, *,
                 deadline: float = READY_DEADLINE, probe: Callable[[str], bool] | None = None) -> None:
        self.model_path = Path(model_path)
        self.alias = alias
        self.options = options or ServerOptions()
        self._deadline = deadline
        self._probe = probe or _health_ok
        self._server = None
        self._key = ""
        self._remove_folder: weakref.finalize | None = None
        self._lock = threading.Lock()
        self.base_url = ""
        self.socket_path = ""

    @classmethod
    def for_data_dir(cls, data_dir: Path, spec: ModelSpec = DEFAULT_MODEL,
                     options: ServerOptions | None = None) -> LocalModelServer:
        """The server for the fetched model, or a `ConfigError` saying how to fetch it."""
        return cls(require_model(spec, data_dir), spec.name, options)

    @property
    def running(self) -> bool:
        with self._lock:
            return self._server is not None

    def start(self) -> str:
        """Start (once) and wait until the model answers its health check; returns the base URL."""
        with self._lock:
            if self._server is not None:
                return self.base_url
            if not self.model_path.is_file():
                raise ConfigError(f"the local model file {self.model_path} is missing")
            import xllamacpp

            folder = tempfile.mkdtemp(prefix="amb-llm-")  # mode 0700: no other user can reach the socket
            remove_folder = weakref.finalize(self, shutil.rmtree, folder, True)  # also at exit, if never stopped
            socket_path, key = os.path.join(folder, SOCKET_NAME), secrets.token_urlsafe(32)
            try:
                if len(os.fsencode(socket_path)) > MAX_SOCKET_PATH:
                    raise ConfigError(f"the temp folder path is too long for a Unix socket ({socket_path}); "
                                      "set TMPDIR to a shorter one")
                # a compiled module without type stubs: its names are not visible to a type checker
                server = xllamacpp.Server(  # pyright: ignore[reportAttributeAccessIssue]
                    self._params(xllamacpp.CommonParams(), socket_path, key))  # pyright: ignore[reportAttributeAccessIssue]
                self._wait_ready(socket_path)
            except BaseException:
                remove_folder()
                raise
            self._server, self._key, self._remove_folder = server, key, remove_folder
            self.base_url, self.socket_path = BASE_URL, socket_path
            return self.base_url

    def _params(self, params, socket_path: str, key: str):  # noqa: ANN001, ANN202 - xllamacpp.CommonParams
        params.model.path = str(self.model_path)
        params.model_alias = [self.alias]  # a list: the server answers to any name in it
        params.hostnames = [socket_path]  # a path ending in .sock: llama.cpp listens on a Unix socket, no TCP port
        params.api_keys = [key]
        params.cors_origins, params.cors_origins_explicit = "", True  # the header stays empty: no origin matches it
        params.cors_credentials, params.cors_methods, params.cors_headers = False, "", ""
        params.endpoint_slots = params.endpoint_props = params.endpoint_metrics = False
        params.ui = params.ui_mcp_proxy = False  # no web UI, no proxy to other sites
        params.n_ctx = self.options.context
        params.n_parallel = self.options.parallel
        params.cpuparams.n_threads = _threads(self.options.threads)
        params.cpuparams_batch.n_threads = _threads(self.options.threads)
        params.cont_batching = True
        params.kv_unified = self.options.unified
        params.warmup = False
        params.verbosity = -1  # llama.cpp logs every slot step to stderr; failures reach us over HTTP
        return params

    def settings_for(self, settings: Settings) -> Settings:
        """`settings` pointed at this server: its socket, key and alias, and limits a small local model needs
        (a window that fits one call's share of the context, one call per parallel slot, a timeout for a slow
        machine).

        The agents' window is the context over the calls that run at once: in a unified cache the calls share
        it. Sized to the whole context, the NIST PDF's chunks came out at ~6,500 tokens, two classification calls
        at once overflowed the 8,192-token cache (the server's error: "Context ...") after 13 minutes of reading
        them, and the offline agent did both. The ReAct loop runs alone, so its transcript may fill the slot."""
        if not self.base_url:
            raise ConfigError("the local model server is not running")
        slot = self.options.context // self.options.parallel if not self.options.unified else self.options.context
        concurrency = min(settings.llm_concurrency, self.options.parallel)
        window = max(512, min(slot, self.options.context // concurrency) - LOCAL_REPLY_ROOM)
        return settings.model_copy(update={
            "llm_provider": "local", "llm_base_url": self.base_url, "llm_socket": self.socket_path,
            "llm_model": self.alias, "llm_api_key": SecretStr(self._key),
            "llm_vision_model": None, "agent_window": min(settings.agent_window, window),
            "agent_windows": {k: min(v, window) for k, v in settings.agent_windows.items()},
            "react_max_context_tokens": min(settings.react_max_context_tokens, max(1_000, slot - 256)),
            "llm_concurrency": concurrency,
            "llm_timeout": max(settings.llm_timeout, LOCAL_TIMEOUT),
            "llm_max_retries": min(settings.llm_max_retries, 1)})

    def stop(self) -> None:
        """Release the server (its threads and the model's memory); a later `start` loads it again."""
        with self._lock:
            server, self._server, self.base_url, self.socket_path = self._server, None, "", ""
            remove_folder, self._remove_folder, self._key = self._remove_folder, None, ""
        del server  # xllamacpp stops the HTTP server and frees the model when the object is released
        if remove_folder is not None:
            remove_folder()  # the socket and its folder

    def _wait_ready(self, socket_path: str) -> None:
        end = time.monotonic() + self._deadline
        while time.monotonic() < end:
            if self._probe(socket_path):
                return
            time.sleep(_POLL)
        raise LLMError(f"the local model server on {socket_path} was not ready within {self._deadline:g} s")


def _health_ok(socket_path: str) -> bool:
    """llama.cpp answers /health (the one endpoint without a key) with 503 while the model loads, 200 once it
    can serve."""
    try:
        with httpx2.Client(transport=httpx2.HTTPTransport(uds=socket_path), timeout=2) as client:
            return client.get(BASE_URL.removesuffix("/v1") + "/health").status_code == 200
    except httpx2.HTTPError:
        return False
