"""Keeps one bank's task in the store: a background writer flushes what changed about twice a second.

The bank's events mark the task dirty and are queued for the run log; the writer then takes the memory's read
lock just long enough to find what changed (`ChangeTracker`), and writes it outside the lock in one transaction,
so a run never waits on the database. Events are drained *before* the memory is compared: a progress checkpoint
is therefore never written ahead of the nodes it counts. While a run is going the writer also refreshes its
heartbeat, which is how a reopened task tells a run that died with its process from one still alive.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import MemoryBankError
from ..events import ChunksStored, ErrorRaised, Event, EventBus
from ..memory.store import Memory
from .base import ChangeSet, TaskStore
from .tracker import ChangeTracker

log = logging.getLogger(__name__)
FLUSH_SECONDS = 0.5
HEARTBEAT_SECONDS = 5.0


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
        self.failure: str | None = None
        with memory.read():
            if loaded:
                self.tracker.mark_written(self.usage())
            else:
                self._queue.extend(json.dumps(e, default=str) for e in memory.prior_log)
        self._unsubscribe = events.subscribe(self._on_event)
        self._thread = threading.Thread(target=self._loop, name=f"task-writer-{task_id[:6]}", daemon=True)
        self._thread.start()
        if not loaded:
            self.flush()

    def _on_event(self, event: Event) -> None:
        if isinstance(event, ErrorRaised) and event.where == "task store":
            return  # our own failure report: not queued again (it is in the bus log)
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
            with self._lock:
                running = self._run_id is not None
            if self._dirty.is_set() or (running and beat >= HEARTBEAT_SECONDS):
                beat = 0.0
                self._flush_quietly()

    def _flush_quietly(self) -> None:
        """The writer thread's flush: a failure is reported on the bus and retried next time, never raised."""
        try:
            self.flush()
        except MemoryBankError as exc:
            if self.failure != str(exc):
                self.failure = str(exc)
                log.error("task %s could not be saved: %s", self.task_id, exc)
                self.events.publish(ErrorRaised(where="task store", message=str(exc)))

    def flush(self) -> None:
        """Write everything changed so far; returns when it is durable."""
        with self._write_lock:
            self._dirty.clear()
            with self._lock:
                queued, self._queue = self._queue, []
                progress, self._progress = self._progress, {}
                run_id = self._run_id
            before, seqs = self.tracker.state(), dict(self.seqs)
            with self.memory.read():
                changes = self.tracker.changes(self.usage())
            changes.events, changes.progress, changes.heartbeat = queued, progress, run_id
            if changes.empty():
                return
            try:
                self.store.write(self.task_id, changes, self.seqs)
            except MemoryBankError:
                self._requeue(changes, before, seqs)
                raise
            self.failure = None

    def _requeue(self, changes: ChangeSet, before: dict[str, Any], seqs: dict[str, int]) -> None:
        """A failed write (rolled back) is tried again next time: state as before it, events queued again."""
        with self._lock:
            self._queue[:0] = changes.events
            self._progress = {**changes.progress, **self._progress}
        self.tracker.restore(before)
        self.seqs.update(seqs)
        self._dirty.set()

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

    def close(self) -> None:
        """Final flush and stop the writer."""
        self._stop.set()
        self._thread.join(timeout=5)
        self._unsubscribe()
        self.flush()
