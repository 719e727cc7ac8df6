"""One versioned JSON document holding the whole memory (DESIGN §7).

`export_memory` writes it; `import_memory` validates it (schema, then cross-references) and rebuilds a
`Memory`, or raises `ImportFormatError` saying what is wrong and where. Secrets never enter it: settings go
through `Settings.public_dict()`. Export -> import -> export gives the same document.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ImportFormatError, MemoryBankError
from ..limits import MAX_IMPORT_BYTES, MAX_KEYWORDS, MAX_SECTION_DEPTH, MAX_SOURCES
from ..settings import Settings
from ..text.furniture import Role
from .bank_files import FileRejected, relative_parts
from .import_rules import (
    MAX_ITEMS,
    Body,
    Count,
    Embedding,
    Id,
    JsonObject,
    Line,
    Metadata,
    Name,
    Page,
    Printed,
    Timestamp,
    Url,
)
from .insight_doc import InsightDoc, TaskStatus, TaskType
from .interaction_tree import Attachment, AttachmentType, InteractionEntry, InteractionTree, MergeEvent
from .query_graph import Node, PendingConflict, Source
from .store import Memory

FORMAT = "agentic-memory-bank"
VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _items(limit: int = MAX_ITEMS) -> Any:
    return Field(default_factory=list, max_length=limit)


class SourceRecord(_Strict):
    name: Name
    page_start: Page | None = None
    page_end: Page | None = None
    url: Url | None = None
    entry_ids: list[Id] = _items()
    # page numbers printed on the first/last page; absent in older exports
    printed_start: Printed | None = None
    printed_end: Printed | None = None
    section: list[Line] = Field(default_factory=list, max_length=MAX_SECTION_DEPTH)  # absent in older exports


class NodeRecord(_Strict):
    id: Id
    summary: Body
    context: Line
    keywords: list[Line] = Field(max_length=MAX_KEYWORDS)
    embedding: Embedding | None
    timestamp: Timestamp
    sources: list[SourceRecord] = _items(MAX_SOURCES)
    merged_from: list[Id] = _items()
    kind: Literal["text", "image", "section"] = "text"
    role: Role = Role.BODY  # added later: an export without it is all body text
    title: Line = ""  # added later: the node's unique short name; older exports have none


class EdgeRecord(_Strict):
    a: Id
    b: Id
    relation: Literal["related"] = "related"


class ConflictRecord(_Strict):
    id: Id
    node_a: Id
    node_b: Id
    description: Body
    created: Timestamp
    status: Literal["pending", "validating", "resolved", "failed", "dismissed"]
    resolved_at: Timestamp | None = None
    resolution: Body = ""
    merged_into: Id | None = None
    rejected_node: Id | None = None


class AttachmentRecord(_Strict):
    id: Name
    type: AttachmentType
    path: Name  # a path inside the bank's storage (`bank_files`); anything else is dropped on import
    description: Body = ""
    mime: Name = ""


class EntryRecord(_Strict):
    entry_id: Id
    text: Body
    timestamp: Timestamp
    metadata: Metadata = Field(default_factory=dict)
    attachments: list[AttachmentRecord] = _items(1_000)


class MergeEventRecord(_Strict):
    event_id: Id
    merged_node_ids: list[Id] = Field(max_length=MAX_ITEMS)
    new_node_id: Id
    timestamp: Timestamp
    description: Body
    kind: Literal["merge", "conflict"] = "merge"


class PendingTaskRecord(_Strict):
    type: TaskType = TaskType.NORMAL
    description: Line = Field(min_length=1)
    conflict_id: Id | None = None
    image_id: Id | None = None


class CompletedTaskRecord(_Strict):
    type: TaskType = TaskType.NORMAL
    description: Line
    status: TaskStatus
    context: Body = ""


class InsightDocRecord(_Strict):
    doc_id: Id = Field(default_factory=lambda: InsightDoc().doc_id)  # an empty (ended) task's doc has none yet
    task_goal: Body = ""
    completed_tasks: list[CompletedTaskRecord] = _items(100_000)
    pending_tasks: list[PendingTaskRecord] = Field(default_factory=list, max_length=1)


class QueryGraphRecord(_Strict):
    nodes: list[NodeRecord] = Field(max_length=MAX_ITEMS)
    edges: list[EdgeRecord] = Field(max_length=10 * MAX_ITEMS)


class InteractionTreeRecord(_Strict):
    entries: list[EntryRecord] = Field(max_length=MAX_ITEMS)
    node_to_entries: dict[Id, list[Id]]
    merge_events: list[MergeEventRecord] = Field(max_length=MAX_ITEMS)
    merged_into: dict[Id, Id] = Field(default_factory=dict)


class ExportDocument(_Strict):
    format: Literal["agentic-memory-bank"]
    version: Literal[1]
    embedding_model: Name
    insight_doc: InsightDocRecord
    query_graph: QueryGraphRecord
    conflicts: list[ConflictRecord] = Field(max_length=MAX_ITEMS)
    interaction_tree: InteractionTreeRecord
    attachments: list[AttachmentRecord] = Field(max_length=MAX_ITEMS)
    run_log: list[JsonObject] = Field(max_length=MAX_ITEMS)
    usage: dict[Name, dict[Name, Count]]
    settings: JsonObject


def sum_usage(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    out = {k: dict(v) for k, v in a.items()}
    for agent, stats in b.items():
        mine = out.setdefault(agent, {})
        for key, value in stats.items():
            mine[key] = round(mine.get(key, 0) + value, 3)
    return out


# One record per memory item: the export is made of them, and the task store keeps one row per record.

def node_record(n: Node, with_embedding: bool = True) -> NodeRecord:
    """Every field of the node, read from the dataclass: a field `NodeRecord` lacks is refused (extra="forbid"),
    never dropped on the way to an export or the store."""
    embedding = None if n.embedding is None or not with_embedding else n.embedding.astype(np.float32).tolist()
    values = {f.name: getattr(n, f.name) for f in fields(Node)}
    return NodeRecord(**{**values, "keywords": list(n.keywords), "embedding": embedding,
                         "merged_from": list(n.merged_from),
                         "sources": [SourceRecord(**{**s.__dict__, "entry_ids": list(s.entry_ids),
                                                     "section": list(s.section)}) for s in n.sources]})


def node_from_record(n: NodeRecord) -> Node:
    """The node a record holds, every field of the record carried over (the inverse of `node_record`)."""
    values = n.model_dump(exclude={"embedding", "sources"})
    return Node(**{**values, "keywords": list(n.keywords), "merged_from": list(n.merged_from),
                   "embedding": None if n.embedding is None else np.asarray(n.embedding, dtype=np.float32),
                   "sources": [Source(**{**s.model_dump(), "entry_ids": tuple(s.entry_ids),
                                         "section": tuple(s.section)}) for s in n.sources]})


def entry_record(e: InteractionEntry) -> EntryRecord:
    return EntryRecord(entry_id=e.entry_id, text=e.text, timestamp=e.timestamp, metadata=dict(e.metadata),
                       attachments=[AttachmentRecord(**a.__dict__) for a in e.attachments])


def conflict_record(c: PendingConflict) -> ConflictRecord:
    return ConflictRecord(**c.__dict__)


def merge_event_record(m: MergeEvent) -> MergeEventRecord:
    return MergeEventRecord(**{**m.__dict__, "merged_node_ids": list(m.merged_node_ids)})


def insight_record(doc: InsightDoc) -> InsightDocRecord:
    return InsightDocRecord.model_validate(doc.model_dump())


def schema_problem(exc: ValidationError) -> str:
    """'sources.0.name: String should have at most 1000 characters (1 problem(s))': where and what, never the
    value (it may be megabytes of document text)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']} ({exc.error_count()} problem(s))"


