"""`RunSlots`: at most `limit` runs at once, the others in line first come first served, a cancel leaving the line,
every end freeing its slot. Real threads; what is counted is how many were inside at once, never how long."""

from __future__ import annotations

import queue
import threading

import pytest

from memory_bank import CancelToken, RunSlots

GUARD = 30  # seconds a step may take before the test gives up (a hang, not a measure)


class Worker:
    """A run in a thread: takes its place in line at creation (in the test's order), then waits for its turn,
    says it started, holds its slot until released, and leaves however it ends."""

    def __init__(self, slots: RunSlots, index: int, inside: Counter, started: queue.Queue,
                 fail: bool = False) -> None:
        self.slots, self.index, self.inside, self.started, self.fail = slots, index, inside, started, fail
        self.ticket = slots.enter()
        self.token = CancelToken()
        self.release = threading.Event()
        self.admitted: bool | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.admitted = self.slots.wait(self.ticket, self.token)
            if not self.admitted:
                return
            self.inside.enter()
            self.started.put(self.index)
            self.release.wait(GUARD)
            self.inside.leave()
            if self.fail:
                raise RuntimeError("the run failed")
        except RuntimeError:
            pass  # the failure is the point: the slot must come free all the same
        finally:
            self.slots.leave(self.ticket)


class Counter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.now = self.most = 0

    def enter(self) -> None:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)

    def leave(self) -> None:
        with self._lock:
            self.now -= 1


def test_two_slots_six_runs_go_two_at_a_time_in_the_order_they_came() -> None:
    slots, inside, started = RunSlots(2), Counter(), queue.Queue()
    workers = [Worker(slots, i, inside, started) for i in range(6)]
    first = {started.get(timeout=GUARD), started.get(timeout=GUARD)}
    assert first == {0, 1}
    assert [slots.ahead(w.ticket) for w in workers] == [None, None, 0, 1, 2, 3]
    assert slots.load() == (2, 4)
    order = []
    for w in workers:  # each release lets exactly the next one in
        w.release.set()
        if w.index + 2 < len(workers):
            order.append(started.get(timeout=GUARD))
    for w in workers:
        w.thread.join(GUARD)
    assert order == [2, 3, 4, 5]
    assert inside.most == 2 and inside.now == 0
    assert slots.load() == (0, 0)


def test_a_run_cancelled_in_line_leaves_it_and_those_behind_move_up() -> None:
    slots, inside, started = RunSlots(1), Counter(), queue.Queue()
    holder, a, b, c = (Worker(slots, i, inside, started) for i in range(4))
    assert started.get(timeout=GUARD) == 0
    assert [slots.ahead(w.ticket) for w in (a, b, c)] == [0, 1, 2]
    b.token.cancel()
    b.thread.join(GUARD)
    assert b.admitted is False
    assert [slots.ahead(w.ticket) for w in (a, b, c)] == [0, None, 1]
    holder.release.set()
    assert started.get(timeout=GUARD) == 1  # a, never b
    a.release.set()
    assert started.get(timeout=GUARD) == 3
    c.release.set()
    c.thread.join(GUARD)
    assert inside.most == 1 and slots.load() == (0, 0)


def test_a_failed_run_frees_its_slot() -> None:
    slots, inside, started = RunSlots(1), Counter(), queue.Queue()
    failing = Worker(slots, 0, inside, started, fail=True)
    after = Worker(slots, 1, inside, started)
    assert started.get(timeout=GUARD) == 0
    assert slots.ahead(after.ticket) == 0
    failing.release.set()
    assert started.get(timeout=GUARD) == 1
    after.release.set()
    after.thread.join(GUARD)
    assert slots.load() == (0, 0)


def test_a_token_cancelled_before_the_wait_never_takes_a_slot() -> None:
    slots = RunSlots(1)
    busy = slots.enter()
    ticket, token = slots.enter(), CancelToken()
    token.cancel()
    assert slots.wait(ticket, token) is False
    assert slots.load() == (1, 0)
    slots.leave(busy)
    assert slots.load() == (0, 0)


def test_at_least_one_slot() -> None:
    with pytest.raises(ValueError, match="at least one"):
        RunSlots(0)
