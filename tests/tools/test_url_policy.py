"""Security suite for the URL policy: hostile URLs are refused, and the fetcher connects to the checked address.

Names are resolved by a fake resolver passed in (never real DNS; the test-wide guard refuses it anyway). A real
server on 127.0.0.1 plays the web site; where it must count as "public", the policy is told so explicitly.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from memory_bank.errors import ToolError
from memory_bank.tools.urlpolicy import UrlPolicy, is_public
from memory_bank.tools.visit import VisitTool
from memory_bank.tools.web_search import SearxngSearch
from tests.support.guard import outcome_within

from .local_server import LocalServer, Reply
from .test_netguard import resolver_for

NAMES = {
    "localhost": ["127.0.0.1"],
    "metadata.example": ["169.254.169.254"],
    "rebind.example": ["93.184.216.34", "10.0.0.1"],
    "nat64.example": ["64:ff9b::a00:1"],
    "mapped.example": ["::ffff:192.168.0.1"],
    "sixtofour.example": ["2002:c0a8:1::1"],
    "intranet.example": ["10.1.2.3"],
}

HOSTILE = [
    "http://127.0.0.1:8501\\@1.1.1.1/",  # the parser confusion
    "http://1.1.1.1\\@127.0.0.1/",
    "http://user@127.0.0.1/",
    "http://1.1.1.1@127.0.0.1/",
    "http://user:secret@www.example/",  # user info is refused even towards a public host
    "http://127.0.0.1%2f@www.example/",
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 of 169.254.169.254
    "http://[64:ff9b::7f00:1]/",  # NAT64 of 127.0.0.1
    "http://[64:ff9b:1::a00:1]/",  # local-use NAT64
    "http://[2002:7f00:1::]/",  # 6to4 of 127.0.0.1
    "http://[2002:a9fe:a9fe::1]/",  # 6to4 of 169.254.169.254
    "http://[::ffff:127.0.0.1]/",  # IPv4-mapped
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",  # IPv4-compatible
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",  # Teredo
    "http://2130706433/",  # decimal 127.0.0.1
    "http://0x7f000001/",  # hex
    "http://017700000001/",  # octal
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0x7f.0x0.0x0.0x1/",
    "http://127.0.0.1./",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[fd00::1]/",
    "http://[ff02::1]/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://100.64.0.1/",
    "http://localhost/",
    "http://LOCALHOST:8501/",
    "http://metadata.example/",
    "http://rebind.example/",  # one public, one private answer: every address must be public
    "http://nat64.example/",
    "http://mapped.example/",
    "http://sixtofour.example/",
    "http://%31%32%37.0.0.1/",
    "http://\u2460\u2461\u2466.0.0.1/",  # circled digits: IDNA folds them to 127.0.0.1
    "http://www.example /",
    "http://www.example/\r\nHost: 127.0.0.1",
    "http://www.ex\tample/",
    "http://www.example\x00.127.0.0.1/",
    "file:///etc/passwd",
    "gopher://127.0.0.1:25/",
    "ftp://www.example/",
    "http:///etc/passwd",
]


@pytest.mark.parametrize("url", HOSTILE)
def test_hostile_urls_are_refused(url: str) -> None:
    policy = UrlPolicy(allow_private=False, resolver=resolver_for({**NAMES, "www.example": ["93.184.216.34"]}))
    with pytest.raises(ToolError):
        policy.target(url)


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8501\\@1.1.1.1/", "http://user@127.0.0.1/", "http://2130706433/", "http://127.0.0.1\n/",
])
def test_parser_tricks_are_refused_even_when_private_addresses_are_allowed(url: str) -> None:
    with pytest.raises(ToolError):
        UrlPolicy(allow_private=True, resolver=resolver_for(NAMES)).target(url)


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1::1", "64:ff9b::5db8:d822", "::ffff:8.8.8.8"])
def test_public_addresses_and_forms_carrying_one_pass(address: str) -> None:
    import ipaddress

    assert is_public(ipaddress.ip_address(address))


def test_public_urls_are_pinned_to_the_address_resolved() -> None:
    target = UrlPolicy(allow_private=False, resolver=resolver_for({"www.example": ["93.184.216.34"]})).target(
        "https://WWW.example/a/b?q=1#frag")
    assert (target.host, target.port, target.path, str(target.address)) == ("www.example", 443, "/a/b?q=1",
                                                                            "93.184.216.34")
    assert target.host_header == "www.example"


# --- the fetch goes where the check looked ------------------------------------------------------------------


@pytest.fixture()
def site() -> Iterator[LocalServer]:
    local = LocalServer().start()
    local.routes["/page"] = lambda r: Reply(200, b"<p>The pump is blue.</p>", {"Content-Type": "text/html"})
    yield local
    local.stop()


def counting_resolver(answers: list[str]):
    """Answers the first lookup with answers[0], the next with answers[1]... (a rebinding DNS server)."""
    calls: list[str] = []

    def resolve(host: str, port: int, **kwargs):  # noqa: ANN003
        calls.append(host)
        address = answers[min(len(calls), len(answers)) - 1]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    return resolve, calls


def as_public(*addresses: str):
    return lambda a: str(a) in addresses


def test_the_connection_goes_to_the_checked_address_not_a_second_lookup(site: LocalServer) -> None:
    port = int(site.url.rsplit(":", 1)[1])
    resolve, calls = counting_resolver(["127.0.0.1", "10.9.9.9"])  # a second lookup would get an intranet host
    policy = UrlPolicy(allow_private=False, resolver=resolve, public=as_public("127.0.0.1"))
    tool = VisitTool(timeout=3.0, max_bytes=10_000, allow_private=False, extractor=None, policy=policy)
    result = tool.call({"url": f"http://rebinding.example:{port}/page", "goal": "pump colour"})
    assert "The pump is blue." in result.text
    assert calls == ["rebinding.example"]  # resolved once
    assert site.requests[0].headers["Host"] == f"rebinding.example:{port}"  # the name travels in Host


@pytest.mark.parametrize("location", ["http://127.0.0.2/page", "http://[::ffff:127.0.0.2]/page",
                                      "http://intranet.example/", "http://2130706434/", "/page\\@127.0.0.2",
                                      "http://user@public.example/page", "file:///etc/passwd"])
def test_every_redirect_hop_is_checked(site: LocalServer, location: str) -> None:
    port = int(site.url.rsplit(":", 1)[1])
    site.routes["/start"] = lambda r: Reply(302, b"", {"Location": location})
    resolver = resolver_for({"public.example": ["127.0.0.1"], "intranet.example": ["10.1.2.3"]})
    policy = UrlPolicy(allow_private=False, resolver=resolver, public=as_public("127.0.0.1"))
    tool = VisitTool(timeout=3.0, max_bytes=10_000, allow_private=False, extractor=None, policy=policy)
    with pytest.raises(ToolError, match="refused|invalid"):
        tool.call({"url": f"http://public.example:{port}/start", "goal": "pump"})
    assert site.paths() == ["/start"]


# --- slow servers meet the deadline -------------------------------------------------------------------------


class DripServer:
    """A raw TCP server that answers every connection one byte at a time, for ever (or until the client goes)."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(client,), daemon=True).start()

    def _drip(self, client: socket.socket) -> None:
        with client:
            client.recv(65536)
            data = self.prefix + b"x" * 100_000
            for i in range(len(data)):
                if self.stopped.wait(0.02):
                    return
                try:
                    client.sendall(data[i:i + 1])
                except OSError:
                    return

    def stop(self) -> None:
        self.stopped.set()
        self.sock.close()


