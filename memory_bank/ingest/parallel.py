"""Run independent agent calls concurrently, up to the configured limit, keeping input order.

Per-item failures that are the agent's (invalid output, LLM transport) come back as values so the caller can
record a failed sub-task and go on; budget, cancellation and a dead endpoint stop everything at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..engines.base import Agent, Engine, batch_of, plan_of
from ..errors import STOPS_THE_RUN, MemoryBankError
from ..settings import Settings

T = TypeVar("T")
R = TypeVar("R")


def agent_concurrency(engine: Engine, settings: Settings) -> int:
    """Agent calls at once: an engine without an LLM runs Python under one interpreter lock, where threads only
    add their start-up and switching (NIST: 168 threads started, over a second of wall time at load 10)."""
    return settings.llm_concurrency if engine.uses_llm else 1


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


def map_agent(agent: Agent[T, R], items: Iterable[T], limit: int, on_done: Callable[[int], None] | None = None,
              before_each: Callable[[], None] | None = None) -> list[R | MemoryBankError]:
    """`agent` over `items`, one outcome per item in input order: a batching agent's groups (several items a
    call) run concurrently like single items do; `on_done` hears how many items are done."""
    items = list(items)
    groups = plan_of(agent, items)
    ends = [sum(len(g) for g in groups[:k + 1]) for k in range(len(groups))]
    outs = parallel_map(lambda g: batch_of(agent, [items[i] for i in g]), groups, limit,
                        (lambda k: on_done(ends[k - 1])) if on_done else None, before_each)
    results: list[R | MemoryBankError | None] = [None] * len(items)
    for group, out in zip(groups, outs):
        for j, i in enumerate(group):
            results[i] = out if isinstance(out, MemoryBankError) else out[j]
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        raise MemoryBankError(f"{agent.name} planned batches without items {missing}")  # a planning bug, loudly
    return results  # type: ignore[return-value]
