"""Run independent agent calls concurrently, up to the configured limit, keeping input order.

Per-item failures that are the agent's (invalid output, LLM transport) come back as values so the caller can
record a failed sub-task and go on; budget, cancellation and a dead endpoint stop everything at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..errors import STOPS_THE_RUN, MemoryBankError

T = TypeVar("T")
R = TypeVar("R")


def parallel_map(fn: Callable[[T], R], items: Iterable[T], limit: int,
                 on_done: Callable[[int], None] | None = None,
                 before_each: Callable[[], None] | None = None) -> list[R | MemoryBankError]:
    """`before_each` runs before every item (the cancellation check: engines without an LLM make no call
    that would notice a cancel, so the pipeline checks between items)."""
    items = list(items)

    def guarded(item: T) -> R | MemoryBankError:
        try:
            if before_each is not None:
                before_each()
            return fn(item)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            return exc

    if limit <= 1 or len(items) <= 1:
        results = []
        for item in items:
            results.append(guarded(item))
            if on_done:
                on_done(len(results))
        return results
    with ThreadPoolExecutor(max_workers=min(limit, len(items)), thread_name_prefix="agent") as pool:
        futures = [pool.submit(guarded, item) for item in items]
        results = []
        for future in futures:
            results.append(future.result())
            if on_done:
                on_done(len(results))
        return results
