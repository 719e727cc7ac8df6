"""One change set written inside the caller's transaction: the rows of the memory items that changed, appended in
the memory's order (`seqs`), the run log held to its bound, and the runs' progress and heartbeat."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from ..errors import TaskNotFound
from .base import ChangeSet
from .schema import (
    ConflictRow,
    EdgeRow,
    EntryRow,
    EventRow,
    IngestRow,
    LinkRow,
    MergedIntoRow,
    MergeEventRow,
    NodeRow,
    RunRow,
    TaskRow,
    changed,
)

# A task's stored run log keeps its last MAX_LOG_EVENTS events (and every answer, from which an export's runs are
# rebuilt): far more than a run writes (a 2,000-node ingestion logs ~6,000), far below what an export may hold, so
# a task asked a thousand questions still loads and exports.
MAX_LOG_EVENTS = 50_000
_ANSWER_EVENT = '{"kind": "answer",%'  # how `json.dumps(AnswerReady.to_dict())` begins


def write_changes(s: Session, task_id: str, changes: ChangeSet, seqs: dict[str, int]) -> None:
    _write_nodes(s, task_id, changes, seqs)
    _append(s, EdgeRow, seqs, "edges", ({"task_id": task_id, "a": a, "b": b} for a, b in changes.edges_added))
    for a, b in changes.edges_deleted:
        s.execute(delete(EdgeRow).where(EdgeRow.task_id == task_id, EdgeRow.a == a, EdgeRow.b == b))
    _append(s, EntryRow, seqs, "entries", ({"task_id": task_id, "entry_id": i, "data": d}
                                           for i, d in changes.entries))
    _append(s, LinkRow, seqs, "links", ({"task_id": task_id, "node_id": n, "entry_id": e}
                                        for n, e in changes.links))
    _upsert_conflicts(s, task_id, changes, seqs)
    _append(s, MergeEventRow, seqs, "merge_events", ({"task_id": task_id, "event_id": i, "data": d}
                                                     for i, d in changes.merge_events))
    _append(s, MergedIntoRow, seqs, "merged_into", ({"task_id": task_id, "old_id": o, "new_id": n}
                                                    for o, n in changes.merged_into))
    _append(s, EventRow, seqs, "events", ({"task_id": task_id, "data": d} for d in changes.events))
    if changes.events and seqs["events"] > MAX_LOG_EVENTS:
        s.execute(delete(EventRow).where(EventRow.task_id == task_id,
                                         EventRow.seq < seqs["events"] - MAX_LOG_EVENTS,
                                         EventRow.data.not_like(_ANSWER_EVENT)))
    _write_runs(s, task_id, changes)
    values: dict[str, Any] = {"updated": time.time()}
    if changes.insight_doc is not None:
        values["insight_doc"] = changes.insight_doc
    if changes.usage is not None:
        values["usage"] = changes.usage
    if changes.embedding_model is not None:
        values["embedding_model"] = changes.embedding_model
    if changed(s, update(TaskRow).where(TaskRow.id == task_id).values(**values)) == 0:
        raise TaskNotFound(f"no task {task_id!r}: it was deleted while it was open")


def _write_nodes(s: Session, task_id: str, changes: ChangeSet, seqs: dict[str, int]) -> None:
    if changes.nodes_deleted:
        s.execute(delete(NodeRow).where(NodeRow.task_id == task_id, NodeRow.id.in_(changes.nodes_deleted)))
    if not changes.nodes:
        return
    ids = [i for i, _, _ in changes.nodes]
    existing = set(s.scalars(select(NodeRow.id).where(NodeRow.task_id == task_id, NodeRow.id.in_(ids))))
    updates = [{"task_id": task_id, "id": i, "data": d, "embedding": e} for i, d, e in changes.nodes
               if i in existing]
    if updates:
        s.execute(update(NodeRow), updates)
    _append(s, NodeRow, seqs, "nodes", ({"task_id": task_id, "id": i, "data": d, "embedding": e}
                                        for i, d, e in changes.nodes if i not in existing))


def _upsert_conflicts(s: Session, task_id: str, changes: ChangeSet, seqs: dict[str, int]) -> None:
    if not changes.conflicts:
        return
    ids = [i for i, _ in changes.conflicts]
    existing = set(s.scalars(select(ConflictRow.id).where(ConflictRow.task_id == task_id,
                                                          ConflictRow.id.in_(ids))))
    updates = [{"task_id": task_id, "id": i, "data": d} for i, d in changes.conflicts if i in existing]
    if updates:
        s.execute(update(ConflictRow), updates)
    _append(s, ConflictRow, seqs, "conflicts", ({"task_id": task_id, "id": i, "data": d}
                                                for i, d in changes.conflicts if i not in existing))


def _append(s: Session, table: Any, seqs: dict[str, int], name: str, rows: Iterable[dict[str, Any]]) -> None:
    batch = []
    for row in rows:
        row["seq"] = seqs[name]
        seqs[name] += 1
        batch.append(row)
    if batch:
        s.execute(insert(table), batch)


def _write_runs(s: Session, task_id: str, changes: ChangeSet) -> None:
    for (run_id, source), (done, total) in changes.progress.items():
        found = changed(s, update(IngestRow).where(IngestRow.task_id == task_id, IngestRow.run_id == run_id,
                                                   IngestRow.source == source)
                        .values(chunks_done=done, chunks_total=total))
        if not found:
            s.add(IngestRow(task_id=task_id, run_id=run_id, source=source, chunks_done=done, chunks_total=total))
    if changes.heartbeat:
        s.execute(update(RunRow).where(RunRow.task_id == task_id, RunRow.run_id == changes.heartbeat)
                  .values(heartbeat=time.time()))
