"""A real HTTP server on 127.0.0.1 whose answers each test scripts by path."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the status line
    drip: float = 0.0  # seconds between body chunks of 1 kB (sent without Content-Length)


Route = Callable[[Request], Reply]


class LocalServer:
    """Routes are looked up by exact path, then by the longest matching prefix ending in '/'."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> LocalServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def paths(self) -> list[str]:
        with self._lock:
            return [request.path for request in self.requests]

    def route(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
        if request.path in self.routes:
            return self.routes[request.path](request)
        prefixes = [p for p in self.routes if p.endswith("/") and request.path.startswith(p)]
        if prefixes:
            return self.routes[max(prefixes, key=len)](request)
        return Reply(404, b"not found", {"Content-Type": "text/plain"})

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                self._answer()

            def do_POST(self) -> None:  # noqa: N802
                self._answer()

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return  # keep test output clean; requests are recorded in server.requests

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                parts = urlsplit(self.path)
                request = Request(self.command, parts.path, parse_qs(parts.query), dict(self.headers),
                                  self.rfile.read(length))
                try:
                    send(self, server.route(request))
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client hung up first: what timeout and size-cap tests make it do

        return Handler


def send(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    time.sleep(reply.delay)
    handler.send_response(reply.status)
    for name, value in reply.headers.items():
        handler.send_header(name, value)
    if reply.drip:
        handler.send_header("Connection", "close")
        handler.end_headers()
        for start in range(0, len(reply.body), 1024):
            handler.wfile.write(reply.body[start:start + 1024])
            handler.wfile.flush()
            time.sleep(reply.drip)
        return
    handler.send_header("Content-Length", str(len(reply.body)))
    handler.end_headers()
    handler.wfile.write(reply.body)
