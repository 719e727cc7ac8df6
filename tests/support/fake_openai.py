"""A scripted OpenAI-compatible server on 127.0.0.1, for offline tests and benchmarks.

It is a real HTTP server, so the code under test runs through the real `openai` SDK, its HTTP stack, timeouts and
error mapping; only the model is scripted. Replies come from a queue (`push`) or from a handler called with each
request, and may be faults: an HTTP status with `Retry-After`, a delay past the client's timeout, a non-JSON body,
a connection dropped mid-response, a body dripped byte by byte. Every request is recorded for assertions
(messages, temperature, top_p, the agent header). `latency` delays every completion, which the ingestion
benchmark uses to measure concurrency.

    with FakeOpenAI() as fake:
        fake.push(ok('{"summary": "x"}'), error(429, retry_after="1"))
        client = OpenAIClient(fake.settings())
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from memory_bank.settings import Settings

AGENT_HEADER = "X-Memory-Bank-Agent"


@dataclass(frozen=True)
class Reply:
    """One scripted answer. `usage="auto"` reports chars/4 token counts; None omits `usage`."""

    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None  # raw body; replaces the generated completion JSON
    content_type: str = "application/json"
    delay: float = 0.0
    drop: bool = False  # send the headers and half the body, then close the connection
    drip: float = 0.0  # seconds between the body's bytes: a server that keeps every read short, for ever
    usage: tuple[int, int] | str | None = "auto"
    finish_reason: str = "stop"
    piece: int = 7  # characters per streamed chunk
    # a slow model: called with the chunk's number before each streamed chunk after the first (a test holds the
    # stream there to look at the call in flight)
    pause: Callable[[int], object] | None = field(default=None, compare=False)
    timings: dict[str, float] | None = None  # llama.cpp's speeds, sent beside the usage


def ok(text: str, *, usage: tuple[int, int] | str | None = "auto", finish_reason: str = "stop",
       delay: float = 0.0) -> Reply:
    return Reply(text=text, usage=usage, finish_reason=finish_reason, delay=delay)


def error(status: int, message: str = "scripted error", *, retry_after: str | None = None,
          delay: float = 0.0) -> Reply:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    body = json.dumps({"error": {"message": message, "type": "scripted", "code": status}}).encode()
    return Reply(status=status, headers=headers, body=body, delay=delay)


def truncated(text: str) -> Reply:
    """The first half of `text`, as a model that hit its token limit returns it."""
    return Reply(text=text[: len(text) // 2], finish_reason="length")


def garbage(text: str = "<html><body>502 Bad Gateway</body></html>") -> Reply:
    """A 200 whose body is not a completion at all (a proxy's error page)."""
    return Reply(body=text.encode(), content_type="text/html")


def dropped(text: str = '{"summary": "never arrives"}') -> Reply:
    return Reply(text=text, drop=True)


def slow(seconds: float, text: str = "too late") -> Reply:
    return Reply(text=text, delay=seconds)


def drip(seconds_per_byte: float, text: str = "arrives one byte at a time") -> Reply:
    return Reply(text=text, drip=seconds_per_byte)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])

    @property
    def temperature(self) -> float | None:
        return self.body.get("temperature")

    @property
    def top_p(self) -> float | None:
        return self.body.get("top_p")

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format")

    @property
    def schema(self) -> dict[str, Any] | None:
        """The JSON schema the reply was held to: `response_format`'s, or (the local server) the llguidance
        grammar's, without its `x-guidance` options."""
        if self.response_format and self.response_format.get("type") == "json_schema":
            return self.response_format["json_schema"]["schema"]
        grammar = self.body.get("grammar")
        if not isinstance(grammar, str) or "%json " not in grammar:
            return None
        sent = json.loads(grammar.split("%json ", 1)[1])
        sent.pop("x-guidance", None)
        return sent

    @property
    def agent(self) -> str | None:
        return self.headers.get(AGENT_HEADER.lower())

    def text(self) -> str:
        """All message text joined (content parts included), for `in` assertions."""
        return "\n".join(_content_text(m.get("content")) for m in self.messages)


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if p.get("type") == "text" else json.dumps(p) for p in content)
    return str(content or "")


Handler = Callable[[RecordedRequest], Reply | str]


class FakeOpenAI:
    """The server. `handler` is asked when the queue is empty; with neither, the reply is a 418 that says so."""

    def __init__(self, *replies: Reply | str, handler: Handler | None = None, latency: float = 0.0,
                 models: tuple[str, ...] = ("fake-model",), prefix_cache: bool = False) -> None:
        self._queue: deque[Reply | str] = deque(replies)
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self.handler = handler
        self.latency = latency
        self.models = models
        self.models_reply: Reply | None = None  # set to script GET /v1/models
        # a provider's prompt cache: with it, `usage.prompt_tokens_details.cached_tokens` reports the longest
        # prefix (response format, then the messages' text) this request shares with an earlier one, chars/4
        self.prefix_cache = prefix_cache
        self._seen_prompts: list[str] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeOpenAI is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def settings(self, **overrides: Any) -> Settings:
        """LLM-engine settings pointing here, with test-sized backoff. The per-call deadline is far past any call
        of a working test (well under a second): a test that is not about deadlines must not fail by one on a
        loaded machine (at 2 s, a stalled CI runner timed out the first attempt of a retried stream before it had
        read any of the dropped reply). A test of deadlines sets `llm_timeout` itself."""
        values: dict[str, Any] = {
            "engine": "llm", "llm_base_url": self.base_url, "llm_model": self.models[0],
            "llm_api_key": "sk-test-secret", "llm_timeout": 30.0, "llm_max_retries": 2,
            "llm_backoff_base": 0.01, "llm_backoff_max": 0.05,
        }
        values.update(overrides)
        return Settings(**values)

    # -- script ----------------------------------------------------------------------------------------------
    def push(self, *replies: Reply | str) -> None:
        with self._lock:
            self._queue.extend(replies)

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            queued = self._queue.popleft() if self._queue else None
        if queued is None and self.handler is not None:
            queued = self.handler(request)
        if queued is None:
            return error(418, "fake server: script exhausted, no reply for this request")
        return ok(queued) if isinstance(queued, str) else queued

    def cached_chars(self, request: RecordedRequest) -> int:
        """How much of this prompt an earlier request began with (0 without the prefix cache)."""
        if not self.prefix_cache:
            return 0
        key = json.dumps(request.schema) + request.text()
        with self._lock:
            best = max((len(os.path.commonprefix([key, seen])) for seen in self._seen_prompts), default=0)
            self._seen_prompts.append(key)
        return best

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


