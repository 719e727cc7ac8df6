"""Long-term memory fixtures: a clock the tests move, a store in tmp_path, a slow page on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bank import LongTermMemory
from tests.tools.local_server import LocalServer, Reply

SLOW_PAGE = (b"<html><head><title>Northwind</title></head><body><p>The NORTHWIND project budget was approved by "
             b"the board in March.</p></body></html>")
SLOW_SECONDS = 0.45  # the page answers after this; the default deadline below is shorter, the tripled one longer
VISIT_TIMEOUT = 0.3


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, days: float) -> None:
        self.now += days * 86_400


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def storage(tmp_path: Path) -> Path:
    return tmp_path / "long_term"


@pytest.fixture
def ltm(storage: Path, clock: Clock) -> LongTermMemory:
    return LongTermMemory(storage, "alice", clock=clock)


@pytest.fixture
def slow_server() -> Iterator[LocalServer]:
    server = LocalServer()
    server.routes["/slow"] = lambda _req: Reply(body=SLOW_PAGE, headers={"Content-Type": "text/html"},
                                                 delay=SLOW_SECONDS)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def northwind_text() -> str:
    """Short project notes: enough for a cited answer, small enough to keep the scenarios fast."""
    return ("Northwind project overview\n\nThe Northwind project budget is 5 million dollars for the fiscal year "
            "2021. It covers hardware, staff and travel for the NORTHWIND migration.\n\nBoard minutes\n\nThe "
            "steering board approved the Northwind budget in March 2021 after the finance review of the "
            "NORTHWIND project.\n")
