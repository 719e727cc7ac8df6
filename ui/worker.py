"""One run in a worker thread, and what the page needs to know about it.

The worker never touches Streamlit: bank events land in a `RunMonitor` (plain data under a lock) and the page's
fragment reads an immutable `RunView` copy about once a second. A failure of the run is recorded in the monitor
and shown by the page, never dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_bank import (
    AnswerDelta,
    AnswerDraft,
    CancelToken,
    Event,
    LLMUsage,
    MemoryBank,
    NodeAdded,
    NodesMerged,
    Progress,
    RunFailure,
    RunRecord,
    RunResult,
    RunSlots,
)

from .format import describe
from .run_status import finished_status

log = logging.getLogger(__name__)
FRESH_SECONDS = 6.0


@dataclass(frozen=True)
class Stage:
    name: str
    done: int
    total: int
    message: str
    started: float
    updated: float
    busy: float = 0.0  # seconds spent on this stage: the gaps before its progress events (waves interleave)


@dataclass(frozen=True)
class LogLine:
    ts: float
    level: str
    text: str


@dataclass(frozen=True)
class Draft:
    """The answer as it is being written, with the run's calls and tokens so far."""

    text: str
    llm_calls: int
    tokens: int


@dataclass(frozen=True)
class RunView:
    """An immutable copy of a monitor, safe to read on the page while the worker goes on."""

    question: str
    files: tuple[str, ...]
    status: str  # queued (waiting for a free slot: `RunSlots`) | running | done | cancelled | failed | partly
    # failed (ui/run_status.py) | interrupted (the server stopped during it: resumable) | running on another
    # server, running in its owner's session (a read-only copy of a run going on where its task is open)
    started: float
    finished: float | None
    stages: tuple[Stage, ...]
    log: tuple[LogLine, ...]
    counts: dict[str, int]
    llm: dict[str, int]
    fresh_nodes: tuple[str, ...]
    result: RunResult | None
    error: RunFailure | None
    cancel_requested: bool
    draft: Draft | None = None  # the answer as it is being written, with the calls and tokens so far
    estimate: tuple[int, float] | None = None  # (pages, cost) of reading the run's files, told before it started
    ahead: int = 0  # while queued: how many runs wait before this one

    @property
    def queued(self) -> bool:
        return self.status == "queued"

    @property
    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.started

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def errors(self) -> list[LogLine]:
        return [line for line in self.log if line.level == "error"]


class RunMonitor:
    """Written by the worker thread (event callback), read by the page through `view()`."""

    def __init__(self, question: str, files: tuple[str, ...] = (), inputs: int | None = None,
                 estimate: tuple[int, float] | None = None) -> None:
        self._lock = threading.Lock()
        self.question = question
        self.estimate = estimate
        self.files = files
        self.inputs = len(files) if inputs is None else inputs
        self.started = time.time()
        self._finished: float | None = None
        self._status = "running"
        self._stages: dict[tuple[str, str], Stage] = {}
        self._log: deque[LogLine] = deque(maxlen=600)
        self._counts: dict[str, int] = {}
        self._llm = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        self._fresh: dict[str, float] = {}
        self._result: RunResult | None = None
        self._error: RunFailure | None = None
        self._cancel_requested = False
        self._draft = AnswerDraft()  # folded from the deltas: one buffer, not one event per token
        self._ahead: Callable[[], int | None] | None = None  # while queued: its place in the line

    def on_event(self, event: Event) -> None:
        with self._lock:
            self._count(event)
            if isinstance(event, Progress):
                key = (event.message, event.stage)  # the pipeline names the document in `message`
                old = self._stages.get(key)
                # a stage's first event already reports work done: it began when this run last moved
                last = max([s.updated for s in self._stages.values()] + [self.started])
                began = old.started if old else last
                busy = (old.busy if old else 0.0) + max(0.0, event.ts - last)
                self._stages[key] = Stage(event.stage, event.done, event.total, event.message, began, event.ts, busy)
            elif isinstance(event, LLMUsage):
                self._llm["calls"] += 1
                self._llm["prompt_tokens"] += event.prompt_tokens
                self._llm["completion_tokens"] += event.completion_tokens
            elif isinstance(event, AnswerDelta):
                self._draft.add(event)
                return  # one per token: counted and folded into the draft, not logged
            elif isinstance(event, NodeAdded):
                self._fresh[event.node_id] = event.ts
            elif isinstance(event, NodesMerged):
                self._fresh[event.new_node_id] = event.ts
            line = describe(event)
            if line is not None:
                self._log.append(LogLine(event.ts, *line))

    def _count(self, event: Event) -> None:
        self._counts[event.kind] = self._counts.get(event.kind, 0) + 1

    def wait_in_line(self, ahead: Callable[[], int | None]) -> None:
        """The run waits for a free slot; `ahead` tells how many runs are before it."""
        with self._lock:
            self._ahead, self._status = ahead, "queued"

    def admitted(self) -> None:
        """Its turn came: it starts now, and its time counts from here."""
        with self._lock:
            self._ahead, self._status, self.started = None, "running", time.time()

    def left_line(self) -> None:
        """Cancelled while it waited: it never started, so nothing was read or written."""
        with self._lock:
            self._ahead, self._status, self._cancel_requested = None, "cancelled", True
            self._finished = time.time()
            self._log.append(LogLine(self._finished, "info", "Cancelled while waiting for its turn: nothing was "
                                                             "read or written."))

    def request_cancel(self) -> None:
        with self._lock:
            self._cancel_requested = True

    def finish(self, result: RunResult) -> None:
        with self._lock:
            self._result = result
            self._status = finished_status(result, inputs=self.inputs, cancel_requested=self._cancel_requested)
            self._finished = time.time()
            self._draft = AnswerDraft()  # the answer is shown now: its draft (as long as the answer) is not

    def fail(self, failure: BaseException | RunFailure) -> None:
        """`failure`: the exception the run raised here, or the failure the store kept of one that ran before."""
        with self._lock:
            self._error = failure if isinstance(failure, RunFailure) else RunFailure.of(failure)
            self._status = "failed"
            self._finished = time.time()
            self._draft = AnswerDraft()  # the failure is shown instead
            self._log.append(LogLine(time.time(), "error", f"The run stopped: {self._error}"))

    def interrupt(self) -> None:
        """The run died with a previous server process; `Resume` continues it."""
        with self._lock:
            self._status = "interrupted"
            self._log.append(LogLine(time.time(), "error", "The run was interrupted: the server stopped while it "
                                                            "ran. Resume continues it where it stopped."))

    def elsewhere(self, where: str) -> None:
        """A read-only copy of a run that goes on in the process holding the task: `where` is its status."""
        with self._lock:
            self._status = where

    def restore(self, started: float, finished: float | None) -> None:
        with self._lock:
            self.started, self._finished = started, finished

    def view(self) -> RunView:
        with self._lock:
            now = time.time()
            fresh = tuple(n for n, ts in self._fresh.items() if now - ts <= FRESH_SECONDS)
            ahead = (self._ahead() or 0) if self._ahead is not None else 0
            return RunView(self.question, self.files, self._status, self.started, self._finished,
                           tuple(self._stages.values()), tuple(self._log), dict(self._counts), dict(self._llm),
                           fresh, self._result, self._error, self._cancel_requested, self._draft_view(),
                           self.estimate, ahead)

    def _draft_view(self) -> Draft | None:
        draft = self._draft
        return Draft(draft.text, draft.llm_calls, draft.tokens) if len(draft) else None


