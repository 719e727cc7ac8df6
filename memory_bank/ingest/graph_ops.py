"""Graph operations and context update: the one path that mutates the Query Graph (DESIGN §2).

Every change to nodes, edges, conflicts, node kinds and sources goes through here so that three things never drift
apart: the graph, the retrieval index and the event stream. Each method holds the memory's write lock itself (a
caller that must read and then decide holds it around both: it is re-entrant); none does LLM work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from ..events import (
    ConflictFlagged,
    ConflictResolved,
    EdgeAdded,
    EventBus,
    NodeAdded,
    NodesMerged,
    NodeUpdated,
)
from ..memory.interaction_tree import Attachment, new_id
from ..memory.query_graph import Node, PendingConflict, Source
from ..memory.store import Memory
from ..retrieval.embedding import Embedder
from ..retrieval.hybrid_index import HybridIndex
from ..text.furniture import merged_role
from ..text.tokens import tokenize


@dataclass(frozen=True)
class RawEntry:
    """The raw text a new node was made from, stored as its interaction entry."""

    text: str
    metadata: dict[str, Any]
    attachments: tuple[Attachment, ...] = ()


class GraphOps:
    def __init__(self, memory: Memory, index: HybridIndex, embedder: Embedder, events: EventBus) -> None:
        self.memory = memory
        self.index = index
        self.embedder = embedder
        self.events = events

    @property
    def graph(self):  # noqa: ANN201 - QueryGraph; kept short for call sites
        return self.memory.graph

    def _reindex(self, nodes: list[Node], embed: bool = True) -> None:
        """Embed (one batch) the nodes that need it, then index them."""
        todo = [n for n in nodes if embed or n.embedding is None]
        if todo:
            vectors = self.embedder.embed([n.embedding_text() for n in todo])
            for node, vec in zip(todo, vectors):
                node.embedding = vec
        for node in nodes:
            assert node.embedding is not None, "embedded just above, or when it was made"
            self.index.upsert(node.id, self._index_tokens(node), node.embedding)

    def _index_tokens(self, node: Node) -> list[str]:
        """BM25 sees the node text plus the raw text of its entries: a summary keeps 30-50% of the source, and
        questions ask about words of the source (on SQuAD, top-1 node hit rate 0.69 -> 0.81 with the raw text)."""
        return tokenize(f"{node.embedding_text()} {self.memory.source_text(node.id)}")

    def reindex_all(self) -> int:
        """Index every node as it is (after an import or a reopen: the vectors come with the nodes). Vectors
        another model made (another name or size: an old task opened after the model changed, or with the
        hashing fallback) are never mixed with this model's questions: every node is embedded again. A node
        that came without a vector is embedded too. Returns how many vectors of another model were replaced."""
        with self.memory.write():
            nodes = self.graph.nodes()
            replaced = 0
            if self.memory.embedding_model != self.embedder.name or \
                    any(n.embedding is not None and n.embedding.shape != (self.embedder.dim,) for n in nodes):
                replaced = sum(n.embedding is not None for n in nodes)
                for node in nodes:
                    node.embedding = None
            self._reindex(nodes, embed=False)
            self.memory.embedding_model = self.embedder.name
        return replaced

    def clear(self) -> None:
        """End the task: every layer and the index emptied together."""
        with self.memory.write():
            self.memory.clear()
            self.index.clear()

    def add_nodes(self, nodes: list[Node], raw: list[RawEntry] | None = None) -> list[Node]:
        """Add embedded nodes; with `raw`, each node's raw text first becomes its interaction entry and the node's
        first source names that entry (the index reads entries, so they must exist before indexing)."""
        with self.memory.write():
            if raw is not None:
                nodes = [self._with_entry(node, entry) for node, entry in zip(nodes, raw, strict=True)]
            self._reindex(nodes, embed=False)
            for node in nodes:
                self.graph.add_node(node)
                source = node.sources[0].label() if node.sources else ""
                self.events.publish(NodeAdded(node_id=node.id, context=node.context, source=source))
        return nodes

    def _with_entry(self, node: Node, raw: RawEntry) -> Node:
        entry = self.memory.tree.create_entry(raw.text, [node.id], attachments=raw.attachments,
                                              metadata=raw.metadata)
        sources = [replace(s, entry_ids=(*s.entry_ids, entry.entry_id)) for s in node.sources[:1]]
        return replace(node, sources=sources + node.sources[1:])

    def delete_node(self, node_id: str) -> None:
        with self.memory.write():
            self.graph.remove_node(node_id)
            self.index.remove(node_id)

    def add_edge(self, a: str, b: str) -> bool:
        with self.memory.write():
            added = self.graph.add_edge(a, b)
            if added:
                self.events.publish(EdgeAdded(a=a, b=b))
        return added

    def delete_edge(self, a: str, b: str) -> None:
        with self.memory.write():
            self.graph.remove_edge(a, b)

    def update_context(self, updates: dict[str, tuple[str | None, list[str] | None]]) -> None:
        """Set context and/or keywords of several nodes; only nodes that really changed are re-embedded
        (in one batch) and re-indexed."""
        with self.memory.write():
            for node in self._update_context(updates):
                self.events.publish(NodeUpdated(node_id=node.id, context=node.context))

    def _update_context(self, updates: dict[str, tuple[str | None, list[str] | None]]) -> list[Node]:
        changed: list[Node] = []
        for node_id, (context, keywords) in updates.items():
            node = self.graph.get(node_id)
            new_context = context.strip() if context and context.strip() else node.context
            new_keywords = list(dict.fromkeys(k.strip() for k in keywords or [] if k.strip())) or node.keywords
            if (new_context, new_keywords) != (node.context, node.keywords):
                node.context, node.keywords = new_context, new_keywords
                changed.append(node.bound())
        self._reindex(changed)
        return changed

    def merge(self, old_ids: list[str], *, summary: str, context: str, keywords: list[str],
              description: str, kind: str = "merge") -> tuple[Node, list[str]]:
        """Replace `old_ids` by one new node that inherits their edges, sources and entries.

        Returns the new node and its inherited neighbours (the exclude set for its re-retrieval).
        """
        with self.memory.write():
            node, inherited = self._merge(old_ids, summary, context, keywords, description, kind)
            self.events.publish(NodesMerged(merged_ids=tuple(old_ids), new_node_id=node.id,
                                            description=description))
        return node, inherited

    def _merge(self, old_ids: list[str], summary: str, context: str, keywords: list[str], description: str,
               kind: str) -> tuple[Node, list[str]]:
        olds = [self.graph.get(i) for i in old_ids]
        sources: list[Source] = []
        for old in olds:
            sources.extend(s for s in old.sources if s not in sources)
        node = Node(id=new_id(), summary=summary, context=context, keywords=keywords, timestamp=time.time(),
                    sources=sources, merged_from=list(old_ids), kind=olds[0].kind,
                    role=merged_role(old.role for old in olds), title=olds[0].title)
        self.memory.tree.record_merge(old_ids, node.id, description, kind)  # entries first: the index reads them
        self._reindex([node])
        inherited = self.graph.merge(old_ids, node)
        for old in old_ids:
            self.index.remove(old)
            self.memory.merged_into[old] = node.id
        self._redirect_conflicts(old_ids, node.id)
        return node, inherited

    def _redirect_conflicts(self, old_ids: list[str], new_id_: str) -> None:
        """A pending conflict whose two sides now live in one node is moot; otherwise it follows the merge."""
        for conflict in self.memory.pending_conflicts():
            a = new_id_ if conflict.node_a in old_ids else conflict.node_a
            b = new_id_ if conflict.node_b in old_ids else conflict.node_b
            if a == b:
                self.resolve_conflict(conflict.id, new_id_, "both sides were merged into one node")
            else:
                conflict.node_a, conflict.node_b = a, b

    def flag_conflict(self, a: str, b: str, description: str) -> PendingConflict:
        with self.memory.write():
            for existing in self.memory.pending_conflicts():
                if {existing.node_a, existing.node_b} == {a, b}:
                    return existing
            conflict = PendingConflict(id=new_id(), node_a=a, node_b=b, description=description)
            self.memory.conflicts[conflict.id] = conflict
            self.events.publish(ConflictFlagged(conflict_id=conflict.id, node_a=a, node_b=b,
                                                description=description))
        return conflict

    def resolve_conflict(self, conflict_id: str, merged_into: str | None, resolution: str,
                         status: str = "resolved", rejected_node: str | None = None) -> None:
        with self.memory.write():
            conflict = self.memory.conflicts[conflict_id]
            conflict.status = status
            conflict.resolved_at = time.time()
            conflict.resolution = resolution
            conflict.merged_into = merged_into
            conflict.rejected_node = rejected_node
            self.events.publish(ConflictResolved(conflict_id=conflict_id, new_node_id=merged_into,
                                                 resolution=resolution))

    def begin_validation(self, conflict_id: str) -> PendingConflict:
        """Take a conflict out of the pending set while it is cross-validated, so the merge that settles it does
        not close it as moot; returns a copy of it as it stands."""
        with self.memory.write():
            conflict = self.memory.conflicts[conflict_id]
            conflict.status = "validating"
            return replace(conflict)
