"""Fail fast on a dead endpoint: a few failed calls in a row, or one rejected key, stop the piece of work.

Each call already retries transport failures with backoff; a run makes hundreds of calls, so without this a
dead endpoint costs every one of them its full retries (minutes), and a bad key is asked again and again. The
breaker belongs to one piece of work (a run or an ingestion, identified by its cancel token): once open, every
call of that work fails at once with the same `EndpointDown`, including calls already waiting to retry, and the
next piece of work starts closed, so an endpoint that came back is tried again.
"""

from __future__ import annotations

import threading

from ...errors import EndpointDown, LLMError, LLMRejected, LLMUnavailable


class EndpointBreaker:
    def __init__(self, max_failures: int) -> None:
        self.max_failures = max_failures
        self._lock = threading.Lock()
        self._work: object | None = None
        self._failures = 0
        self._down: str | None = None

    def begin(self, work: object) -> None:
        """Called before every call with the current piece of work; a new one starts with a closed breaker."""
        with self._lock:
            if work is not self._work:
                self._work, self._failures, self._down = work, 0, None

    def check(self) -> None:
        """Raise `EndpointDown` if this piece of work already gave up on the endpoint."""
        with self._lock:
            down = self._down
        if down is not None:
            raise EndpointDown(down)

    def succeeded(self) -> None:
        with self._lock:
            self._failures = 0

    def failed(self, error: LLMError) -> EndpointDown | None:
        """Count a failed call; the `EndpointDown` to raise instead when this one opens the breaker."""
        if not isinstance(error, LLMUnavailable):
            return None  # a request this endpoint refused for its own content (400): others may still work
        with self._lock:
            self._failures += 1
            if self._down is None and (isinstance(error, LLMRejected) or self._failures >= self.max_failures):
                self._down = self._message(error, self._failures)
            down = self._down
        return EndpointDown(down) if down is not None else None

    @staticmethod
    def _message(error: LLMError, failures: int) -> str:
        why = ("it refused the request" if isinstance(error, LLMRejected)
               else f"{failures} call{'s' if failures != 1 else ''} in a row failed")
        return (f"The LLM endpoint is not usable, so the run stopped ({why}): {error}. What was built stays in "
                "memory. Check the base URL, API key and model (Settings: Test connection).")
