"""Browser fixtures: Debian's Chromium driven by Playwright, skipped with a reason where either is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from components.graph_view.harness import chromium_path, launch_chromium, serve_frontend

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -r requirements-dev.txt)")
    if chromium_path() is None:
        pytest.skip("Chromium is missing: install Debian's `chromium` (the CI script does) or set CHROMIUM_PATH")
    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


class RequestLog:
    """Every URL the page asked for; the tests assert that all of them stayed on 127.0.0.1."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, request) -> None:  # noqa: ANN001 - playwright Request
        self.urls.append(request.url)

    def outside_loopback(self) -> list[str]:
        bad = []
        for url in self.urls:
            parsed = urlparse(url)
            if parsed.scheme in ("data", "blob", "about"):
                continue
            if parsed.hostname not in ("127.0.0.1", "localhost"):
                bad.append(url)
        return bad


@pytest.fixture
def request_log() -> RequestLog:
    return RequestLog()


@pytest.fixture
def harness(browser, request_log):  # noqa: ANN001, ANN201
    """The graph component alone in a page of the protocol harness: (page, the component's frame). Fails the test
    on a JavaScript error or a request outside 127.0.0.1."""
    with serve_frontend() as url:
        page = browser.new_page(viewport={"width": 1240, "height": 820})
        page.on("request", request_log)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.wait_for_function("() => window.__ready === true")
        yield page, page.frames[1]
        assert errors == [], f"JavaScript errors in the component: {errors}"
        assert request_log.outside_loopback() == []
        page.close()
