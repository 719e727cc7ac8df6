"""Shared pieces of the reliability suite: a small bank, a deadline guard, and the checks every row makes."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.support.fake_engine import fake_engine

SECRET = "sk-reliability-SECRET-4242"
DEADLINE = 60.0  # generous: a hang is what this catches, not speed
NOTES = ("ALPHA pumps move water FACT:rate=10 every hour.\n\n"
         "The BETA valve closes at night.\n\n"
         "DUP The GAMMA gateway routes traffic between sites.")


def settings(**overrides: Any) -> Settings:
    return Settings(llm_api_key=SECRET, **overrides)


def make_bank(workdir: Path, **overrides: Any) -> MemoryBank:
    return MemoryBank(settings(**overrides), embedder=HashingEmbedder(), engine=fake_engine(), workdir=workdir)


def seeded_bank(tmp_path: Path, **overrides: Any) -> MemoryBank:
    """A bank with one ingested file (so there is a stored document attachment) and some notes."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    bank = make_bank(tmp_path / "bank", **overrides)
    source = tmp_path / "notes.txt"
    source.write_text(NOTES, encoding="utf-8")
    bank.ingest_file(source)
    return bank


def within_deadline(fn: Callable[[], Any], seconds: float = DEADLINE) -> Any:
    """Run `fn` in a daemon thread; fail the test if it has not returned by the deadline (a hang), else return
    its result or re-raise its exception."""
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test thread as it is
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=target, daemon=True, name="deadline-guard").start()
    if not done.wait(seconds):
        raise AssertionError(f"did not finish within {seconds:.0f} s: a hang")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def intact(bank: MemoryBank, before: dict) -> None:
    """The memory and its export are exactly what they were before the bad input."""
    after = bank.export()
    assert after["query_graph"] == before["query_graph"]
    assert after["interaction_tree"] == before["interaction_tree"]
    assert after["conflicts"] == before["conflicts"]
    assert SECRET not in json.dumps(after)


def no_secret(*texts: object) -> None:
    for text in texts:
        assert SECRET not in str(text)
