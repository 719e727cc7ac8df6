"""The memory of one task: the three layers plus the pending conflicts, held together."""

from __future__ import annotations

from dataclasses import dataclass, field

from .insight_doc import InsightDoc
from .interaction_tree import InteractionTree
from .query_graph import PendingConflict, QueryGraph


@dataclass
class Memory:
    insight_doc: InsightDoc = field(default_factory=InsightDoc)
    graph: QueryGraph = field(default_factory=QueryGraph)
    tree: InteractionTree = field(default_factory=InteractionTree)
    conflicts: dict[str, PendingConflict] = field(default_factory=dict)
    # old node id -> the node it was merged into; lets late judgements about a merged node find its successor
    merged_into: dict[str, str] = field(default_factory=dict)
    # carried over from an imported export, so export -> import -> export loses nothing
    prior_log: list[dict] = field(default_factory=list)
    prior_usage: dict[str, dict[str, float]] = field(default_factory=dict)

    def clear(self) -> None:
        """Empty every layer in place: components holding the graph keep a valid, empty one."""
        self.insight_doc = InsightDoc()
        self.graph.graph.clear()
        self.tree = InteractionTree()
        self.conflicts.clear()
        self.merged_into.clear()
        self.prior_log = []
        self.prior_usage = {}

    def source_text(self, node_id: str) -> str:
        """The raw text behind a node (its entries, oldest first): what a summary was cut from, and what
        questions quote. Empty for a node without entries."""
        return "\n\n".join(e.text for e in self.tree.entries_for(node_id))

    def rejected_entries(self) -> set[str]:
        """Entries whose claim lost a cross-validation: the merged node keeps them for the record, but they are
        no evidence. An entry the winning side shares stays evidence."""
        rejected: set[str] = set()
        for c in self.conflicts.values():
            if c.status != "resolved" or not c.rejected_node or not c.merged_into:
                continue
            sides = next((e.merged_node_ids for e in self.tree.merge_events if e.new_node_id == c.merged_into), ())
            kept = {e.entry_id for side in sides if side != c.rejected_node for e in self.tree.entries_for(side)}
            rejected |= {e.entry_id for e in self.tree.entries_for(c.rejected_node)} - kept
        return rejected

    def pending_conflicts(self) -> list[PendingConflict]:
        return [c for c in self.conflicts.values() if c.status == "pending"]

    def resolve_id(self, node_id: str) -> str | None:
        """The live node that now stands for `node_id` (itself, or its merge successor), or None."""
        seen: set[str] = set()
        while node_id not in self.graph and node_id in self.merged_into and node_id not in seen:
            seen.add(node_id)
            node_id = self.merged_into[node_id]
        return node_id if node_id in self.graph else None
