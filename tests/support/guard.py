"""Running work that must not hang: in a thread, joined with a guard far above its own deadline."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def outcome_within(work: Callable[[], Any], guard: float) -> Any:
    """What `work()` returned, or the exception it raised; a hang past `guard` seconds fails the test instead of
    hanging it (the thread is a daemon)."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(guard)
    assert not worker.is_alive(), f"the call hung for more than {guard:g} s"
    return outcome[0]
