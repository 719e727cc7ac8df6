"""`SqlTaskStore`: the task store on SQLAlchemy, SQLite by default (one file in the data folder) or PostgreSQL.

Each `write` is one transaction holding every change since the last one, so a crash leaves the task as it was
at some flush, never half of one. SQLite runs in WAL mode with a busy timeout, so two banks writing from two
threads (or a reader on the Tasks page) wait for each other instead of failing.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, delete, event, func, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from ..errors import InputError, StoreError
from ..limits import LOCAL_USER, MAX_TASK_NAME, TASK_ID_PATTERN, fits, shorten, shorten_name
from .base import SEQ_NAMES, ChangeSet, RunRecord, StoredTask, TaskSummary
from .files import FileStore, sha256_of
from .guard import guard
from .lease import TaskLeases
from .migrations import ensure_schema
from .owners import TaskOwners, not_found
from .schema import (
    MEMORY_TABLES,
    TASK_TABLES,
    ConflictRow,
    EdgeRow,
    EntryRow,
    EventRow,
    FileRow,
    IngestRow,
    LinkRow,
    MergedIntoRow,
    MergeEventRow,
    NodeRow,
    RunRow,
    TaskFileRow,
    TaskRow,
)
from .shares import TaskShares
from .writes import write_changes

SEQ_TABLES = dict(zip(SEQ_NAMES, (NodeRow, EdgeRow, EntryRow, LinkRow, ConflictRow, MergeEventRow, MergedIntoRow,
                                  EventRow), strict=True))


def new_task_id() -> str:
    """128 random bits, URL-safe: a task's id is its link, so it must not be guessable."""
    return secrets.token_urlsafe(16)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _next_seq(s: Session, table: Any, task_id: str) -> int:
    """The position the task's next row of `table` takes (0 for its first)."""
    last = s.scalar(select(func.max(table.seq)).where(table.task_id == task_id))
    return 0 if last is None else last + 1