@pytest.mark.parametrize("prefix", [
    b"",  # the status line itself drips
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",  # the body drips, one byte every 20 ms
])
def test_a_drip_feeding_server_cannot_hold_visit_past_its_deadline(prefix: bytes) -> None:
    server = DripServer(prefix)
    tool = VisitTool(timeout=0.5, max_bytes=1_000_000, allow_private=True, extractor=None)
    raised = outcome_within(lambda: tool.call({"url": server.url, "goal": "x"}), 10)
    server.stop()
    assert isinstance(raised, ToolError) and "0.5 s" in str(raised)


def test_a_drip_feeding_search_api_cannot_hold_the_agent_past_its_deadline() -> None:
    server = DripServer(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
    search = SearxngSearch(server.url, timeout=0.5)
    raised = outcome_within(lambda: search.call({"query": "x"}), 10)
    server.stop()
    # the whole-call deadline ("took longer than") ends a steady drip; on a loaded machine a 0.5 s gap between two
    # bytes can come first and the read timeout ("did not answer within") ends it: either way the call ends
    assert isinstance(raised, ToolError) and str(raised).startswith("SearXNG ") and "0.5 s (timeout)" in str(raised)


def test_https_connects_to_the_checked_address_and_sends_the_name_as_sni(tmp_path) -> None:  # noqa: ANN001
    """A TLS server on 127.0.0.1 with a self-signed certificate for public.example: the client reaches it by the
    pinned address, names public.example in SNI, and refuses the untrusted certificate."""
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=public.example", "-addext", "subjectAltName=DNS:public.example",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    names: list[str | None] = []
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        client, _ = listener.accept()
        with client:
            try:
                context.wrap_socket(client, server_side=True).recv(1)
            except (ssl.SSLError, OSError):
                pass  # the client refuses the certificate: the handshake ends here

    threading.Thread(target=serve, daemon=True).start()
    port = listener.getsockname()[1]
    resolve, calls = counting_resolver(["127.0.0.1"])
    policy = UrlPolicy(allow_private=False, resolver=resolve, public=as_public("127.0.0.1"))
    tool = VisitTool(timeout=5.0, max_bytes=10_000, allow_private=False, extractor=None, policy=policy)
    with pytest.raises(ToolError, match="certificate"):
        tool.call({"url": f"https://public.example:{port}/", "goal": "x"})
    listener.close()
    assert calls == ["public.example"] and names == ["public.example"]


def test_cancel_ends_a_fetch_in_flight(site: LocalServer) -> None:
    from memory_bank.control import CancelToken
    from memory_bank.errors import RunCancelled

    site.routes["/slow"] = lambda r: Reply(200, b"late", {"Content-Type": "text/plain"}, delay=30)
    token = CancelToken()
    tool = VisitTool(timeout=60.0, max_bytes=10_000, allow_private=True, extractor=None, cancel=token)
    threading.Timer(0.3, token.cancel).start()
    raised = outcome_within(lambda: tool.call({"url": site.url + "/slow", "goal": "x"}), 10)
    assert isinstance(raised, RunCancelled)
