"""Signing in: a password check behind a throttle, and how long the session it opens lasts.

The throttle counts failures per user name and per client address. After `free` failures within `window`
seconds under one key, every attempt under it is refused, without the password being checked, until a lockout
has passed: 2 s after the first failure too many, doubling with each one up to `max_lock`. A name that does not
exist is counted and locked exactly like one that does, and every refusal says the same words, so neither the
answer nor the lockout tells whether a name exists. The clock is passed in (tests move it); the throttle's state
lives in one object the app keeps per process, bounded to `max_keys` keys (the oldest go first).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..settings import Settings
from .users import Accounts

REFUSED = "Wrong user name or password."


@dataclass
class _Failures:
    count: int = 0
    first: float = 0.0
    locked_until: float = 0.0


class Throttle:
    def __init__(self, free: int = 5, window: float = 900.0, first_lock: float = 2.0, max_lock: float = 900.0,
                 max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.window, self.first_lock, self.max_lock = free, window, first_lock, max_lock
        self.max_keys, self.clock = max_keys, clock
        self._keys: OrderedDict[str, _Failures] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, keys: list[str]) -> float:
        """Seconds until an attempt under these keys is taken (0: now)."""
        now = self.clock()
        with self._lock:
            return max((f.locked_until - now for k in keys if (f := self._keys.get(k))), default=0.0) if keys else 0.0

    def failed(self, keys: list[str]) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                f = self._keys.pop(key, None) or _Failures(first=now)
                if now - f.first > self.window:
                    f = _Failures(first=now)
                f.count += 1
                if f.count > self.free:
                    f.locked_until = now + min(self.max_lock, self.first_lock * 2 ** (f.count - self.free - 1))
                self._keys[key] = f
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)

    def succeeded(self, keys: list[str]) -> None:
        with self._lock:
            for key in keys:
                self._keys.pop(key, None)


@dataclass(frozen=True)
class SignedIn:
    """Who this browser session is, since when, and when it was last seen (wall clock seconds)."""

    user: str
    since: float
    seen: float


@dataclass(frozen=True)
class SessionPolicy:
    idle_seconds: float
    max_seconds: float

    @classmethod
    def from_settings(cls, settings: Settings) -> SessionPolicy:
        return cls(settings.session_idle_minutes * 60, settings.session_max_hours * 3600)

    def touch(self, session: SignedIn, now: float) -> SignedIn | None:
        """The session seen again at `now`, or None when it has expired (idle too long, or simply too old)."""
        if now - session.seen > self.idle_seconds or now - session.since > self.max_seconds:
            return None
        return SignedIn(session.user, session.since, now)


@dataclass(frozen=True)
class SignInResult:
    outcome: Literal["ok", "refused", "locked"]
    message: str
    session: SignedIn | None = None


def sign_in(accounts: Accounts, throttle: Throttle, name: str, password: str, client: str | None,
            now: float | None = None) -> SignInResult:
    """Check a sign-in through the throttle. The keys are the name as typed (at most 64 characters of it) and
    the client's address when known."""
    keys = [f"name:{name[:64].casefold()}"] + ([f"client:{client}"] if client else [])
    wait = throttle.wait(keys)
    if wait > 0:
        return SignInResult("locked", f"Too many failed sign-ins: try again in {int(wait) + 1} s.")
    if not accounts.verify(name, password):
        throttle.failed(keys)
        return SignInResult("refused", REFUSED)
    throttle.succeeded(keys[:1])  # the name's count; a client that guessed at many names stays counted
    at = time.time() if now is None else now
    return SignInResult("ok", "", SignedIn(name, at, at))