def export_memory(memory: Memory, settings: Settings, usage_per_agent: dict[str, dict[str, float]],
                  embedding_model: str, run_log: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole memory as one export; a value outside the schema's bounds (which entry points keep out of the
    memory) is a `MemoryBankError` naming the field, never a raw validation error."""
    try:
        entries = [entry_record(e) for e in memory.tree.entries.values()]
        doc = ExportDocument(
            format=FORMAT, version=VERSION, embedding_model=embedding_model,
            insight_doc=insight_record(memory.insight_doc),
            query_graph=QueryGraphRecord(nodes=[node_record(n) for n in memory.graph.nodes()],
                                         edges=[EdgeRecord(a=a, b=b) for a, b in memory.graph.edges()]),
            conflicts=[conflict_record(c) for c in memory.conflicts.values()],
            interaction_tree=InteractionTreeRecord(
                entries=entries, node_to_entries={k: list(v) for k, v in memory.tree.node_to_entries.items()},
                merge_events=[merge_event_record(m) for m in memory.tree.merge_events],
                merged_into=dict(memory.merged_into)),
            attachments=attachments_of(entries), run_log=memory.prior_log + run_log,
            usage=sum_usage(memory.prior_usage, usage_per_agent), settings=settings.public_dict())
    except ValidationError as exc:
        raise MemoryBankError(f"the memory cannot be exported: {schema_problem(exc)}") from exc
    return doc.model_dump(mode="json")


DROPPED_NOTE = "[file not imported: the export named a path outside the bank's storage]"


def attachments_of(entries: list[EntryRecord]) -> list[AttachmentRecord]:
    """Every attachment once (by id), in the order entries name them."""
    return list({a.id: a for e in entries for a in e.attachments}.values())


def _parse(data: dict[str, Any] | str | bytes) -> ExportDocument:
    if isinstance(data, (str, bytes)):
        if len(data) > MAX_IMPORT_BYTES:
            raise ImportFormatError(f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB")
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, and integers of 4,300+ digits
            raise ImportFormatError(f"not a JSON file: {exc}") from exc
        except RecursionError as exc:
            raise ImportFormatError("not a usable JSON file: it is nested too deeply") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportFormatError("not a memory bank export (the 'format' field is missing or different)")
    if data.get("version") != VERSION:
        raise ImportFormatError(f"unsupported export version {str(data.get('version'))[:20]!r}; "
                                f"this app reads {VERSION}")
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        raise ImportFormatError(f"invalid export at {schema_problem(exc)}") from exc
    except RecursionError as exc:
        raise ImportFormatError("invalid export: it is nested too deeply") from exc


def _unique(values: list[str], where: str) -> set[str]:
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise ImportFormatError(f"invalid export at {where.format(i)}: duplicate id {value!r}")
        seen.add(value)
    return seen


def _check_references(doc: ExportDocument) -> None:
    nodes = doc.query_graph.nodes
    node_ids = _unique([n.id for n in nodes], "query_graph.nodes.{}.id")
    entry_ids = _unique([e.entry_id for e in doc.interaction_tree.entries], "interaction_tree.entries.{}.entry_id")
    conflict_ids = _unique([c.id for c in doc.conflicts], "conflicts.{}.id")
    _unique([m.event_id for m in doc.interaction_tree.merge_events], "interaction_tree.merge_events.{}.event_id")
    expected = next((len(n.embedding) for n in nodes if n.embedding is not None), None)
    for i, n in enumerate(nodes):
        if n.embedding is not None and len(n.embedding) != expected:
            raise ImportFormatError(f"invalid export at query_graph.nodes.{i}.embedding: {len(n.embedding)} values, "
                                    f"the export's other vectors have {expected}")
    for i, e in enumerate(doc.query_graph.edges):
        if e.a not in node_ids or e.b not in node_ids or e.a == e.b:
            raise ImportFormatError(f"invalid export at query_graph.edges.{i}: edge {e.a}-{e.b} names a missing "
                                    "node or is a self loop")
    for node_id, ids in doc.interaction_tree.node_to_entries.items():
        missing = [i for i in ids if i not in entry_ids]
        if missing:
            raise ImportFormatError(f"invalid export at interaction_tree.node_to_entries.{node_id}: "
                                    f"links missing entries {missing[:3]}")
    for i, c in enumerate(doc.conflicts):
        if c.status == "pending" and (c.node_a not in node_ids or c.node_b not in node_ids):
            raise ImportFormatError(f"invalid export at conflicts.{i}: pending conflict {c.id} names a missing node")
    for task in doc.insight_doc.pending_tasks:
        if task.type is TaskType.CROSS_VALIDATE and task.conflict_id not in conflict_ids:
            raise ImportFormatError("invalid export at insight_doc.pending_tasks.0.conflict_id: "
                                    "a cross-validation of a conflict that is not in the export")


def _attachment(record: AttachmentRecord) -> Attachment:
    """An imported attachment keeps its path only when it names a file inside the bank's storage; any other path
    (absolute, `..`, a symlink's target) is dropped with a note, so deep retrieval never reads it."""
    if record.path:
        try:
            relative_parts(record.path)
        except FileRejected:
            description = f"{record.description} {DROPPED_NOTE}".strip()
            return Attachment(record.id, record.type, "", description, record.mime)
    return Attachment(record.id, record.type, record.path, record.description, record.mime)


def _tree(doc: ExportDocument) -> InteractionTree:
    tree = InteractionTree()
    for e in doc.interaction_tree.entries:
        tree.add_entry(InteractionEntry(e.entry_id, e.text, e.timestamp, dict(e.metadata),
                                        tuple(_attachment(a) for a in e.attachments)))
    for node_id, ids in doc.interaction_tree.node_to_entries.items():
        for entry_id in ids:
            tree.link(node_id, entry_id)
    tree.merge_events = [MergeEvent(m.event_id, tuple(m.merged_node_ids), m.new_node_id, m.timestamp,
                                    m.description, m.kind) for m in doc.interaction_tree.merge_events]
    return tree


def import_memory(data: dict[str, Any] | str | bytes) -> Memory:
    """Validate an export and rebuild its memory; every problem is an `ImportFormatError` naming the field.
    The vectors come as the export has them, with the name of the model that made them (`embedding_model`):
    the bank embeds its nodes again when its model is another (`GraphOps.reindex_all`)."""
    doc = _parse(data)
    _check_references(doc)
    memory = Memory(insight_doc=InsightDoc.model_validate(doc.insight_doc.model_dump()), tree=_tree(doc),
                    merged_into=dict(doc.interaction_tree.merged_into), prior_log=list(doc.run_log),
                    prior_usage={k: dict(v) for k, v in doc.usage.items()}, embedding_model=doc.embedding_model)
    for n in doc.query_graph.nodes:
        memory.graph.add_node(node_from_record(n))
    for e in doc.query_graph.edges:
        memory.graph.add_edge(e.a, e.b)
    memory.conflicts = {c.id: PendingConflict(**c.model_dump()) for c in doc.conflicts}
    return memory
