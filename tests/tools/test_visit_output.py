"""The loop ingests what `visit` found page by page: the typed pages beside the text the agent reads."""

from __future__ import annotations

from memory_bank.tools.base import VisitedPage
from memory_bank.tools.visit import NO_MATCH, VisitTool

from .local_server import LocalServer, Reply

ALPHA = b"<html><head><title>Alpha page</title></head><body><p>Alpha was founded in 1990.</p><p>It has 12 staff.</p>"
GAMMA = b"Gamma was founded by three people."
BETA = b"Nothing relevant here."


def founding(goal: str, text: str) -> str:
    return text if "founded" in text else ""


def tool() -> VisitTool:
    return VisitTool(timeout=2.0, max_bytes=100_000, allow_private=True, extractor=founding)


def test_pages_with_evidence_are_typed_and_the_rest_is_not(server: LocalServer) -> None:
    server.routes["/a"] = lambda r: Reply(200, ALPHA, {"Content-Type": "text/html; charset=utf-8"})
    server.routes["/b"] = lambda r: Reply(200, BETA, {"Content-Type": "text/plain"})
    server.routes["/c"] = lambda r: Reply(200, GAMMA, {"Content-Type": "text/plain"})
    urls = [server.url + path for path in ("/a", "/b", "/c", "/d")]
    result = tool().call({"url": urls, "goal": "founding year"})
    assert result.text == (
        f"URL: {urls[0]}\nTitle: Alpha page\n\nAlpha was founded in 1990.\n\nIt has 12 staff."
        f"\n\nURL: {urls[1]}\n{NO_MATCH}: founding year"
        f"\n\nURL: {urls[2]}\n\nGamma was founded by three people."
        f"\n\nPages that could not be visited: {urls[3]} answered HTTP 404 Not Found"
    )
    assert result.pages == (
        VisitedPage(url=urls[0], title="Alpha page", evidence="Alpha was founded in 1990.\n\nIt has 12 staff."),
        VisitedPage(url=urls[2], title=None, evidence="Gamma was founded by three people."),
    )


def test_a_page_without_a_match_yields_nothing(server: LocalServer) -> None:
    server.routes["/b"] = lambda r: Reply(200, BETA, {"Content-Type": "text/plain"})
    result = tool().call({"url": server.url + "/b", "goal": "x"})
    assert result.text == f"URL: {server.url}/b\n{NO_MATCH}: x"
    assert result.pages == ()