def _completion_body(reply: Reply, request: RecordedRequest, serial: int, cached_chars: int = 0) -> bytes:
    body: dict[str, Any] = {
        "id": f"chatcmpl-fake-{serial}", "object": "chat.completion", "created": int(time.time()),
        "model": request.model or "fake-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                     "finish_reason": reply.finish_reason}],
    }
    if reply.usage == "auto":
        prompt, completion = len(request.text()) // 4 + 1, len(reply.text) // 4 + 1
    elif isinstance(reply.usage, tuple):
        prompt, completion = reply.usage
    else:
        prompt = completion = -1
    if prompt >= 0:
        body["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                         "total_tokens": prompt + completion}
        if cached_chars:
            body["usage"]["prompt_tokens_details"] = {"cached_tokens": min(prompt, cached_chars // 4)}
    if reply.timings is not None:
        body["timings"] = reply.timings
    return json.dumps(body).encode()


def _stream_body(reply: Reply, request: RecordedRequest, serial: int, cached_chars: int = 0) -> list[bytes]:
    """The reply as server-sent events, `reply.piece` characters a chunk, the usage in a last chunk (as OpenAI and
    llama.cpp send it with stream_options.include_usage)."""
    whole = json.loads(_completion_body(reply, request, serial, cached_chars))
    head = {"id": whole["id"], "object": "chat.completion.chunk", "created": whole["created"],
            "model": whole["model"]}
    pieces = [reply.text[i:i + reply.piece] for i in range(0, len(reply.text), reply.piece)]
    # llama.cpp asked for `timings_per_token` sends its timings with every chunk
    per_chunk = {"timings": reply.timings} if reply.timings and request.body.get("timings_per_token") else {}
    events = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": p}, "finish_reason": None}],
               **per_chunk} for p in pieces]
    events.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}]})
    if "usage" in whole:
        events.append({**head, "choices": [], "usage": whole["usage"],
                       **({"timings": whole["timings"]} if "timings" in whole else {})})
    return [f"data: {json.dumps(e)}\n\n".encode() for e in events] + [b"data: [DONE]\n\n"]


def _models_body(models: tuple[str, ...]) -> bytes:
    data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in models]
    return json.dumps({"object": "list", "data": data}).encode()


def _make_handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes; no 40 ms delayed-ACK stall

        def log_message(self, format: str, *args: Any) -> None:
            """Silenced: test output should show failures, not every request line."""

        def do_GET(self) -> None:
            request = self._recorded({})
            if not self.path.rstrip("/").endswith("/models"):
                self._send(error(404, f"no route {self.path}"), request, 0)
                return
            reply = fake.models_reply or Reply(body=_models_body(fake.models))
            self._send(reply, request, 0)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            request = self._recorded(json.loads(raw or b"{}"))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(error(404, f"no route {self.path}"), request, 0)
                return
            reply = fake._next_reply(request)
            fake._wait(fake.latency)
            self._send(reply, request, len(fake.requests), fake.cached_chars(request))

        def _recorded(self, body: dict[str, Any]) -> RecordedRequest:
            headers = {k.lower(): v for k, v in self.headers.items()}
            request = RecordedRequest(self.command, self.path, headers, body, time.monotonic())
            fake._record(request)
            return request

        def _send(self, reply: Reply, request: RecordedRequest, serial: int, cached: int = 0) -> None:
            fake._wait(reply.delay)
            streamed = reply.body is None and reply.status == 200 and request.body.get("stream") is True
            chunks = _stream_body(reply, request, serial, cached) if streamed else []
            body = (reply.body if reply.body is not None else b"".join(chunks) if streamed
                    else _completion_body(reply, request, serial, cached))
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "text/event-stream" if streamed else reply.content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if reply.drip:
                    for i in range(len(body)):
                        if fake._stopping.wait(reply.drip):
                            break
                        self.wfile.write(body[i:i + 1])
                        self.wfile.flush()
                    return
                if reply.pause is not None and streamed:
                    for i, chunk in enumerate(chunks):
                        if i:
                            reply.pause(i)
                        self.wfile.write(chunk)
                        self.wfile.flush()
                    return
                if reply.drop:
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up first (a scripted delay past its timeout): nothing left to answer.
                self.close_connection = True

    return _Handler
