"""Fetching URLs chosen by an LLM without letting it reach the machine's own network.

Every hop, redirects included, goes through the one `UrlPolicy` (see `urlpolicy`), and the connection is made to
the address the policy checked: the host name is resolved once, then the request goes to that IP with the
original name in the Host header and, for https, as the TLS server name the certificate must match. Redirects
are therefore followed here, one by one. Bodies are read in small pieces under a byte cap, and a `Watchdog`
shuts the socket down when the overall deadline passes, so neither a huge response nor a server that drips its
headers or body byte by byte can exhaust memory or hold the agent past the deadline.
"""

from __future__ import annotations

import http.client
import re
from contextlib import suppress
from dataclasses import dataclass
from urllib.parse import urljoin

import certifi
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError, NewConnectionError
from urllib3.exceptions import TimeoutError as Urllib3Timeout
from urllib3.response import BaseHTTPResponse

from ..errors import MemoryBankError, RunCancelled, ToolError
from ..watchdog import Cancellable, Watchdog
from .urlpolicy import Resolver, Target, UrlPolicy, check_url, is_public

__all__ = ["Answer", "Fetched", "Resolver", "SafeFetcher", "check_url", "is_public", "media_type"]

CHUNK_BYTES = 8 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})
_CHARSET = re.compile(r"charset\s*=\s*\"?([\w.:-]+)", re.IGNORECASE)
_NETWORK_ERRORS = (HTTPError, OSError, http.client.HTTPException)


@dataclass(frozen=True)
class Answer:
    """An API's reply, whatever its status: the caller knows what a 403 from that service means."""

    status: int
    body: bytes


@dataclass(frozen=True)
class Fetched:
    url: str  # the final URL, after redirects
    content_type: str  # media type, lower case, without parameters
    charset: str | None
    body: bytes


def media_type(header: str) -> tuple[str, str | None]:
    """('text/html', 'utf-8') from 'text/html; charset=UTF-8'."""
    charset = _CHARSET.search(header)
    return header.split(";", 1)[0].strip().lower(), charset.group(1).lower() if charset else None


