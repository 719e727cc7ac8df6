"""A consistent, plain copy of the memory for readers on other threads (the UI's fragment, the CLI).

Taken under the bank's lock; holds no references into live objects, so the reader may keep it as long as it
likes while the run goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .store import Memory


@dataclass(frozen=True)
class NodeView:
    id: str
    context: str
    summary: str
    keywords: tuple[str, ...]
    kind: str
    timestamp: float
    source_names: tuple[str, ...]
    source_labels: tuple[str, ...]
    pages: tuple[int, ...]
    merged_from: tuple[str, ...]
    role: str = "body"  # a `Role` value: furniture ("contents", "notice", ...) is drawn de-emphasised
    title: str = ""  # unique within the task (section path's last title + what sets it apart); "" before titles

    @property
    def label(self) -> str:
        """What the graph and lists call the node: its title, else its topic line."""
        return self.title or self.context


@dataclass(frozen=True)
class BankSnapshot:
    nodes: list[NodeView]
    edges: list[tuple[str, str]]
    conflicts: list[dict[str, Any]]
    merge_events: list[dict[str, Any]]
    insight_doc: dict[str, Any]
    usage: dict[str, Any] = field(default_factory=dict)
    entries: int = 0

    @property
    def counts(self) -> dict[str, int]:
        return {"nodes": len(self.nodes), "edges": len(self.edges), "merges": len(self.merge_events),
                "conflicts": len(self.conflicts),
                "pending_conflicts": sum(c["status"] == "pending" for c in self.conflicts), "entries": self.entries}


def take_snapshot(memory: Memory, usage: dict[str, Any]) -> BankSnapshot:
    nodes = [NodeView(id=n.id, context=n.context, summary=n.summary, keywords=tuple(n.keywords), kind=n.kind,
                      timestamp=n.timestamp, source_names=tuple(dict.fromkeys(s.name for s in n.sources)),
                      source_labels=tuple(s.label() for s in n.sources), pages=tuple(n.pages()),
                      merged_from=tuple(n.merged_from), role=n.role.value, title=n.title)
             for n in memory.graph.nodes()]
    conflicts = [{"id": c.id, "node_a": c.node_a, "node_b": c.node_b, "description": c.description,
                  "status": c.status, "created": c.created, "resolved_at": c.resolved_at,
                  "resolution": c.resolution, "merged_into": c.merged_into, "rejected_node": c.rejected_node}
                 for c in memory.conflicts.values()]
    merges = [{"event_id": e.event_id, "merged_node_ids": list(e.merged_node_ids), "new_node_id": e.new_node_id,
               "timestamp": e.timestamp, "description": e.description, "kind": e.kind}
              for e in memory.tree.merge_events]
    return BankSnapshot(nodes=nodes, edges=memory.graph.edges(), conflicts=conflicts, merge_events=merges,
                        insight_doc=memory.insight_doc.model_dump(mode="json"), usage=usage,
                        entries=len(memory.tree.entries))
