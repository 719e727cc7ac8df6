"""A bounded number of runs at once in one server process; the others wait their turn, first come, first served.

Every ingestion and answering loop is CPU work (parsing, embedding, clustering). On a 2-core server, eight
sessions running at once each took about eight times as long, and the pages of all of them (drawn by the same
process) waited behind that work. Now a run takes a `Ticket` when it is started, waits in `RunSlots.wait` until
one of `limit` slots is free, and gives the slot back when it ends, however it ends (done, cancelled, failed). A
run cancelled while it waits leaves the queue at once; those behind it move up. While it waits, `ahead` says how
many runs are before it, which the Run page shows.

Nothing here knows about runs: a ticket is a place in the line. One `RunSlots` per server process, built from
`Settings.max_concurrent_runs` by the app and handed to whatever starts runs.
"""

from __future__ import annotations

import threading
from collections import deque

from ..control import CancelToken


class Ticket:
    """One place in the line (compared by identity: two runs never share one)."""

    __slots__ = ()


class RunSlots:
    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"at least one run must be able to go at a time (got {limit})")
        self.limit = limit
        self._changed = threading.Condition()
        self._waiting: deque[Ticket] = deque()  # oldest first
        self._running: set[Ticket] = set()

    def enter(self) -> Ticket:
        """A place at the end of the line (taken at once when a slot is free and nobody waits)."""
        ticket = Ticket()
        with self._changed:
            self._waiting.append(ticket)
            self._admit()
        return ticket

    def wait(self, ticket: Ticket, cancel: CancelToken) -> bool:
        """Block until the ticket's run may start: True; or until `cancel` fires first: False, and the ticket
        has left the line (its slot, if it had just got one, is free again)."""
        stop_waiting = cancel.on_cancel(self._wake)
        try:
            with self._changed:
                while ticket not in self._running and not cancel.cancelled:
                    self._changed.wait()
                if not cancel.cancelled:
                    return True
        finally:
            stop_waiting()
        self.leave(ticket)
        return False

    def leave(self, ticket: Ticket) -> None:
        """The ticket's run ended (or never started): its slot or its place goes to the next in line."""
        with self._changed:
            self._running.discard(ticket)
            if ticket in self._waiting:
                self._waiting.remove(ticket)
            self._admit()

    def ahead(self, ticket: Ticket) -> int | None:
        """How many runs wait before this one; None once it runs (or has left)."""
        with self._changed:
            try:
                return self._waiting.index(ticket)
            except ValueError:
                return None

    def load(self) -> tuple[int, int]:
        """(running, waiting) now."""
        with self._changed:
            return len(self._running), len(self._waiting)

    def _admit(self) -> None:
        """Under the lock: the oldest waiting tickets take the free slots."""
        while self._waiting and len(self._running) < self.limit:
            self._running.add(self._waiting.popleft())
        self._changed.notify_all()

    def _wake(self) -> None:
        with self._changed:
            self._changed.notify_all()