@dataclass
class RunHandle:
    """A started run: its monitor, its cancel token and its thread."""

    monitor: RunMonitor
    cancel_token: CancelToken
    thread: threading.Thread | None  # None for a run restored from the store (it ran in an earlier page or process)
    follow_up: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def cancel(self) -> None:
        self.monitor.request_cancel()
        self.cancel_token.cancel()

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def join(self, timeout: float) -> None:
        if self.thread is not None:
            self.thread.join(timeout=timeout)


def start_run(bank: MemoryBank, question: str, files: list[Path] | None = None, text: str | None = None, *,
              follow_up: bool = False, estimate: tuple[int, float] | None = None,
              slots: RunSlots | None = None) -> RunHandle:
    """Start `bank.run` in a daemon thread; the bank's events feed a fresh monitor until the run ends. With
    `slots` (the server's), the run first waits in line for a free slot."""
    paths = list(files or [])
    monitor = RunMonitor(question, tuple(p.name for p in paths), len(paths) + bool(text and text.strip()), estimate)
    return _start(bank, monitor, lambda token: bank.run(question, files=paths, text=text, cancel=token), follow_up,
                  slots)


def start_resume(bank: MemoryBank, question: str, slots: RunSlots | None = None) -> RunHandle:
    """Continue the stored task's interrupted run (`bank.resume`) in a daemon thread, like `start_run`."""
    return _start(bank, RunMonitor(question), lambda token: bank.resume(cancel=token), True, slots)


def _start(bank: MemoryBank, monitor: RunMonitor, run: Callable[[CancelToken], RunResult], follow_up: bool,
           slots: RunSlots | None) -> RunHandle:
    token = CancelToken()
    unsubscribe = bank.subscribe(monitor.on_event)
    ticket = slots.enter() if slots is not None else None  # in line from the click, not from the thread's start
    queued = slots is not None and slots.ahead(ticket) is not None
    if queued:
        monitor.wait_in_line(lambda: slots.ahead(ticket))

    def work() -> None:
        try:
            if queued:
                if not slots.wait(ticket, token):
                    monitor.left_line()
                    return
                monitor.admitted()
            monitor.finish(run(token))
        except Exception as exc:  # noqa: BLE001 - recorded in the monitor, shown by the page with st.error
            log.exception("run failed: %s", monitor.question)
            monitor.fail(exc)
        finally:
            if ticket is not None:
                slots.leave(ticket)  # however it ended: the next in line starts
            unsubscribe()

    thread = threading.Thread(target=work, name="memory-bank-run", daemon=True)
    handle = RunHandle(monitor, token, thread, follow_up)
    thread.start()
    return handle


def restore_run(record: RunRecord, events: list[Event], follow_up: bool, running: str | None = None) -> RunHandle:
    """A run from the store as the page shows a live one: its events replayed into a monitor, then its outcome
    (answer and citations, a failure, or 'interrupted'; or, for a run going on in the process that holds the
    task, where it runs: `running`)."""
    files = tuple(f.get("name", "") for f in record.inputs.get("files", []))
    monitor = RunMonitor(record.question, files, len(files) + bool(record.inputs.get("text")))
    for event in events:
        monitor.on_event(event)
    result = record.result or {}
    if record.status in ("done", "cancelled") and "answer" in result:
        monitor.finish(RunResult.model_validate({k: v for k, v in result.items()
                                                 if k in RunResult.model_fields}))
    elif record.status == "failed":
        monitor.fail(RunFailure.from_stored(result))
    elif record.status == "running" and running:
        monitor.elsewhere(running)
    else:  # 'interrupted', or 'running' in a process that is gone
        monitor.interrupt()
    monitor.restore(record.started, record.finished)
    return RunHandle(monitor, CancelToken(), None, follow_up)