class SafeFetcher:
    """GET with the URL policy on every hop, pinned connections, manual redirects, a content-type allow-list,
    a byte cap and one deadline for the whole fetch."""

    def __init__(
        self,
        *,
        timeout: float,
        max_bytes: int,
        allow_private: bool,
        content_types: frozenset[str],
        resolver: Resolver | None = None,
        max_redirects: int = 5,
        policy: UrlPolicy | None = None,
        cancel: Cancellable | None = None,
    ) -> None:
        self.timeout = timeout
        self.cancel = cancel
        self.max_bytes = max_bytes
        self.policy = policy or UrlPolicy(allow_private=allow_private, resolver=resolver)
        self.content_types = content_types
        self.max_redirects = max_redirects

    def check(self, url: str) -> None:
        self.policy.check(url)

    def get(self, url: str, *, headers: dict[str, str] | None = None, guard: bool = True,
            timeout: float | None = None) -> Fetched:
        """Fetch `url`; `guard=False` skips the address rule (not the parsing) for a configured endpoint;
        `timeout` replaces the default deadline for this call (a recovery retries with a longer one)."""
        with Watchdog(timeout or self.timeout, self.cancel) as watch:
            current = url
            for _ in range(self.max_redirects + 1):
                target = self.policy.target(current, trusted=not guard)
                connection = self._connect(target, target.url, watch)
                try:
                    response = self._request(connection, target, target.url, watch, "GET", headers or {}, None)
                    location = response.headers.get("Location")
                    if response.status not in REDIRECTS or not location:
                        return self._read(target, response, watch)
                finally:
                    connection.close()
                current = urljoin(current, location)
        raise ToolError(f"too many redirects (more than {self.max_redirects}) starting at {url}")

    def call_api(self, service: str, method: str, url: str, *, headers: dict[str, str] | None = None,
                 body: bytes | None = None) -> Answer:
        """One request to a configured API endpoint (no address rule, no redirects followed), its body read
        whatever the status, under the same cap and deadline; failures are ToolErrors naming `service`."""
        with Watchdog(self.timeout, self.cancel) as watch:
            target = self.policy.target(url, trusted=True)
            connection = self._connect(target, service, watch)
            try:
                response = self._request(connection, target, service, watch, method, headers or {}, body)
                return Answer(response.status, self._body(service, response, watch))
            finally:
                connection.close()

    def _connect(self, target: Target, label: str, watch: Watchdog) -> HTTPConnection:
        timeout = self._remaining(label, watch)
        if target.scheme == "https":
            connection: HTTPConnection = HTTPSConnection(
                str(target.address), target.port, timeout=timeout, server_hostname=target.host,
                assert_hostname=target.host, cert_reqs="CERT_REQUIRED", ca_certs=certifi.where())
        else:
            connection = HTTPConnection(str(target.address), target.port, timeout=timeout)
        try:
            connection.connect()
        except _NETWORK_ERRORS as error:
            connection.close()
            raise self._failure(label, error, watch) from error
        watch.watch(connection.sock)
        return connection

    def _request(self, connection: HTTPConnection, target: Target, label: str, watch: Watchdog, method: str,
                 headers: dict[str, str], body: bytes | None) -> BaseHTTPResponse:
        sent = {"Accept-Encoding": "gzip, deflate", **headers, "Host": target.host_header}
        try:
            connection.request(method, target.path, body=body, headers=sent, preload_content=False)
            response = connection.getresponse()
        except _NETWORK_ERRORS as error:
            raise self._failure(label, error, watch) from error
        self._remaining(label, watch)  # headers cut short by the watchdog parse as a (broken) response
        return response

    def _failure(self, label: str, error: Exception, watch: Watchdog) -> MemoryBankError:
        if watch.fired == "cancel":
            return RunCancelled("the run was cancelled")
        timed_out = isinstance(error, (TimeoutError, Urllib3Timeout)) and not isinstance(error, NewConnectionError)
        if watch.fired or timed_out:  # urllib3's NewConnectionError (refused, unreachable) is a timeout subclass
            return ToolError(f"{label} did not answer within {watch.seconds:g} s (timeout)")
        return ToolError(f"request to {label} failed: {error}")

    def _remaining(self, label: str, watch: Watchdog) -> float:
        if watch.fired == "cancel":
            raise RunCancelled("the run was cancelled")
        remaining = watch.remaining()
        if remaining <= 0 or watch.fired:
            raise ToolError(f"{label} took longer than {watch.seconds:g} s (timeout)")
        return remaining

    def _read(self, target: Target, response: BaseHTTPResponse, watch: Watchdog) -> Fetched:
        url = target.url
        if response.status >= 400:
            raise ToolError(f"{url} answered HTTP {response.status} {response.reason or ''}".rstrip())
        header = response.headers.get("Content-Type", "")
        content_type, charset = media_type(header)
        if content_type not in self.content_types:
            allowed = ", ".join(sorted(self.content_types))
            raise ToolError(f"{url} is {content_type or 'of unknown type'}, not a readable page ({allowed})")
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise ToolError(f"{url} is too large ({int(declared):,} bytes; the limit is {self.max_bytes:,})")
        return Fetched(url, content_type, charset, self._body(url, response, watch))

    def _body(self, url: str, response: BaseHTTPResponse, watch: Watchdog) -> bytes:
        """Small reads that return what has arrived; the watchdog ends a read that waits past the deadline."""
        body = bytearray()
        try:
            while chunk := response.read1(CHUNK_BYTES):
                body.extend(chunk)
                if len(body) > self.max_bytes:
                    raise ToolError(f"{url} is larger than the limit of {self.max_bytes:,} bytes")
                self._remaining(url, watch)
        except _NETWORK_ERRORS as error:
            self._remaining(url, watch)  # cut by the watchdog: say so, not what the broken read said
            raise ToolError(f"reading {url} failed: {error}") from error
        finally:
            with suppress(*_NETWORK_ERRORS):
                response.release_conn()
        self._remaining(url, watch)  # a read cut short by the watchdog looks like the end of the body
        return bytes(body)
