"""Tasks that outlive a browser tab: the store, and the process-wide registry of open tasks and their runs.

A run belongs to its task, not to the page that started it: the registry (one per server process, through
`st.cache_resource`, never module state) keeps each open task's bank and run handles, so a run goes on while no
page watches it and any page that opens the task (a reload, a second tab, the link) re-attaches to it. A task not
open in this process is opened from the store; its past runs are rebuilt from the stored runs and run log, and a
run that was going when the previous process died shows as 'interrupted', with Resume.
"""

from __future__ import annotations

import shutil
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from memory_bank import (
    MemoryBank,
    RunRecord,
    RunSlots,
    Settings,
    SqlTaskStore,
    StoreError,
    TaskNotFound,
    event_from_dict,
)

from . import tempdirs
from .local_model import with_endpoint
from .long_term_views import long_term_for
from .worker import RunHandle, restore_run, start_resume

ELSEWHERE, IN_SESSION = "running on another server", "running in its owner's session"  # a copy's live run
KEEP_OPEN = 16  # open tasks without a live run beyond this are closed (flushed) oldest first


@dataclass
class LiveTask:
    """One open task: its bank and its runs (the list pages read; a new run is appended to it)."""

    bank: MemoryBank
    workdir: Path
    runs: list[RunHandle] = field(default_factory=list)
    origin: str = ""
    copy_of: str = ""  # a read-only copy (`snapshot`): the stored task it was loaded from, and when it had changed
    copied_at: float = 0.0

    def __post_init__(self) -> None:
        # closing the task removes its folder; a task still open when the process exits goes then
        weakref.finalize(self, shutil.rmtree, self.workdir, True)

    @property
    def task_id(self) -> str:
        return self.bank.task_id or ""

    @property
    def running(self) -> bool:
        return any(r.alive for r in self.runs)


