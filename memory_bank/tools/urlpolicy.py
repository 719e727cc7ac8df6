"""One URL policy for every address an LLM may make the bank fetch (server-side request forgery).

The check and the connection must agree on where a URL points. So the URL is parsed once, by urllib3's parser
(the one the HTTP client uses), with everything that parsers read differently refused outright: backslashes,
user info (`user@`), control characters and whitespace, percent signs or odd characters in the host, and IPv4
written in decimal, octal, hex or short form. The host is resolved once; every address must be public unless
private addresses are allowed (`VISIT_ALLOW_PRIVATE`, for local servers and tests), and IPv6 forms that carry
an IPv4 address inside (mapped, compatible, NAT64, 6to4, Teredo) are judged by the address they carry. The
result is a `Target` holding the address that was checked: the fetcher connects to that address, never to the
name, so a DNS server that answers differently the second time (DNS rebinding) has no second time.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from urllib3.exceptions import LocationParseError
from urllib3.util import parse_url

from ..errors import ToolError
from ..limits import MAX_URL

Resolver = Callable[..., list[tuple[Any, ...]]]  # the signature of socket.getaddrinfo
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_URL_CHARS = MAX_URL  # the bound the memory keeps a source URL to
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # the well-known prefix: the IPv4 address is the last 32 bits
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")  # local-use NAT64: where the IPv4 sits is site-defined
_UNSAFE_CHARS = re.compile(r"[\x00-\x20\x7f-\x9f\\\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]")
_HOST_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$")
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")


@dataclass(frozen=True)
class Target:
    """A URL that passed the policy, and the one address the fetcher will connect to."""

    url: str
    scheme: str
    host: str  # as written (IDNA-encoded), for the Host header, TLS SNI and certificate checks
    port: int
    path: str  # path and query, as sent in the request line
    address: IPAddress

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 transition form carries (mapped, compatible, 6to4, NAT64), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or (int(address) >> 32 == 0 and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_public(address: IPAddress) -> bool:
    """Globally routable unicast; an IPv6 form that carries an IPv4 address is judged by that address."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.teredo is not None:
            return False  # the client address inside is obfuscated and the relay is anyone's: never contact
        if address in _LOCAL_NAT64:
            return False
        inner = embedded_ipv4(address)
        if inner is not None:
            return is_public(inner)
    return address.is_global and not address.is_multicast


def _parse_literal(host: str) -> IPAddress | None:
    """An IP written as the host; IPv4 only in dotted-quad form (inet_aton also reads 0x7f.1, 017700000001...)."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if all(_NUMERIC_LABEL.fullmatch(label) for label in labels):
        raise ToolError(f"refused host {host!r}: an IPv4 address must be written as four decimal numbers")
    return None


def _host(raw: str | None, url: str) -> str:
    if not raw:
        raise ToolError(f"invalid URL {url!r}: no host name")
    host = raw.lower()
    if host.startswith("["):
        if "%" in host:
            raise ToolError(f"refused {url!r}: IPv6 zone identifiers are not allowed")
        return host.strip("[]")
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError as error:
        raise ToolError(f"invalid URL {url!r}: bad host name ({error})") from error
    if not _HOST_NAME.fullmatch(host):
        raise ToolError(f"refused {url!r}: the host name {raw!r} has characters a host name cannot have")
    return host.rstrip(".")


def parse_web_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an http(s) URL, or a ToolError naming what is wrong with it."""
    if len(url) > MAX_URL_CHARS:
        raise ToolError(f"refused a URL of {len(url):,} characters (the limit is {MAX_URL_CHARS:,})")
    bad = _UNSAFE_CHARS.search(url)
    if bad:
        raise ToolError(f"refused {url!r}: URLs with a backslash, whitespace or control character "
                        f"({bad.group()!r}) are read differently by different parsers")
    try:
        parts = parse_url(url)
    except LocationParseError as error:
        raise ToolError(f"invalid URL {url!r}: {error}") from error
    scheme = (parts.scheme or "").lower()
    if scheme not in SCHEMES:
        raise ToolError(f"refused {url!r}: only http and https URLs can be visited")
    if parts.auth is not None or "@" in (parts.netloc or ""):
        raise ToolError(f"refused {url!r}: URLs with user info (user@host) are not allowed")
    if parts.port == 0:
        raise ToolError(f"invalid URL {url!r}: port 0")
    host = _host(parts.host, url)
    return scheme, host, parts.port or DEFAULT_PORTS[scheme], parts.request_uri


class UrlPolicy:
    """Checks a URL and pins it to the address it was checked against.

    `public` decides which addresses may be contacted; it is replaceable only so that a test can play a public
    web site on 127.0.0.1. The resolver is `socket.getaddrinfo` unless one is passed in (tests never use DNS).
    """

    def __init__(self, *, allow_private: bool, resolver: Resolver | None = None,
                 public: Callable[[IPAddress], bool] = is_public) -> None:
        self.allow_private = allow_private
        self.resolver = resolver
        self.public = public

    def target(self, url: str, *, trusted: bool = False) -> Target:
        """The checked target of `url`; `trusted` (a configured endpoint) skips only the address rule."""
        scheme, host, port, path = parse_web_url(url)
        literal = _parse_literal(host)
        addresses = [literal] if literal is not None else self._resolve(host, port)
        if not (trusted or self.allow_private):
            blocked = [a for a in addresses if not self.public(a)]
            if blocked:
                raise ToolError(
                    f"refused {url}: {host} resolves to a private, loopback or reserved address ({blocked[0]}); "
                    "visiting such addresses is disabled (VISIT_ALLOW_PRIVATE)"
                )
        return Target(url=url, scheme=scheme, host=host, port=port, path=path, address=addresses[0])

    def check(self, url: str) -> None:
        """For a URL handed to someone else to fetch (Jina Reader): the same rule, resolving only if it matters."""
        if self.allow_private:
            _parse_literal(parse_web_url(url)[1])
        else:
            self.target(url)

    def _resolve(self, host: str, port: int) -> list[IPAddress]:
        resolver = self.resolver or socket.getaddrinfo  # looked up at call time, so a patched one is honoured
        try:
            infos = resolver(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as error:
            raise ToolError(f"cannot resolve host {host!r}: {error}") from error
        try:
            addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
        except (ValueError, IndexError, TypeError) as error:
            raise ToolError(f"cannot resolve host {host!r}: unusable answer ({error})") from error
        if not addresses:
            raise ToolError(f"cannot resolve host {host!r}: no address")
        return addresses


def check_url(url: str, *, allow_private: bool, resolver: Resolver | None = None) -> Target:
    """Raise ToolError unless `url` passes the policy; returns the pinned target."""
    return UrlPolicy(allow_private=allow_private, resolver=resolver).target(url)