class SqlTaskStore:
    def __init__(self, data_dir: Path, url: str | None = None) -> None:
        """Files always live under `data_dir/files`; the rows in `url`, or in `data_dir/tasks.sqlite3`. A data
        folder that cannot be made or written is a `StoreError` saying which, like a database that cannot."""
        root = Path(data_dir)
        _writable(root)
        url = url or f"sqlite:///{root / 'tasks.sqlite3'}"
        parsed = make_url(url)
        self.where = parsed.render_as_string(hide_password=True)
        self.files = FileStore(root / "files")
        self.task_files = root / "task-files"
        self.engine = self._engine(url, parsed.get_backend_name())
        ensure_schema(self.engine, self.where)
        self.owners, self.leases = TaskOwners(self.engine, self.where), TaskLeases(self.engine, self.where)
        self.shares = TaskShares(self.engine, self.where)

    @classmethod
    def from_settings(cls, settings: Any) -> SqlTaskStore:
        """SQLite under `data_dir`, or the `database_url` (files always go under `data_dir`)."""
        return cls(settings.data_dir, settings.secret("database_url"))

    @staticmethod
    def _engine(url: str, backend: str) -> Engine:
        try:
            if backend == "sqlite":
                engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
                event.listen(engine, "connect", _sqlite_pragmas)
                return engine
            return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"cannot use the database {make_url(url).render_as_string(hide_password=True)}: "
                             f"{exc}") from exc

    def _session(self) -> Session:
        return Session(self.engine)

    def _guard(self, what: str) -> AbstractContextManager[None]:
        return guard(self.where, what)

    # -- tasks ----------------------------------------------------------------------------------------------

    def create_task(self, name: str, origin: str, embedding_model: str, owner: str | None = None) -> str:
        """A new, empty task of `owner` (the single user by default); its name is held to the bound a rename has
        (an import names it after a file)."""
        task_id, now = new_task_id(), time.time()
        with self._guard("creating a task"), self._session() as s, s.begin():
            s.add(TaskRow(id=task_id, name=shorten(name, MAX_TASK_NAME), origin=origin, created=now, updated=now,
                          embedding_model=embedding_model, insight_doc="{}", usage="{}", owner=owner or LOCAL_USER))
        return task_id

    def exists(self, task_id: str) -> bool:
        with self._guard("reading a task"), self._session() as s:
            return s.get(TaskRow, task_id) is not None

    def _task(self, s: Session, task_id: str) -> TaskRow:
        row = s.get(TaskRow, task_id)
        if row is None:
            raise not_found(task_id)
        return row

    def rename_task(self, task_id: str, name: str) -> None:
        with self._guard("renaming a task"), self._session() as s, s.begin():
            self._task(s, task_id).name = shorten(name, MAX_TASK_NAME)

    def clear_task(self, task_id: str) -> None:
        """End the task: its memory, runs and log go; the task (name, files) stays, empty."""
        with self._guard("clearing a task"), self._session() as s, s.begin():
            row = self._task(s, task_id)
            for table in (*MEMORY_TABLES, EventRow, RunRow, IngestRow):
                s.execute(delete(table).where(table.task_id == task_id))
            row.insight_doc, row.usage, row.updated = "{}", "{}", time.time()

    def delete_task(self, task_id: str) -> None:
        """Every row of the task, then the files no other task uses (rows first: a crash in between leaves
        files the next delete or `sweep_files` removes, never a row naming a missing file)."""
        with self._guard("deleting a task"), self._session() as s, s.begin():
            shas = set(s.scalars(select(TaskFileRow.sha256).where(TaskFileRow.task_id == task_id)))
            for table in TASK_TABLES:
                s.execute(delete(table).where(table.task_id == task_id))
            s.execute(delete(TaskRow).where(TaskRow.id == task_id))
            used = set(s.scalars(select(TaskFileRow.sha256).where(TaskFileRow.sha256.in_(shas)))) if shas else set()
            orphans = shas - used
            if orphans:
                s.execute(delete(FileRow).where(FileRow.sha256.in_(orphans)))
        for sha in orphans:
            self.files.delete(sha)
        shutil.rmtree(self.task_folder(task_id), ignore_errors=True)

    def task_folder(self, task_id: str, create: bool = False) -> Path:
        """The folder a stored task's bank keeps its files in (`storage/`, where attachments point, and images
        waiting for recognition): inside the data directory, so a reopened task finds them again."""
        if not fits(TASK_ID_PATTERN, task_id):
            raise ValueError("not a task id")
        folder = self.task_files / task_id
        if create:
            with self._guard("making the task's folder"):
                folder.mkdir(parents=True, exist_ok=True)
        return folder

    def sweep_files(self) -> int:
        """Remove files on disk that no row names (left by a crash mid-delete); returns how many."""
        with self._guard("sweeping files"), self._session() as s:
            known = set(s.scalars(select(FileRow.sha256)))
        orphans = self.files.stored() - known
        for sha in orphans:
            self.files.delete(sha)
        return len(orphans)

    def delete_untouched(self, days: float, keep: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Retention: delete the tasks not changed for `days` (except `keep`, open somewhere); returns their ids."""
        cutoff = time.time() - days * 86400
        with self._guard("listing old tasks"), self._session() as s:
            old = [t for t in s.scalars(select(TaskRow.id).where(TaskRow.updated < cutoff)) if t not in keep]
        for task_id in old:
            self.delete_task(task_id)
        return old

    def list_tasks(self, ids: list[str] | None = None) -> list[TaskSummary]:
        """Every task (or those of `ids`), most recently changed first."""
        with self._guard("listing tasks"), self._session() as s:
            query = select(TaskRow).order_by(TaskRow.updated.desc())
            if ids is not None:
                query = query.where(TaskRow.id.in_(ids))
            tasks = list(s.scalars(query))
            wanted = [t.id for t in tasks]
            counts = dict(s.execute(select(NodeRow.task_id, func.count()).where(NodeRow.task_id.in_(wanted))
                                    .group_by(NodeRow.task_id)).all())
            names: dict[str, list[str]] = {}
            for task_id, name in s.execute(select(TaskFileRow.task_id, TaskFileRow.name)
                                           .where(TaskFileRow.task_id.in_(wanted))):
                names.setdefault(task_id, []).append(name)
            last: dict[str, tuple[str, str]] = {}
            for task_id, question, status in s.execute(
                    select(RunRow.task_id, RunRow.question, RunRow.status).where(RunRow.task_id.in_(wanted))
                    .order_by(RunRow.seq)):
                last[task_id] = (question, status)
        return [TaskSummary(id=t.id, name=t.name, origin=t.origin, created=t.created, updated=t.updated,
                            nodes=counts.get(t.id, 0), sources=tuple(sorted(names.get(t.id, []))),
                            last_question=last.get(t.id, ("", ""))[0], last_status=last.get(t.id, ("", ""))[1])
                for t in tasks]

    # -- memory ---------------------------------------------------------------------------------------------

    def load(self, task_id: str) -> StoredTask:
        """The task's memory as an export document (validated by the caller's import), its runs, and seqs."""
        with self._guard("loading a task"), self._session() as s:
            task = self._task(s, task_id)
            nodes = []
            for data, blob in s.execute(select(NodeRow.data, NodeRow.embedding).where(NodeRow.task_id == task_id)
                                        .order_by(NodeRow.seq)):
                record = json.loads(data)
                record["embedding"] = None if blob is None else _floats(blob)
                nodes.append(record)
            edges = [{"a": a, "b": b, "relation": "related"} for a, b in
                     s.execute(select(EdgeRow.a, EdgeRow.b).where(EdgeRow.task_id == task_id).order_by(EdgeRow.seq))]
            entries = self._json(s, EntryRow, task_id)
            links: dict[str, list[str]] = {}
            for node_id, entry_id in s.execute(select(LinkRow.node_id, LinkRow.entry_id)
                                               .where(LinkRow.task_id == task_id).order_by(LinkRow.seq)):
                links.setdefault(node_id, []).append(entry_id)
            merged = dict(s.execute(select(MergedIntoRow.old_id, MergedIntoRow.new_id)
                                    .where(MergedIntoRow.task_id == task_id).order_by(MergedIntoRow.seq)).all())
            attachments = list({a["id"]: a for e in entries for a in e.get("attachments", [])}.values())
            insight = json.loads(task.insight_doc)
            export = {"format": "agentic-memory-bank", "version": 1, "embedding_model": task.embedding_model,
                      "insight_doc": insight or {"task_goal": ""},
                      "query_graph": {"nodes": nodes, "edges": edges},
                      "conflicts": self._json(s, ConflictRow, task_id),
                      "interaction_tree": {"entries": entries, "node_to_entries": links,
                                           "merge_events": self._json(s, MergeEventRow, task_id),
                                           "merged_into": merged},
                      "attachments": attachments, "run_log": self._json(s, EventRow, task_id),
                      "usage": json.loads(task.usage), "settings": {}}
            seqs = {name: _next_seq(s, table, task_id) for name, table in SEQ_TABLES.items()}
            return StoredTask(task_id=task_id, name=task.name, export=export, runs=self._runs(s, task_id),
                              seqs=seqs)

    @staticmethod
    def _json(s: Session, table: Any, task_id: str) -> list[dict[str, Any]]:
        return [json.loads(d) for d in s.scalars(select(table.data).where(table.task_id == task_id)
                                                 .order_by(table.seq))]

    def write(self, task_id: str, changes: ChangeSet, seqs: dict[str, int]) -> None:
        """Apply one change set in one transaction, and only while this store holds the task's lease (renewed by
        the same transaction): when another process has taken the task, `TaskBusy` and nothing is written.
        `seqs` (the next position per table) advances as rows are appended, so order survives."""
        with self._guard("saving a task"), self._session() as s, s.begin():
            self.leases.fence(s, task_id)
            write_changes(s, task_id, changes, seqs)

    # -- files ----------------------------------------------------------------------------------------------

    def put_file(self, task_id: str, path: Path, name: str) -> tuple[str, Path]:
        """Store a file's content once and record that the task uses it under `name` (shortened like every
        source name, so the run's inputs and the document's name agree). A file that cannot be read is an
        `InputError` naming it; a store that cannot take it, a `StoreError`."""
        name = shorten_name(name)
        try:
            sha = sha256_of(Path(path))
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror or exc})", source=name) from exc
        with self._guard("storing a file"):
            size = self.files.put(Path(path), sha)
        with self._guard("storing a file"):
            for attempt in range(2):
                try:
                    with self._session() as s, s.begin():
                        self._task(s, task_id)
                        if s.get(FileRow, sha) is None:
                            s.add(FileRow(sha256=sha, size=size))
                        if s.get(TaskFileRow, (task_id, sha, name)) is None:
                            s.add(TaskFileRow(task_id=task_id, sha256=sha, name=name))
                    break
                except IntegrityError:
                    # another writer stored the same content (or name) between our read and our insert: the
                    # rows are there now, and the second pass finds them; a second clash is a real error
                    if attempt:
                        raise
        return sha, self.files.path(sha)

    def file_path(self, sha256: str) -> Path:
        return self.files.path(sha256)

    # -- runs -----------------------------------------------------------------------------------------------

    def start_run(self, task_id: str, question: str, inputs: dict[str, Any]) -> str:
        return self.add_run(task_id, question, inputs)

    def add_run(self, task_id: str, question: str, inputs: dict[str, Any], status: str = "running",
                started: float | None = None, finished: float | None = None,
                result: dict[str, Any] | None = None) -> str:
        """A new run: one starting now, or (with `result`) one that already happened, as an import brings."""
        run_id, now = new_task_id()[:12], time.time()
        with self._guard("recording a run"), self._session() as s, s.begin():
            self._task(s, task_id)
            seq = _next_seq(s, RunRow, task_id)
            s.add(RunRow(task_id=task_id, run_id=run_id, seq=seq, question=question, status=status,
                         started=started or now, finished=finished, heartbeat=now, inputs=json.dumps(inputs),
                         result=None if result is None else json.dumps(result)))
        return run_id

    def finish_run(self, task_id: str, run_id: str, status: str, result: dict[str, Any] | None) -> None:
        with self._guard("recording a run"), self._session() as s, s.begin():
            s.execute(update(RunRow).where(RunRow.task_id == task_id, RunRow.run_id == run_id)
                      .values(status=status, finished=time.time(),
                              result=None if result is None else json.dumps(result)))
            s.execute(update(TaskRow).where(TaskRow.id == task_id).values(updated=time.time()))

    def runs(self, task_id: str) -> list[RunRecord]:
        with self._guard("reading runs"), self._session() as s:
            return self._runs(s, task_id)

    @staticmethod
    def _runs(s: Session, task_id: str) -> list[RunRecord]:
        return [RunRecord(run_id=r.run_id, question=r.question, status=r.status, started=r.started,
                          finished=r.finished, inputs=json.loads(r.inputs or "{}"),
                          result=None if r.result is None else json.loads(r.result))
                for r in s.scalars(select(RunRow).where(RunRow.task_id == task_id).order_by(RunRow.seq))]

    def mark_interrupted(self, task_id: str, stale_seconds: float) -> list[str]:
        """Runs still 'running' whose heartbeat stopped (the process died) become 'interrupted'."""
        cutoff = time.time() - stale_seconds
        with self._guard("checking runs"), self._session() as s, s.begin():
            ids = list(s.scalars(select(RunRow.run_id).where(RunRow.task_id == task_id, RunRow.status == "running",
                                                             func.coalesce(RunRow.heartbeat, 0) < cutoff)))
            if ids:
                s.execute(update(RunRow).where(RunRow.task_id == task_id, RunRow.run_id.in_(ids))
                          .values(status="interrupted"))
        return ids

    def set_run_status(self, task_id: str, run_id: str, status: str) -> None:
        with self._guard("recording a run"), self._session() as s, s.begin():
            s.execute(update(RunRow).where(RunRow.task_id == task_id, RunRow.run_id == run_id)
                      .values(status=status, heartbeat=time.time()))

    def progress(self, task_id: str, run_id: str) -> dict[str, tuple[int, int]]:
        with self._guard("reading progress"), self._session() as s:
            return {r.source: (r.chunks_done, r.chunks_total) for r in s.scalars(
                select(IngestRow).where(IngestRow.task_id == task_id, IngestRow.run_id == run_id))}

    def close(self) -> None:
        self.leases.close()
        self.engine.dispose()


def _writable(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"the data folder {root} cannot be made ({exc.strerror or exc}): point "
                         "MEMORY_BANK_DATA_DIR at a folder this user can write") from exc
    if not os.access(root, os.W_OK | os.X_OK):
        raise StoreError(f"the data folder {root} is read-only for this user: point MEMORY_BANK_DATA_DIR at a "
                         "folder this user can write")


def _floats(blob: bytes) -> list[float]:
    import numpy as np

    return np.frombuffer(blob, dtype=np.float32).tolist()
