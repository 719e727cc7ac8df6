"""Fetching URLs chosen by an LLM without letting it reach the machine's own network.

A page the agent asks for could point at 127.0.0.1, a cloud metadata address or an intranet host (server-side
request forgery). Every hop, redirects included, is checked: only http(s), and unless private addresses are
allowed, every address the host resolves to must be public. Redirects are therefore followed here, one by one,
not by requests. Bodies are read in chunks under a byte cap and an overall deadline, so a huge or slowly
dripping response cannot exhaust memory or hang the agent.

Known limit: the name is resolved for the check and again by the HTTP client when it connects, so a DNS server
that answers differently the second time (DNS rebinding) is not caught.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests

from ..errors import ToolError

Resolver = Callable[..., list[tuple[Any, ...]]]  # the signature of socket.getaddrinfo
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SCHEMES = frozenset({"http", "https"})
CHUNK_BYTES = 64 * 1024
_CHARSET = re.compile(r"charset\s*=\s*\"?([\w.:-]+)", re.IGNORECASE)


def web_url_parts(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an http(s) URL; anything else is refused."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise ToolError(f"invalid URL {url!r}: {error}") from error
    if parts.scheme.lower() not in SCHEMES:
        raise ToolError(f"refused {url!r}: only http and https URLs can be visited")
    if not parts.hostname:
        raise ToolError(f"invalid URL {url!r}: no host name")
    return parts.scheme.lower(), parts.hostname, port or (443 if parts.scheme.lower() == "https" else 80)


def is_public(address: IPAddress) -> bool:
    """Globally routable unicast: not private, loopback, link-local, reserved, shared or multicast."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int, resolver: Resolver) -> list[IPAddress]:
    try:
        infos = resolver(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise ToolError(f"cannot resolve host {host!r}: {error}") from error
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not addresses:
        raise ToolError(f"cannot resolve host {host!r}: no address")
    return addresses


def check_url(url: str, *, allow_private: bool, resolver: Resolver | None = None) -> None:
    """Raise ToolError unless `url` is http(s) and (unless allowed) resolves only to public addresses."""
    _, host, port = web_url_parts(url)
    if allow_private:
        return
    # looked up at call time, so a resolver patched in by a caller (or a test guard) is honoured
    blocked = [a for a in resolve(host, port, resolver or socket.getaddrinfo) if not is_public(a)]
    if blocked:
        raise ToolError(
            f"refused {url}: {host} resolves to a private, loopback or reserved address ({blocked[0]}); "
            "visiting such addresses is disabled (VISIT_ALLOW_PRIVATE)"
        )


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
    """GET with per-hop address checks, manual redirects, a content-type allow-list, a byte cap, a deadline."""

    def __init__(
        self,
        *,
        session: requests.Session,
        timeout: float,
        max_bytes: int,
        allow_private: bool,
        content_types: frozenset[str],
        resolver: Resolver | None = None,
        max_redirects: int = 5,
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.allow_private = allow_private
        self.content_types = content_types
        self.resolver = resolver
        self.max_redirects = max_redirects

    def check(self, url: str) -> None:
        check_url(url, allow_private=self.allow_private, resolver=self.resolver)

    def get(self, url: str, *, headers: dict[str, str] | None = None, guard: bool = True,
            timeout: float | None = None) -> Fetched:
        """Fetch `url`; `guard=False` skips the address check for a configured, trusted endpoint; `timeout`
        replaces the default deadline for this call."""
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        current = url
        for _ in range(self.max_redirects + 1):
            if guard:
                self.check(current)
            else:
                web_url_parts(current)
            with closing(self._request(current, headers, deadline, timeout)) as response:
                if not response.is_redirect:
                    return self._read(current, response, deadline, timeout)
                current = urljoin(current, response.headers["Location"])
        raise ToolError(f"too many redirects (more than {self.max_redirects}) starting at {url}")

    def _request(self, url: str, headers: dict[str, str] | None, deadline: float,
                 timeout: float) -> requests.Response:
        try:
            return self.session.get(
                url, headers=headers, stream=True, allow_redirects=False,
                timeout=self._remaining(url, deadline, timeout)
            )
        except requests.Timeout as error:
            raise ToolError(f"{url} did not answer within {timeout:g} s (timeout)") from error
        except requests.RequestException as error:
            raise ToolError(f"could not fetch {url}: {error}") from error

    def _remaining(self, url: str, deadline: float, timeout: float) -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ToolError(f"{url} took longer than {timeout:g} s (timeout)")
        return remaining

    def _read(self, url: str, response: requests.Response, deadline: float, timeout: float) -> Fetched:
        if response.status_code >= 400:
            raise ToolError(f"{url} answered HTTP {response.status_code} {response.reason or ''}".rstrip())
        header = response.headers.get("Content-Type", "")
        content_type, charset = media_type(header)
        if content_type not in self.content_types:
            allowed = ", ".join(sorted(self.content_types))
            raise ToolError(f"{url} is {content_type or 'of unknown type'}, not a readable page ({allowed})")
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise ToolError(f"{url} is too large ({int(declared):,} bytes; the limit is {self.max_bytes:,})")
        return Fetched(url, content_type, charset, self._body(url, response, deadline, timeout))

    def _body(self, url: str, response: requests.Response, deadline: float, timeout: float) -> bytes:
        body = bytearray()
        try:
            for chunk in response.iter_content(CHUNK_BYTES):
                body.extend(chunk)
                if len(body) > self.max_bytes:
                    raise ToolError(f"{url} is larger than the limit of {self.max_bytes:,} bytes")
                self._remaining(url, deadline, timeout)
        except requests.RequestException as error:
            raise ToolError(f"reading {url} failed: {error}") from error
        return bytes(body)
