"""What changed in a task's memory since the last write, found by comparing it with what was written.

The memory has several writers (graph operations, Insight Doc operations, the linker's conflicts), and a
comparison cannot miss a change the way a missed event can, so the tracker keeps a cheap signature of every item
it wrote and compares: nodes by every field of the `Node` dataclass (the embedding by object), append-only parts
(entries, links, merge events, merged_into) by how far they were written. At 2,000 nodes a comparison takes a
few milliseconds, and only the items that changed are serialised and written.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import numpy as np

from ..memory.export import conflict_record, entry_record, insight_record, merge_event_record, node_record
from ..memory.query_graph import Node
from ..memory.store import Memory
from .base import ChangeSet

# Every field of the node but its id (the key) and its embedding (compared by identity: a new vector is a new
# array), read from the dataclass so that a field added to `Node` is tracked without anyone remembering to.
SIGNED_FIELDS = tuple(f.name for f in fields(Node) if f.name not in ("id", "embedding"))


def _frozen(value: Any) -> Any:
    """A copy that a later in-place change of the node (a keyword appended) does not reach."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return tuple(value.items())
    if isinstance(value, set):
        return frozenset(value)
    return value


def _node_signature(n: Node) -> tuple[Any, ...]:
    return tuple(_frozen(getattr(n, name)) for name in SIGNED_FIELDS)


def node_row(n: Node) -> tuple[str, str, bytes | None]:
    data = node_record(n, with_embedding=False).model_dump_json(exclude={"embedding"})
    blob = None if n.embedding is None else np.asarray(n.embedding, dtype=np.float32).tobytes()
    return n.id, data, blob


class ChangeTracker:
    """Call `changes()` under the memory's read lock; it returns the difference and takes it as written."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.reset()

    def reset(self) -> None:
        """Nothing written yet (a new task, or one just cleared)."""
        self._nodes: dict[str, tuple[tuple[Any, ...], Any]] = {}
        self._edges: set[tuple[str, str]] = set()
        self._tree: Any = None
        self._entries = 0
        self._links: dict[str, int] = {}
        self._merges = 0
        self._merged_into = 0
        self._conflicts: dict[str, tuple[Any, ...]] = {}
        self._insight = ""
        self._usage = ""
        self._embedding_model = ""

    def state(self) -> dict[str, Any]:
        """A copy of what it believes written, to put back with `restore` when a write fails."""
        return {k: (v.copy() if isinstance(v, (dict, set)) else v) for k, v in self.__dict__.items()
                if k != "memory"}

    def restore(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def mark_written(self, usage: dict[str, Any]) -> None:
        """Take the memory as it stands as written (it was just loaded from the store)."""
        self.changes(usage)

    def changes(self, usage: dict[str, Any]) -> ChangeSet:
        m, out = self.memory, ChangeSet()
        self._diff_nodes(m, out)
        edges = set(m.graph.edges())
        out.edges_added = [e for e in m.graph.edges() if e not in self._edges]
        out.edges_deleted = sorted(self._edges - edges)
        self._edges = edges
        self._diff_tree(m, out)
        for c in m.conflicts.values():
            sig = tuple(c.__dict__.values())
            if self._conflicts.get(c.id) != sig:
                self._conflicts[c.id] = sig
                out.conflicts.append((c.id, conflict_record(c).model_dump_json()))
        if len(m.merged_into) != self._merged_into:
            out.merged_into = list(m.merged_into.items())[self._merged_into:]
            self._merged_into = len(m.merged_into)
        insight = insight_record(m.insight_doc).model_dump_json()  # held to the schema the reopen reads with
        if insight != self._insight:
            out.insight_doc = self._insight = insight
        if m.embedding_model != self._embedding_model:
            out.embedding_model = self._embedding_model = m.embedding_model
        usage_text = json.dumps(usage, sort_keys=True)
        if usage_text != self._usage:
            out.usage = self._usage = usage_text
        return out

    def _diff_nodes(self, m: Memory, out: ChangeSet) -> None:
        seen: set[str] = set()
        for n in m.graph.nodes():
            seen.add(n.id)
            sig, emb = _node_signature(n), n.embedding
            old = self._nodes.get(n.id)
            if old is None or old[0] != sig or old[1] is not emb:
                self._nodes[n.id] = (sig, emb)
                out.nodes.append(node_row(n))
        out.nodes_deleted = [i for i in self._nodes if i not in seen]
        for i in out.nodes_deleted:
            del self._nodes[i]

    def _diff_tree(self, m: Memory, out: ChangeSet) -> None:
        tree = m.tree
        if tree is not self._tree:  # cleared: a new, empty tree
            self._tree, self._entries, self._links, self._merges = tree, 0, {}, 0
        if len(tree.entries) != self._entries:
            fresh = list(tree.entries.values())[self._entries:]
            out.entries = [(e.entry_id, entry_record(e).model_dump_json()) for e in fresh]
            self._entries = len(tree.entries)
        for node_id, entry_ids in tree.node_to_entries.items():
            done = self._links.get(node_id, 0)
            if len(entry_ids) != done:
                out.links.extend((node_id, e) for e in entry_ids[done:])
                self._links[node_id] = len(entry_ids)
        if len(tree.merge_events) != self._merges:
            out.merge_events = [(e.event_id, merge_event_record(e).model_dump_json())
                                for e in tree.merge_events[self._merges:]]
            self._merges = len(tree.merge_events)
