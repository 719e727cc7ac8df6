"""Cancellation: one token per piece of work (a run, an ingestion), set by the user, checked at safe points.

It sits at the bottom of the package because every stage checks it: the pipeline between chunks, the loop
between rounds, the LLM client before every call and during its retry backoff.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .errors import RunCancelled


class CancelToken:
    """Set by the UI; checked by the loop and before every LLM call."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        with self._lock:
            self._event.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` when the token is cancelled (at once if it already is); returns its removal.

        A call blocked on the network cannot poll the token: this lets it be interrupted (see `Watchdog`)."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: Callable[[], None]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise RunCancelled("the run was cancelled")

    def wait(self, seconds: float) -> None:
        """Sleep that a cancel cuts short: a retry backoff must not keep a cancelled run alive for a minute."""
        if self._event.wait(seconds):
            raise RunCancelled("the run was cancelled")


class Cancellation:
    """The cancel token of the work in progress: one per run or ingestion, so nothing has to be reset.

    Everything that checks for a cancel (the pipeline between chunks, the loop between rounds, the LLM client
    before a call and during its backoff) is handed this object once and always reaches the current token, so a
    new run needs no re-wiring. A caller may bring its own token (the UI keeps one per run it starts).
    """

    def __init__(self) -> None:
        self._token = CancelToken()
        self._lock = threading.Lock()

    def begin(self, token: CancelToken | None = None) -> CancelToken:
        """Start a piece of work with a fresh token (or the caller's) and return it."""
        with self._lock:
            self._token = token or CancelToken()
            return self._token

    @property
    def token(self) -> CancelToken:
        with self._lock:
            return self._token

    def cancel(self) -> None:
        self.token.cancel()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Hooked to the token of the work in progress when the call starts."""
        return self.token.on_cancel(callback)

    def check(self) -> None:
        self.token.check()

    def wait(self, seconds: float) -> None:
        self.token.wait(seconds)
