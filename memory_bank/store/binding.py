"""One bank bound to one stored task: its runs recorded, its input files stored, its resume plan.

`MemoryBank` holds one `TaskBinding` when it was given a store, none otherwise (in memory, as before).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import ImportFormatError, MemoryBankError, RunError, StoreError
from ..events import EventBus, SaveFailed
from ..limits import shorten_name
from ..memory.export import import_memory
from ..memory.store import Memory
from .base import SEQ_NAMES, RunRecord, TaskStore
from .lease import LeaseKeeper
from .persist import HEARTBEAT_SECONDS, Persistence

# A run whose heartbeat is older than this is taken as dead with its process (the writer beats every 5 s)
STALE_SECONDS = 3 * HEARTBEAT_SECONDS
RESUMABLE = "interrupted"


@dataclass(frozen=True)
class ResumeInput:
    """One input of an interrupted run still to ingest: the stored file (or text) and where to start."""

    name: str
    path: Path | None
    text: str | None
    start_chunk: int


@dataclass(frozen=True)
class ResumePlan:
    run_id: str
    question: str
    inputs: tuple[ResumeInput, ...]


def load_task(store: TaskStore, task_id: str, stale_seconds: float | None = None) -> tuple[Memory, dict[str, int]]:
    """A stored task's memory and where each table's rows go on (see `MemoryBank.open`), with the task's write
    lease taken first (`TaskBusy` when another process has it), so that nothing is written between the load and
    this process's first write; the caller binds the task or calls `store.leases.release`. Its runs left
    'running' by a process that died are marked interrupted first. Stored data the export schema refuses is a
    `StoreError` (the task is damaged), never a half-read memory."""
    store.leases.acquire(task_id)
    try:
        store.mark_interrupted(task_id, STALE_SECONDS if stale_seconds is None else stale_seconds)
        stored = store.load(task_id)
        return import_memory(stored.export), stored.seqs
    except ImportFormatError as exc:
        store.leases.release(task_id)
        raise StoreError(f"task {task_id} in the store is damaged: {exc}") from exc
    except BaseException:
        store.leases.release(task_id)
        raise


@contextmanager
def released_on_error(store: TaskStore, task_id: str) -> Iterator[None]:
    """Around making the bank of a task `load_task` leased: a bank that is not made leaves the task free."""
    try:
        yield
    except BaseException:
        store.leases.release(task_id)
        raise


class TaskBinding:
    def __init__(self, store: TaskStore, task_id: str, memory: Memory, events: EventBus,
                 usage: Callable[[], dict[str, Any]], seqs: dict[str, int]) -> None:
        """`seqs` as `load_task` returned them for a reopened task (its lease taken), {} for a new one (its
        lease taken here, and written at once). While bound, a `LeaseKeeper` renews the lease."""
        self.store, self.task_id = store, task_id
        if not seqs:
            store.leases.acquire(task_id)
        try:
            self.persistence = Persistence(store, task_id, memory, events, usage,
                                           {**dict.fromkeys(SEQ_NAMES, 0), **seqs}, loaded=bool(seqs))
        except BaseException:
            store.leases.release(task_id)
            raise
        self.keeper = LeaseKeeper(store.leases, task_id, lambda exc: events.publish(
            SaveFailed(where="task lease", message=f"{exc}. Changes made here are kept in memory, not saved.")))

    def store_files(self, files: Sequence[str | Path],
                    names: Sequence[str | None] = ()) -> list[tuple[Path, str]]:
        """Copy files into the store (content-addressed); returns (stored path, the name it goes by)."""
        out = []
        for i, f in enumerate(files):
            name = shorten_name((names[i] if i < len(names) else None) or Path(f).name)  # as the document's
            _, stored = self.store.put_file(self.task_id, Path(f), name)
            out.append((stored, name))
        return out

    def begin_run(self, question: str, files: list[tuple[Path, str]], text: str | None) -> str:
        inputs = {"files": [{"name": name, "sha256": path.name} for path, name in files], "text": text}
        run_id = self.store.start_run(self.task_id, question, inputs)
        self.persistence.set_run(run_id)
        return run_id

    def end_run(self, run_id: str, status: str, result: dict[str, Any] | None) -> list[RunError]:
        """Flush the memory first, then the run's outcome: a finished run never points at unsaved nodes. When
        the store does not take the memory, the outcome waits for the first flush that succeeds, and the failure
        is returned (for the run's errors) rather than raised: the caller still gets the answer."""
        self.persistence.set_run(None)
        try:
            self.persistence.flush()
        except StoreError as exc:
            self.persistence.after_save(partial(self.store.finish_run, self.task_id, run_id, status, result))
            return [RunError.of("saving the task", exc)]
        self.store.finish_run(self.task_id, run_id, status, result)
        return []

    def record_imported_runs(self, run_log: list[dict[str, Any]]) -> None:
        """An import's questions and answers become the new task's runs (the export keeps them as answer events),
        so the imported session shows its answers like one that ran here."""
        started: float | None = None
        for event in run_log:
            ts = float(event.get("ts") or 0.0)
            started = ts if started is None else started
            if event.get("kind") != "answer":
                continue
            question = str(event.get("question", ""))
            result = {"question": question, "answer": str(event.get("answer", "")),
                      "citations": list(event.get("citations") or []), "termination": "done",
                      "insight_doc": {"task_goal": question}, "imported": True}
            self.store.add_run(self.task_id, question, {"files": [], "imported": True}, status="done",
                               started=started, finished=ts, result=result)
            started = None

    def runs(self) -> list[RunRecord]:
        return self.store.runs(self.task_id)

    def resume_plan(self) -> ResumePlan:
        """What the last interrupted run still has to do; `MemoryBankError` when no run is interrupted."""
        runs = [r for r in self.runs() if r.status == RESUMABLE]
        if not runs:
            raise MemoryBankError("no interrupted run to resume in this task")
        run = runs[-1]
        progress = self.store.progress(self.task_id, run.run_id)
        inputs: list[ResumeInput] = []
        for f in run.inputs.get("files", []):
            done, total = progress.get(f["name"], (0, 0))
            if not total or done < total:
                inputs.append(ResumeInput(f["name"], self.store.file_path(f["sha256"]), None, done))
        text = run.inputs.get("text")
        if text and text.strip():
            done, total = progress.get("pasted text", (0, 0))
            if not total or done < total:
                inputs.append(ResumeInput("pasted text", None, text, done))
        return ResumePlan(run.run_id, run.question, tuple(inputs))

    def resume_run(self, run_id: str) -> None:
        self.store.set_run_status(self.task_id, run_id, "running")
        self.persistence.set_run(run_id)

    def clear(self) -> None:
        self.store.clear_task(self.task_id)
        self.persistence.cleared()

    def close(self, save: bool = True) -> None:
        """See `Persistence.close`; `save=False` stops the writer without a final write (a task being deleted)."""
        if save:
            self.persistence.close()  # a failure keeps the lease: the changes wait here for the store
        else:
            self.persistence.abandon()
        self.keeper.stop()
        self.store.leases.release(self.task_id)
