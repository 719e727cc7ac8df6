"""The task store's contract: what a bank and the app need from wherever tasks are kept.

`SqlTaskStore` implements it for SQLite and PostgreSQL. The data crossing it is plain: JSON text of the export's
records (`ChangeSet`), and small typed summaries for lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .lease import TaskLeases
    from .owners import TaskOwners
    from .shares import TaskShares

# the tables whose rows keep the memory's order: `seqs` says where each goes on
SEQ_NAMES = ("nodes", "edges", "entries", "links", "conflicts", "merge_events", "merged_into", "events")


@dataclass
class ChangeSet:
    """What changed in one task's memory since the last write. Rows are (key, JSON text[, extra])."""

    nodes: list[tuple[str, str, bytes | None]] = field(default_factory=list)  # upserts: id, data, embedding
    nodes_deleted: list[str] = field(default_factory=list)
    edges_added: list[tuple[str, str]] = field(default_factory=list)
    edges_deleted: list[tuple[str, str]] = field(default_factory=list)
    entries: list[tuple[str, str]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # node id, entry id
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # upserts
    merge_events: list[tuple[str, str]] = field(default_factory=list)
    merged_into: list[tuple[str, str]] = field(default_factory=list)
    insight_doc: str | None = None
    usage: str | None = None
    embedding_model: str | None = None  # the model the task's vectors now come from, when that changed
    events: list[str] = field(default_factory=list)
    progress: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)  # (run, source) -> done, total
    heartbeat: str | None = None  # the run id whose heartbeat to refresh

    def empty(self) -> bool:
        return not any((self.nodes, self.nodes_deleted, self.edges_added, self.edges_deleted, self.entries,
                        self.links, self.conflicts, self.merge_events, self.merged_into, self.insight_doc,
                        self.usage, self.embedding_model, self.events, self.progress, self.heartbeat))


@dataclass(frozen=True)
class TaskSummary:
    """One line of the Tasks page."""

    id: str
    name: str
    origin: str
    created: float
    updated: float
    nodes: int
    sources: tuple[str, ...]
    last_question: str
    last_status: str


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    question: str
    status: str  # running | done | cancelled | failed | interrupted
    started: float
    finished: float | None
    inputs: dict[str, Any]
    result: dict[str, Any] | None


@dataclass
class StoredTask:
    """A task as loaded: an export document of its memory, its runs, and where each table's order stands."""

    task_id: str
    name: str
    export: dict[str, Any]
    runs: list[RunRecord]
    seqs: dict[str, int]


class TaskStore(Protocol):
    leases: TaskLeases  # who may write which task (one process per task)
    owners: TaskOwners  # whose each task is
    shares: TaskShares  # read-only links to a task

    def create_task(self, name: str, origin: str, embedding_model: str, owner: str | None = None) -> str: ...
    def load(self, task_id: str) -> StoredTask: ...
    def write(self, task_id: str, changes: ChangeSet, seqs: dict[str, int]) -> None: ...
    def clear_task(self, task_id: str) -> None: ...
    def delete_task(self, task_id: str) -> None: ...
    def rename_task(self, task_id: str, name: str) -> None: ...
    def list_tasks(self, ids: list[str] | None = None) -> list[TaskSummary]: ...
    def exists(self, task_id: str) -> bool: ...
    def put_file(self, task_id: str, path: Path, name: str) -> tuple[str, Path]: ...
    def file_path(self, sha256: str) -> Path: ...
    def task_folder(self, task_id: str, create: bool = False) -> Path: ...
    def start_run(self, task_id: str, question: str, inputs: dict[str, Any]) -> str: ...
    def add_run(self, task_id: str, question: str, inputs: dict[str, Any], status: str = "running",
                started: float | None = None, finished: float | None = None,
                result: dict[str, Any] | None = None) -> str: ...
    def finish_run(self, task_id: str, run_id: str, status: str, result: dict[str, Any] | None) -> None: ...
    def runs(self, task_id: str) -> list[RunRecord]: ...
    def mark_interrupted(self, task_id: str, stale_seconds: float) -> list[str]: ...
    def set_run_status(self, task_id: str, run_id: str, status: str) -> None: ...
    def progress(self, task_id: str, run_id: str) -> dict[str, tuple[int, int]]: ...
    def delete_untouched(self, days: float, keep: set[str] | frozenset[str] = frozenset()) -> list[str]: ...
    def close(self) -> None: ...
