"""The task store's tables (SQLAlchemy 2 declarative models), one code path for SQLite and PostgreSQL.

Every row belongs to one task (`task_id` leads each primary key). The memory's items are stored one row each, as
the export's JSON record (`data`), so that a change rewrites the items it touched and nothing else; `seq` keeps
the order the memory had them in, so a reopened task exports exactly as before. Embeddings are float32 bytes.
Files are content-addressed: one `files` row per distinct content, `task_files` says which tasks use it.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Executable, Float, Integer, LargeBinary, String, Table, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..limits import LOCAL_USER

ID = String(64)


class Base(DeclarativeBase):
    pass


def table(row: type[Base]) -> Table:
    """A mapped class's table, typed as a `Table` (SQLAlchemy types `__table__` as any selectable)."""
    return Base.metadata.tables[row.__tablename__]


def changed(s: Session, statement: Executable) -> int:
    """How many rows an UPDATE or DELETE changed (an execute's result is a cursor result for these)."""
    return cast(CursorResult[Any], s.execute(statement)).rowcount


class SchemaVersion(Base):
    __tablename__ = "schema_version"
    version: Mapped[int] = mapped_column(Integer, primary_key=True)


class TaskRow(Base):
    __tablename__ = "tasks"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    origin: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    embedding_model: Mapped[str] = mapped_column(Text, default="")
    insight_doc: Mapped[str] = mapped_column(Text, default="{}")
    usage: Mapped[str] = mapped_column(Text, default="{}")
    # the user the task belongs to (schema v3): tasks made before accounts belong to the single-user owner
    owner: Mapped[str] = mapped_column(ID, default=LOCAL_USER, server_default=LOCAL_USER, index=True)


class LeaseRow(Base):
    """Which process may write a task (schema v3): taken when it opens the task, renewed while it has it open,
    dropped when it closes it; one whose `expires` passed (its process died) may be taken over."""

    __tablename__ = "task_leases"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires: Mapped[float] = mapped_column(Float)


class ShareRow(Base):
    """A read-only link to a task its owner made (schema v3); deleting the row revokes it. From `expires` on
    (schema v4, chosen when it is made) it reads like an unknown link."""

    __tablename__ = "task_shares"
    token: Mapped[str] = mapped_column(ID, primary_key=True)
    task_id: Mapped[str] = mapped_column(ID, index=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, server_default="0")


class NodeRow(Base):
    __tablename__ = "nodes"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)
    embedding: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)


class EdgeRow(Base):
    __tablename__ = "edges"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    a: Mapped[str] = mapped_column(ID, primary_key=True)
    b: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)


class EntryRow(Base):
    __tablename__ = "entries"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    entry_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)


class LinkRow(Base):
    """node_to_entries: one row per (node, entry) link, in link order."""

    __tablename__ = "node_entries"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    node_id: Mapped[str] = mapped_column(ID, primary_key=True)
    entry_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)


class ConflictRow(Base):
    __tablename__ = "conflicts"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)


class MergeEventRow(Base):
    __tablename__ = "merge_events"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)


class MergedIntoRow(Base):
    __tablename__ = "merged_into"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    old_id: Mapped[str] = mapped_column(ID, primary_key=True)
    new_id: Mapped[str] = mapped_column(ID)
    seq: Mapped[int] = mapped_column(Integer)


class EventRow(Base):
    """The run log: every typed event of the task, in order."""

    __tablename__ = "events"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class RunRow(Base):
    """One question asked: its inputs, status (running, done, cancelled, failed, interrupted) and result."""

    __tablename__ = "runs"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    run_id: Mapped[str] = mapped_column(ID, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    question: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    started: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    inputs: Mapped[str] = mapped_column(Text, default="{}")  # {"files": [{name, sha256}], "text": ...}
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # RunResult JSON, with usage
    heartbeat: Mapped[float | None] = mapped_column(Float, nullable=True)  # schema v2


class IngestRow(Base):
    """How far a run's input got: chunks stored and linked, so a resumed run skips them (schema v2)."""

    __tablename__ = "ingest_progress"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    run_id: Mapped[str] = mapped_column(ID, primary_key=True)
    source: Mapped[str] = mapped_column(Text, primary_key=True)
    chunks_done: Mapped[int] = mapped_column(Integer, default=0)
    chunks_total: Mapped[int] = mapped_column(Integer, default=0)


class FileRow(Base):
    __tablename__ = "files"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)


class TaskFileRow(Base):
    __tablename__ = "task_files"
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(Text, primary_key=True)


TASK_TABLES = (NodeRow, EdgeRow, EntryRow, LinkRow, ConflictRow, MergeEventRow, MergedIntoRow, EventRow, RunRow,
               IngestRow, TaskFileRow, LeaseRow, ShareRow)
MEMORY_TABLES = (NodeRow, EdgeRow, EntryRow, LinkRow, ConflictRow, MergeEventRow, MergedIntoRow)
