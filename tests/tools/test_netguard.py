from __future__ import annotations

import ipaddress
import re
import socket

import pytest

from memory_bank.errors import ToolError
from memory_bank.tools.netguard import check_url, media_type


def resolver_for(table: dict[str, list[str]]):
    """A getaddrinfo stand-in: each host name maps to the addresses a DNS server would return."""

    def resolve(host: str, port: int, **kwargs):  # noqa: ANN003
        if host not in table:
            raise socket.gaierror(f"unknown host {host}")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in table[host]]

    return resolve


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x", "gopher://x", "javascript:alert(1)"])
def test_only_http_and_https_are_allowed(url: str) -> None:
    with pytest.raises(ToolError, match="only http and https"):
        check_url(url, allow_private=True)


@pytest.mark.parametrize("url", ["http://", "http:///path", "http://host:notaport/"])
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(ToolError, match="invalid URL"):
        check_url(url, allow_private=True)


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1/", "http://localhost:8080/", "http://[::1]/"],
)
def test_loopback_is_refused_unless_allowed(url: str) -> None:
    with pytest.raises(ToolError, match="private, loopback or reserved"):
        check_url(url, allow_private=False)
    check_url(url, allow_private=True)


@pytest.mark.parametrize(
    "address",
    ["10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1", "0.0.0.0", "fd00::1",
     "::ffff:127.0.0.1", "fe80::1"],
)
def test_private_link_local_shared_unspecified_and_multicast_addresses_are_refused(address: str) -> None:
    resolver = resolver_for({"internal.example": [address]})
    shown = re.escape(str(ipaddress.ip_address(address)))
    with pytest.raises(ToolError, match=rf"internal\.example resolves to .*\({shown}\)"):
        check_url("https://internal.example/", allow_private=False, resolver=resolver)


def test_every_resolved_address_must_be_public() -> None:
    resolver = resolver_for({"mixed.example": ["93.184.216.34", "127.0.0.1"]})
    with pytest.raises(ToolError, match="127.0.0.1"):
        check_url("http://mixed.example/", allow_private=False, resolver=resolver)


def test_public_addresses_pass() -> None:
    resolver = resolver_for({"www.example": ["93.184.216.34", "2606:2800:220:1::1"]})
    check_url("https://www.example/page?q=1", allow_private=False, resolver=resolver)


def test_an_unresolvable_host_is_a_tool_error() -> None:
    with pytest.raises(ToolError, match="cannot resolve host 'nowhere.example'"):
        check_url("http://nowhere.example/", allow_private=False, resolver=resolver_for({}))


def test_media_type_parsing() -> None:
    assert media_type('text/HTML; Charset="ISO-8859-1"') == ("text/html", "iso-8859-1")
    assert media_type("application/json") == ("application/json", None)
    assert media_type("") == ("", None)
