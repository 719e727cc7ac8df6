"""Keeps one bank's task in the store: a background writer flushes what changed about twice a second.

The bank's events mark the task dirty and are queued for the run log; the writer then takes the memory's read
lock just long enough to find what changed (`ChangeTracker`), and writes it outside the lock in one transaction,
so a run never waits on the database. Events are drained *before* the memory is compared: a progress checkpoint
is therefore never written ahead of the nodes it counts. While a run is going the writer also refreshes its
heartbeat, which is how a reopened task tells a run that died with its process from one still alive.

Nothing is lost silently: a write that fails, for any reason (the database, the disk, a record the export schema
refuses), is rolled back, what it held stays pending in memory, and the failure is a `SaveFailed` event, the
task's `SaveStatus` and a `StoreError` from `flush()` and `close()`. The writer retries by itself, less often
while it keeps failing; the first flush that succeeds writes everything and publishes `SaveRecovered`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..errors import StoreError
from ..events import ChunksStored, Event, EventBus, SaveFailed, SaveRecovered
from ..limits import shorten
from ..memory.export import schema_problem
from ..memory.store import Memory
from .base import TaskStore
from .tracker import ChangeTracker

log = logging.getLogger(__name__)
FLUSH_SECONDS = 0.5
HEARTBEAT_SECONDS = 5.0
RETRY_MAX_SECONDS = 30.0  # while failing, the writer retries after 1 s, 2 s, 4 s ... up to this


@dataclass(frozen=True)
class SaveStatus:
    """Whether the task's memory is all in the store: what the app shows beside the task."""

    ok: bool
    error: str = ""  # the last failure, while changes wait to be saved
    failures: int = 0  # flushes failed in a row


def _failure(task_id: str, exc: Exception) -> StoreError:
    if isinstance(exc, StoreError):
        return exc
    why = schema_problem(exc) if isinstance(exc, ValidationError) else f"{type(exc).__name__}: {exc}"
    return StoreError(f"task {task_id} could not be saved: {shorten(why, 500)}")


