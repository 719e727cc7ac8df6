"""A wall-clock deadline and a cancel that reach a network call while it is blocked reading.

Socket timeouts bound each read, not the whole exchange: a server that sends one byte a second keeps every read
short and the call alive for ever, and a cancel cannot reach a thread blocked in `recv`. A `Watchdog` knows the
sockets of the call it guards and, when the deadline passes or the cancel fires, shuts them down from a timer
thread; the blocked read returns at once and the caller asks `fired` why, to raise the right error. Used by the
LLM client and by the `visit` fetcher, which both hand it the sockets they open.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Literal, Protocol

Reason = Literal["deadline", "cancel"]


class Cancellable(Protocol):
    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]: ...


class Watchdog:
    """Guards one call (its retries each get their own): `with Watchdog(seconds, cancel) as watch: ...`."""

    def __init__(self, seconds: float, cancel: Cancellable | None = None) -> None:
        self.seconds = seconds
        self._deadline = time.monotonic() + seconds
        self._cancel = cancel
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._fired: Reason | None = None
        self._timer: threading.Timer | None = None
        self._unhook: Callable[[], None] | None = None

    def __enter__(self) -> Watchdog:
        self._timer = threading.Timer(max(0.0, self.remaining()), self._fire, args=("deadline",))
        self._timer.daemon = True
        self._timer.start()
        if self._cancel is not None:
            self._unhook = self._cancel.on_cancel(lambda: self._fire("cancel"))
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._unhook is not None:
            self._unhook()

    @property
    def fired(self) -> Reason | None:
        """Why the sockets were shut down, or None while the call is within its deadline and not cancelled."""
        with self._lock:
            return self._fired

    def remaining(self) -> float:
        return self._deadline - time.monotonic()

    def watch(self, sock: socket.socket | None) -> None:
        """Guard a socket the call opened; one opened after the watchdog fired is shut down at once."""
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            fired = self._fired is not None
        if fired:
            _shutdown(sock)

    def _fire(self, reason: Reason) -> None:
        with self._lock:
            if self._fired is None:
                self._fired = reason
            sockets = list(self._sockets)
        for sock in sockets:
            _shutdown(sock)


def _shutdown(sock: socket.socket) -> None:
    """`shutdown`, not `close`: it wakes a thread blocked in `recv` on that socket; the owner still closes it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed or never connected: nothing is blocked on it