class TaskRegistry:
    """Open tasks by id, for the whole server process; every method is safe from any session's thread."""

    def __init__(self, store: SqlTaskStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._open: OrderedDict[str, LiveTask] = OrderedDict()

    def get(self, task_id: str) -> LiveTask | None:
        with self._lock:
            return self._open.get(task_id)

    def open(self, task_id: str, settings: Settings, embedder: Any, user: str) -> LiveTask:
        """`user`'s task, open here or opened from the store: `TaskNotFound` for an unknown id and for another
        user's task alike, `TaskBusy` when another app process has it open for writing. Holding the task's lease,
        this process knows that a run the store still calls 'running' is dead: it is marked interrupted."""
        self.store.owners.check(task_id, user)
        with self._lock:
            live = self._open.get(task_id)
            if live is not None:
                self._open.move_to_end(task_id)
                return live
            workdir = _workdir(settings)
            try:
                bank = MemoryBank.open(task_id, self.store, _for(settings, workdir), embedder=embedder,
                                       stale_seconds=0.0, long_term=long_term_for(settings, user, embedder))
            except BaseException:
                shutil.rmtree(workdir, ignore_errors=True)
                raise
            live = LiveTask(bank, workdir, past_runs(bank, bank.stored_runs()))
            return self._add(live)

    def create(self, settings: Settings, embedder: Any, name: str, user: str, export: Any = None) -> LiveTask:
        """A new stored task of `user`, empty or from an export (`ImportFormatError` leaves nothing behind)."""
        workdir = _workdir(settings)
        try:
            kwargs = {"embedder": embedder, "store": self.store, "task_name": name, "owner": user,
                      "long_term": long_term_for(settings, user, embedder)}
            if export is not None:
                bank = MemoryBank.from_export(export, _for(settings, workdir), **kwargs)
            else:
                bank = MemoryBank(_for(settings, workdir), **kwargs)
        except BaseException:
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        runs = past_runs(bank, bank.stored_runs()) if export is not None else []
        with self._lock:
            return self._add(LiveTask(bank, workdir, runs, origin=name))

    def snapshot(self, task_id: str, settings: Settings, embedder: Any) -> LiveTask:
        """A read-only copy of a stored task, loaded without its lease and kept by the caller alone (a shared
        link, a task another process is writing); `TaskNotFound` when there is no such task."""
        updated = self.changed_at(task_id)
        holder = self.store.leases.holder_of(task_id)  # before the load: a run it calls 'running' goes on there
        stored = self.store.load(task_id)
        workdir = _workdir(settings)
        try:
            bank = MemoryBank.from_export(stored.export, _for(settings, workdir), embedder=embedder,
                                          files_from=self.store.task_folder(task_id))
        except BaseException:
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        where = None if holder is None else ELSEWHERE if holder != self.store.leases.holder else IN_SESSION
        return LiveTask(bank, workdir, past_runs(bank, stored.runs, where), origin=f"read-only copy of {stored.name}",
                        copy_of=task_id, copied_at=updated)

    def changed_at(self, task_id: str) -> float:
        """When the stored task last changed (`TaskNotFound` when it is gone)."""
        found = self.store.list_tasks(ids=[task_id])
        if not found:
            raise TaskNotFound(f"no task {task_id!r} (it was deleted, or the link is wrong)")
        return found[0].updated

    def reopen(self, task_id: str, settings: Settings, embedder: Any, user: str) -> LiveTask:
        """The same task on other settings (the Settings page): closed, then opened with them."""
        self.store.owners.check(task_id, user)
        self.close(task_id)
        return self.open(task_id, settings, embedder, user)

    def resume(self, live: LiveTask, slots: RunSlots | None = None) -> RunHandle:
        """Continue the task's interrupted run (in line for one of `slots`, the server's)."""
        with self._lock:
            if live.running:
                raise RuntimeError("a run is already going in this task")
            question = next((r.monitor.question for r in reversed(live.runs) if r.monitor.view().status ==
                             "interrupted"), "")
            handle = start_resume(live.bank, question, slots)
            live.runs.append(handle)
            return handle

    def close(self, task_id: str, save: bool = True) -> None:
        """Stop the task's run (it stays resumable), flush it and forget it here; the store keeps it. When the
        final flush fails (`StoreError`) the task stays open here, its unsaved memory with it, and keeps trying."""
        with self._lock:
            live = self._open.pop(task_id, None)
        if live is None:
            return
        for run in live.runs:
            run.cancel()
        for run in live.runs:
            run.join(timeout=10)
        try:
            live.bank.close(save)
        except StoreError:
            with self._lock:
                self._open[task_id] = live
            raise
        shutil.rmtree(live.workdir, ignore_errors=True)

    def delete(self, task_id: str, user: str) -> None:
        """Delete `user`'s task; `TaskBusy` when another app process has it open (its lease is taken first)."""
        self.store.owners.check(task_id, user)
        self.close(task_id, save=False)  # its rows go next: nothing to save
        self.store.leases.acquire(task_id)
        try:
            self.store.delete_task(task_id)  # the lease row goes with the task's rows
        finally:
            self.store.leases.release(task_id)

    def _add(self, live: LiveTask) -> LiveTask:
        self._open[live.task_id] = live
        idle = [i for i, t in self._open.items() if not t.running and i != live.task_id]
        for task_id in idle[: max(0, len(self._open) - KEEP_OPEN)]:
            try:
                self.close(task_id)
            except StoreError:
                continue  # kept open with its unsaved memory; its writer goes on retrying and reports
        return live


def _workdir(settings: Settings) -> Path:
    return tempdirs.make("task", settings.temp_dir)


def _for(settings: Settings, workdir: Path) -> Settings:
    """A bank's settings: its temp files in `workdir`, and pointed at the shared local model when chosen."""
    return with_endpoint(settings).model_copy(update={"temp_dir": str(workdir)})


def past_runs(bank: MemoryBank, records: list[RunRecord], running: str | None = None) -> list[RunHandle]:
    """Stored runs as handles the Run page draws, each with the events logged while it ran. `running`: where a
    run the store calls 'running' goes on (the task's lease is held there), for a read-only copy; None, it died
    with its process and is 'interrupted'."""
    events = [e for e in (event_from_dict(d) for d in bank.event_log()) if e is not None]
    handles = []
    for i, record in enumerate(records):
        end = records[i + 1].started if i + 1 < len(records) else float("inf")
        mine = [e for e in events if record.started <= e.ts < end]
        handles.append(restore_run(record, mine, follow_up=i > 0, running=running))
    return handles


@st.cache_resource(show_spinner=False)
def task_registry(data_dir: str, url_key: str) -> TaskRegistry:
    """One store and one registry per server process (per data folder and database)."""
    settings = Settings(data_dir=Path(data_dir), database_url=url_key or None)
    return TaskRegistry(SqlTaskStore.from_settings(settings))


def registry_for(settings: Settings) -> TaskRegistry:
    registry = task_registry(str(settings.data_dir), settings.secret("database_url") or "")
    _apply_retention(registry, settings.retention_days)
    return registry


def run_slots(settings: Settings) -> RunSlots:
    return _run_slots(settings.max_concurrent_runs)


@st.cache_resource(show_spinner=False)
def _run_slots(limit: int) -> RunSlots:
    """One line of runs for the whole server process: every session's runs and resumes wait in it (its size is
    the environment's `MEMORY_BANK_MAX_CONCURRENT_RUNS`, the same for every session)."""
    return RunSlots(limit)


@st.cache_resource(show_spinner=False, ttl=3600)
def _retention_sweep(_registry: TaskRegistry, days: int) -> list[str]:
    """At most once an hour: delete the tasks untouched for `days` (none that is open here or on another
    server)."""
    with _registry._lock:
        keep = set(_registry._open) | _registry.store.leases.live()
    return _registry.store.delete_untouched(days, keep=keep)


def _apply_retention(registry: TaskRegistry, days: int | None) -> None:
    if days:
        _retention_sweep(registry, days)
