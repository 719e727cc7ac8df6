"""The local model as an OpenAI-compatible endpoint: llama.cpp's own HTTP server, run in this process.

`xllamacpp.Server` serves `/v1/chat/completions` with `response_format` json_schema (grammar-constrained
decoding), so the LLM engine talks to it through the same `OpenAIClient` as to any remote endpoint: nothing else
changes. It binds 127.0.0.1 on a port the OS picks. Loading 1.1 GB of weights takes seconds and 2 GB of memory,
so there is one server per process (the app holds it in a resource cache shared by every session) and it stops
when its owner stops it or the process ends. `xllamacpp` is imported only when a server is started.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from ...errors import ConfigError, LLMError
from ...settings import Settings
from .local_model import DEFAULT_MODEL, ModelSpec, require_model

LOCAL_TIMEOUT = 900.0  # seconds per call: a 2-core machine under load generates a few tokens a second
LOCAL_REPLY_ROOM = 1_024  # tokens of a slot's context kept for the reply when sizing the agent window
READY_DEADLINE = 120.0  # seconds: loading takes ~3 s on a quiet machine; minutes only when the disk is cold
_POLL = 0.25


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
    """One running llama.cpp server; `base_url` is what `LLM_BASE_URL` would be for a remote one."""

    def __init__(self, model_path: Path, alias: str, options: ServerOptions | None = None, *,
                 deadline: float = READY_DEADLINE, probe: Callable[[str], bool] | None = None) -> None:
        self.model_path = Path(model_path)
        self.alias = alias
        self.options = options or ServerOptions()
        self._deadline = deadline
        self._probe = probe or _health_ok
        self._server = None
        self._lock = threading.Lock()
        self.base_url = ""

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

            params = xllamacpp.CommonParams()
            params.model.path = str(self.model_path)
            params.model_alias = [self.alias]  # a list: the server answers to any name in it
            params.hostnames = ["127.0.0.1"]
            params.port = 0  # the OS picks a free port; listening_address reports it
            params.n_ctx = self.options.context
            params.n_parallel = self.options.parallel
            params.cpuparams.n_threads = _threads(self.options.threads)
            params.cpuparams_batch.n_threads = _threads(self.options.threads)
            params.cont_batching = True
            params.kv_unified = self.options.unified
            params.warmup = False
            params.verbosity = -1  # llama.cpp logs every slot step to stderr; failures reach us over HTTP
            server = xllamacpp.Server(params)
            address = str(server.listening_address)
            base = f"http://{address}/v1" if "://" not in address else f"{address.rstrip('/')}/v1"
            self._wait_ready(base)
            self._server, self.base_url = server, base
            return base

    def settings_for(self, settings: Settings) -> Settings:
        """`settings` pointed at this server: its URL and alias, no key, and limits a small local model needs
        (a window that fits one slot's context, one call per parallel slot, a timeout for a slow machine)."""
        if not self.base_url:
            raise ConfigError("the local model server is not running")
        slot = self.options.context // self.options.parallel if not self.options.unified else self.options.context
        window = max(512, slot - LOCAL_REPLY_ROOM)
        return settings.model_copy(update={
            "llm_provider": "local", "llm_base_url": self.base_url, "llm_model": self.alias, "llm_api_key": None,
            "llm_vision_model": None, "agent_window": min(settings.agent_window, window),
            "agent_windows": {k: min(v, window) for k, v in settings.agent_windows.items()},
            "react_max_context_tokens": min(settings.react_max_context_tokens, max(1_000, slot - 256)),
            "llm_concurrency": min(settings.llm_concurrency, self.options.parallel),
            "llm_timeout": max(settings.llm_timeout, LOCAL_TIMEOUT),
            "llm_max_retries": min(settings.llm_max_retries, 1)})

    def stop(self) -> None:
        """Release the server (its threads and the model's memory); a later `start` loads it again."""
        with self._lock:
            server, self._server, self.base_url = self._server, None, ""
        del server  # xllamacpp stops the HTTP server and frees the model when the object is released

    def _wait_ready(self, base: str) -> None:
        end = time.monotonic() + self._deadline
        while time.monotonic() < end:
            if self._probe(base):
                return
            time.sleep(_POLL)
        raise LLMError(f"the local model server at {base} was not ready within {self._deadline:g} s")


def _health_ok(base: str) -> bool:
    """llama.cpp answers /health with 503 while the model loads and 200 once it can serve."""
    root = base.removesuffix("/v1")
    try:
        return requests.get(f"{root}/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False