class Persistence:
    def __init__(self, store: TaskStore, task_id: str, memory: Memory, events: EventBus,
                 usage: Callable[[], dict[str, Any]], seqs: dict[str, int], loaded: bool) -> None:
        self.store, self.task_id, self.memory, self.events, self.usage = store, task_id, memory, events, usage
        self.seqs = seqs
        self.tracker = ChangeTracker(memory)
        self._lock = threading.Lock()  # guards the queue and the run fields
        self._write_lock = threading.Lock()  # one flush at a time
        self._queue: list[str] = []
        self._progress: dict[tuple[str, str], tuple[int, int]] = {}
        self._run_id: str | None = None
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._failures, self._error, self._retry_at = 0, "", 0.0
        self._after: list[Callable[[], None]] = []  # writes waiting for the next flush that succeeds
        with memory.read():
            if loaded:
                self.tracker.mark_written(self.usage())
            else:
                self._queue.extend(json.dumps(e, default=str) for e in memory.prior_log)
        self._unsubscribe = events.subscribe(self._on_event)
        self._thread = self._start()
        if not loaded:
            try:
                self.flush()
            except StoreError:
                self.abandon()  # the bank is not made: no writer left behind for it
                raise

    def _start(self) -> threading.Thread:
        thread = threading.Thread(target=self._loop, name=f"task-writer-{self.task_id[:6]}", daemon=True)
        thread.start()
        return thread

    def _on_event(self, event: Event) -> None:
        if isinstance(event, SaveFailed):
            return  # a report about saving is not itself a change to save (and repeats while it lasts)
        if not event.logged:
            return  # a streamed answer's pieces: the run's finished answer is stored, not one row per token
        with self._lock:
            self._queue.append(json.dumps(event.to_dict(), default=str))
            if isinstance(event, ChunksStored) and self._run_id is not None:
                self._progress[(self._run_id, event.source)] = (event.done, event.total)
        self._dirty.set()

    def set_run(self, run_id: str | None) -> None:
        with self._lock:
            self._run_id = run_id

    def _loop(self) -> None:
        beat = 0.0
        while not self._stop.wait(FLUSH_SECONDS):
            beat += FLUSH_SECONDS
            try:
                with self._lock:
                    running, retry_at = self._run_id is not None, self._retry_at
                due = self._dirty.is_set() or (running and beat >= HEARTBEAT_SECONDS)
                if due and time.monotonic() >= retry_at:
                    beat = 0.0
                    self.flush()
            except StoreError:
                pass  # already an event and the status; retried once `retry_at` comes
            except Exception as exc:  # noqa: BLE001 - a bug here must not end the saving without a word
                self._failed(_failure(self.task_id, exc))

    def flush(self) -> None:
        """Write everything changed so far; returns when it is durable. `StoreError` when the store did not take
        it: nothing is lost, the changes stay pending for the next flush (the writer retries by itself)."""
        with self._write_lock:
            self._dirty.clear()
            with self._lock:
                queued, self._queue = self._queue, []
                progress, self._progress = self._progress, {}
                run_id = self._run_id
            before, seqs = self.tracker.state(), dict(self.seqs)
            try:
                with self.memory.read():
                    changes = self.tracker.changes(self.usage())
                changes.events, changes.progress, changes.heartbeat = queued, progress, run_id
                if not changes.empty():
                    self.store.write(self.task_id, changes, self.seqs)
            except Exception as exc:  # noqa: BLE001 - every failure is reported and kept for a retry, none lost
                self._requeue(queued, progress, before, seqs)
                self._raise(exc)
            while self._after:  # what waited for this memory to be saved (a finished run's record)
                try:
                    self._after[0]()
                except Exception as exc:  # noqa: BLE001 - kept, and tried again after the next flush
                    self._dirty.set()
                    self._raise(exc)
                self._after.pop(0)
            self._succeeded()

    def after_save(self, write: Callable[[], None]) -> None:
        """`write` once the memory as it stands is saved (after the next flush that succeeds)."""
        with self._write_lock:
            self._after.append(write)
        self._dirty.set()

    def _raise(self, exc: Exception) -> None:
        error = _failure(self.task_id, exc)
        self._failed(error)
        if error is exc:
            raise error
        raise error from exc

    def _requeue(self, queued: list[str], progress: dict[tuple[str, str], tuple[int, int]],
                 before: dict[str, Any], seqs: dict[str, int]) -> None:
        """A failed write (rolled back) is tried again next time: state as before it, events queued again."""
        with self._lock:
            self._queue[:0] = queued
            self._progress = {**progress, **self._progress}
        self.tracker.restore(before)
        self.seqs.update(seqs)
        self._dirty.set()

    def _failed(self, error: StoreError) -> None:
        """One event per distinct failure (not one every retry), the status, and a longer pause each time."""
        with self._lock:
            self._failures += 1
            fresh = str(error) != self._error
            self._error = str(error)
            self._retry_at = time.monotonic() + min(RETRY_MAX_SECONDS, FLUSH_SECONDS * 2 ** self._failures)
        if fresh:
            log.error("task %s could not be saved: %s", self.task_id, error)
            self.events.publish(SaveFailed(where="task store", message=f"{error}. The changes are kept in memory "
                                                                       "and saved as soon as the store takes them."))

    def _succeeded(self) -> None:
        with self._lock:
            failures, self._failures, self._error, self._retry_at = self._failures, 0, "", 0.0
        if failures:
            self.events.publish(SaveRecovered(message=f"the task is saved again ({failures} failed attempt"
                                                      f"{'s' if failures != 1 else ''} before)"))

    def status(self) -> SaveStatus:
        with self._lock:
            return SaveStatus(ok=not self._error, error=self._error, failures=self._failures)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No flush while held (taken before the memory's lock, in the writer's order)."""
        with self._write_lock:
            yield

    def cleared(self) -> None:
        """Under `paused`: the memory was emptied (End task) and the store cleared to match; nothing pends."""
        with self._lock:
            self._queue, self._progress = [], {}
        self.tracker.reset()
        for name in self.seqs:
            self.seqs[name] = 0
        with self.memory.read():
            self.tracker.mark_written(self.usage())
        self._succeeded()

    def close(self) -> None:
        """A final flush, then the writer stops. When that flush fails: `StoreError`, and nothing stops (the
        writer goes on retrying, the changes stay in memory); call `close()` again once the cause is fixed."""
        self._stop.set()
        self._thread.join(timeout=5)
        self._unsubscribe()
        try:
            self.flush()
        except StoreError:
            self._unsubscribe = self.events.subscribe(self._on_event)
            self._stop.clear()
            if not self._thread.is_alive():
                self._thread = self._start()
            raise

    def abandon(self) -> None:
        """Stop the writer without saving (the task is being deleted, or was never made)."""
        self._stop.set()
        self._thread.join(timeout=5)
        self._unsubscribe()
