"""A Start that waits for the embedding model, kept by the server process so that a reload of its page keeps it.

Creating the task needs the model, so a Start clicked while it loads (the first run after a server start) waits
on the Run page (`session.start_pending`). It waited in the browser session alone: a reload made a new session,
the start was gone, and so were its uploads (a dropped session takes its upload folder along). Now each waiting
start is here, under a random token the page's URL carries (`?start=`): a reload of that page finds it again, its
files wait in a folder of their own, and whichever view of the page begins it first takes it (once).
"""

from __future__ import annotations

import shutil
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import tempdirs

KEEP_SECONDS = 3600.0  # a start no page has begun within this (its tab was closed) goes, with its files


@dataclass(frozen=True)
class PendingStart:
    """A Start clicked while the embedding model still loads.

    Waiting for the model inside the click's script run kept the New task page on screen with a live Start
    button for as long as the load took (seconds to a minute on a busy machine with a cold disk): the click
    looked lost, and a second click started a second run. The click now goes straight to the Run page, which
    says what it waits for and starts the run once the model is ready."""

    question: str
    files: tuple[Path, ...]
    text: str | None
    asked: float
    user: str = ""
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def waited(self) -> float:
        return time.time() - self.asked


class PendingStarts:
    """The starts waiting in this server process, by token; thread-safe (every session's page polls)."""

    def __init__(self, parent: Path | None = None, keep_seconds: float = KEEP_SECONDS) -> None:
        self._parent, self._keep = parent, keep_seconds
        self._lock = threading.Lock()
        self._waiting: dict[str, tuple[PendingStart, Path]] = {}

    def add(self, question: str, files: list[Path], text: str | None, user: str) -> PendingStart:
        """A new waiting start; its files are copied into a folder of its own (the session that uploaded them
        may be dropped before the start begins; a sample's files are the app's own, never moved)."""
        folder = tempdirs.make("start", self._parent)
        copies = tuple(_place(f, folder / str(i), shutil.copy2) for i, f in enumerate(files))
        pending = PendingStart(question, copies, text, time.time(), user)
        with self._lock:
            stale = [t for t, (p, _) in self._waiting.items() if p.waited > self._keep]
            gone = [self._waiting.pop(t)[1] for t in stale]
            self._waiting[pending.token] = (pending, folder)
        for old in gone:
            shutil.rmtree(old, ignore_errors=True)
        return pending

    def get(self, token: str, user: str) -> PendingStart | None:
        """The waiting start under `token`, for its own user only."""
        with self._lock:
            found = self._waiting.get(token)
        return found[0] if found is not None and found[0].user == user else None

    def take(self, token: str, user: str, into: Path) -> PendingStart | None:
        """Take the start to begin it: its files move into `into` (the beginning session's uploads) and its
        folder goes. None when another view of the page took it first (or it was dropped)."""
        with self._lock:
            found = self._waiting.get(token)
            if found is None or found[0].user != user:
                return None
            del self._waiting[token]
        pending, folder = found
        target = into / uuid.uuid4().hex[:8]
        files = tuple(_place(f, target / str(i), shutil.move) for i, f in enumerate(pending.files))
        shutil.rmtree(folder, ignore_errors=True)
        return replace(pending, files=files)

    def drop(self, token: str) -> None:
        """The session moved on (a sample, another task): the start will not begin, and its files go."""
        with self._lock:
            found = self._waiting.pop(token, None)
        if found is not None:
            shutil.rmtree(found[1], ignore_errors=True)

    def __len__(self) -> int:
        with self._lock:
            return len(self._waiting)


def _place(path: Path, folder: Path, how: Callable[[str, str], object]) -> Path:
    """`path` copied or moved into `folder` under its own name (the run names the document after the file)."""
    folder.mkdir(parents=True, exist_ok=True)
    how(str(path), str(folder / path.name))
    return folder / path.name


def page_params(pending: PendingStart | None, task_id: str | None) -> dict[str, str]:
    """The query parameters of the page that shows the session's task, or its waiting start: what a reload of
    that page needs (a switch of pages starts from none)."""
    if pending is not None:
        return {"start": pending.token}
    return {"task": task_id} if task_id else {}
