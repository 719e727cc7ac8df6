"""One versioned JSON document holding the whole memory (DESIGN §7).

`export_memory` writes it; `import_memory` validates it (schema, then cross-references) and rebuilds a
`Memory`, or raises `ImportFormatError` saying what is wrong and where. Secrets never enter it: settings go
through `Settings.public_dict()`. Export -> import -> export gives the same document.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ImportFormatError
from ..settings import Settings
from ..text.furniture import Role
from ..text.pages import MAX_PRINTED_CHARS
from .insight_doc import InsightDoc
from .interaction_tree import Attachment, AttachmentType, InteractionEntry, InteractionTree, MergeEvent
from .query_graph import Node, PendingConflict, Source
from .store import Memory

FORMAT = "agentic-memory-bank"
VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SourceRecord(_Strict):
    name: str
    page_start: int | None = None
    page_end: int | None = None
    url: str | None = None
    entry_ids: list[str] = Field(default_factory=list)
    # page numbers printed on the first/last page; absent in older exports
    printed_start: str | None = Field(default=None, max_length=MAX_PRINTED_CHARS)
    printed_end: str | None = Field(default=None, max_length=MAX_PRINTED_CHARS)


class NodeRecord(_Strict):
    id: str = Field(min_length=1)
    summary: str
    context: str
    keywords: list[str]
    embedding: list[float] | None
    timestamp: float
    sources: list[SourceRecord] = Field(default_factory=list)
    merged_from: list[str] = Field(default_factory=list)
    kind: str = "text"
    role: Role = Role.BODY  # added later: an export without it is all body text


class EdgeRecord(_Strict):
    a: str
    b: str
    relation: Literal["related"] = "related"


class ConflictRecord(_Strict):
    id: str
    node_a: str
    node_b: str
    description: str
    created: float
    status: Literal["pending", "validating", "resolved", "failed", "dismissed"]
    resolved_at: float | None = None
    resolution: str = ""
    merged_into: str | None = None
    rejected_node: str | None = None


class AttachmentRecord(_Strict):
    id: str
    type: AttachmentType
    path: str
    description: str = ""
    mime: str = ""


class EntryRecord(_Strict):
    entry_id: str
    text: str
    timestamp: float
    metadata: dict[str, Any] = Field(default_factory=dict)
    attachments: list[AttachmentRecord] = Field(default_factory=list)


class MergeEventRecord(_Strict):
    event_id: str
    merged_node_ids: list[str]
    new_node_id: str
    timestamp: float
    description: str
    kind: str = "merge"


class QueryGraphRecord(_Strict):
    nodes: list[NodeRecord]
    edges: list[EdgeRecord]


class InteractionTreeRecord(_Strict):
    entries: list[EntryRecord]
    node_to_entries: dict[str, list[str]]
    merge_events: list[MergeEventRecord]
    merged_into: dict[str, str] = Field(default_factory=dict)


class ExportDocument(_Strict):
    format: Literal["agentic-memory-bank"]
    version: Literal[1]
    embedding_model: str
    insight_doc: InsightDoc
    query_graph: QueryGraphRecord
    conflicts: list[ConflictRecord]
    interaction_tree: InteractionTreeRecord
    attachments: list[AttachmentRecord]
    run_log: list[dict[str, Any]]
    usage: dict[str, dict[str, float]]
    settings: dict[str, Any]


def sum_usage(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    out = {k: dict(v) for k, v in a.items()}
    for agent, stats in b.items():
        mine = out.setdefault(agent, {})
        for key, value in stats.items():
            mine[key] = round(mine.get(key, 0) + value, 3)
    return out


# One record per memory item: the export is made of them, and the task store keeps one row per record.

def node_record(n: Node, with_embedding: bool = True) -> NodeRecord:
    embedding = None if n.embedding is None or not with_embedding else n.embedding.astype(np.float32).tolist()
    return NodeRecord(id=n.id, summary=n.summary, context=n.context, keywords=list(n.keywords), embedding=embedding,
                      timestamp=n.timestamp, sources=[SourceRecord(**{**s.__dict__, "entry_ids": list(s.entry_ids)})
                                                      for s in n.sources],
                      merged_from=list(n.merged_from), kind=n.kind, role=n.role)


def entry_record(e: InteractionEntry) -> EntryRecord:
    return EntryRecord(entry_id=e.entry_id, text=e.text, timestamp=e.timestamp, metadata=dict(e.metadata),
                       attachments=[AttachmentRecord(**a.__dict__) for a in e.attachments])


def conflict_record(c: PendingConflict) -> ConflictRecord:
    return ConflictRecord(**c.__dict__)


def merge_event_record(m: MergeEvent) -> MergeEventRecord:
    return MergeEventRecord(**{**m.__dict__, "merged_node_ids": list(m.merged_node_ids)})


def export_memory(memory: Memory, settings: Settings, usage_per_agent: dict[str, dict[str, float]],
                  embedding_model: str, run_log: list[dict[str, Any]]) -> dict[str, Any]:
    entries = [entry_record(e) for e in memory.tree.entries.values()]
    doc = ExportDocument(
        format=FORMAT, version=VERSION, embedding_model=embedding_model, insight_doc=memory.insight_doc,
        query_graph=QueryGraphRecord(nodes=[node_record(n) for n in memory.graph.nodes()],
                                     edges=[EdgeRecord(a=a, b=b) for a, b in memory.graph.edges()]),
        conflicts=[conflict_record(c) for c in memory.conflicts.values()],
        interaction_tree=InteractionTreeRecord(
            entries=entries, node_to_entries={k: list(v) for k, v in memory.tree.node_to_entries.items()},
            merge_events=[merge_event_record(m) for m in memory.tree.merge_events],
            merged_into=dict(memory.merged_into)),
        attachments=attachments_of(entries), run_log=memory.prior_log + run_log,
        usage=sum_usage(memory.prior_usage, usage_per_agent), settings=settings.public_dict())
    return doc.model_dump(mode="json")


def attachments_of(entries: list[EntryRecord]) -> list[AttachmentRecord]:
    """Every attachment once (by id), in the order entries name them."""
    return list({a.id: a for e in entries for a in e.attachments}.values())


def _parse(data: dict[str, Any] | str | bytes) -> ExportDocument:
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ImportFormatError(f"not a JSON file: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportFormatError("not a memory bank export (the 'format' field is missing or different)")
    if data.get("version") != VERSION:
        raise ImportFormatError(f"unsupported export version {data.get('version')!r}; this app reads {VERSION}")
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ImportFormatError(f"invalid export at {where}: {first['msg']} ({exc.error_count()} problem(s))") from exc


def _check_references(doc: ExportDocument) -> None:
    node_ids = {n.id for n in doc.query_graph.nodes}
    if len(node_ids) != len(doc.query_graph.nodes):
        raise ImportFormatError("invalid export: duplicate node ids")
    dims = {len(n.embedding) for n in doc.query_graph.nodes if n.embedding is not None}
    if len(dims) > 1:
        raise ImportFormatError(f"invalid export: embeddings of different sizes {sorted(dims)}")
    for e in doc.query_graph.edges:
        if e.a not in node_ids or e.b not in node_ids or e.a == e.b:
            raise ImportFormatError(f"invalid export: edge {e.a}-{e.b} names a missing node or is a self loop")
    entry_ids = {e.entry_id for e in doc.interaction_tree.entries}
    for node_id, ids in doc.interaction_tree.node_to_entries.items():
        missing = [i for i in ids if i not in entry_ids]
        if missing:
            raise ImportFormatError(f"invalid export: node {node_id} links missing entries {missing[:3]}")
    for c in doc.conflicts:
        if c.status == "pending" and (c.node_a not in node_ids or c.node_b not in node_ids):
            raise ImportFormatError(f"invalid export: pending conflict {c.id} names a missing node")


def _tree(doc: ExportDocument) -> InteractionTree:
    tree = InteractionTree()
    for e in doc.interaction_tree.entries:
        tree.add_entry(InteractionEntry(e.entry_id, e.text, e.timestamp, dict(e.metadata),
                                        tuple(Attachment(**a.model_dump()) for a in e.attachments)))
    for node_id, ids in doc.interaction_tree.node_to_entries.items():
        for entry_id in ids:
            tree.link(node_id, entry_id)
    tree.merge_events = [MergeEvent(m.event_id, tuple(m.merged_node_ids), m.new_node_id, m.timestamp,
                                    m.description, m.kind) for m in doc.interaction_tree.merge_events]
    return tree


def import_memory(data: dict[str, Any] | str | bytes) -> Memory:
    doc = _parse(data)
    _check_references(doc)
    memory = Memory(insight_doc=doc.insight_doc, tree=_tree(doc),
                    merged_into=dict(doc.interaction_tree.merged_into), prior_log=list(doc.run_log),
                    prior_usage={k: dict(v) for k, v in doc.usage.items()})
    for n in doc.query_graph.nodes:
        memory.graph.add_node(Node(
            id=n.id, summary=n.summary, context=n.context, keywords=list(n.keywords),
            embedding=None if n.embedding is None else np.asarray(n.embedding, dtype=np.float32),
            timestamp=n.timestamp, merged_from=list(n.merged_from), kind=n.kind, role=n.role,
            sources=[Source(**{**s.model_dump(), "entry_ids": tuple(s.entry_ids)}) for s in n.sources]))
    for e in doc.query_graph.edges:
        memory.graph.add_edge(e.a, e.b)
    memory.conflicts = {c.id: PendingConflict(**c.model_dump()) for c in doc.conflicts}
    return memory
