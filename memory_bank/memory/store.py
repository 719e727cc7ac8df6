"""The memory of one task: the three layers plus the pending conflicts, held together, and the lock that guards
them.

Memory owns its lock so that no caller has to be handed one: a change goes through `with memory.write():` (the
graph operations take it themselves), a consistent read through `with memory.read():`, and a reader on another
thread takes a snapshot. Agents never run under it: they get copies of what they need (typed inputs), so a UI
thread can read while a run waits on a model. One re-entrant lock serves both, because every critical section is
short and a writer often reads first (resolve ids, then merge).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..text.split import split_sentences
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
    # the model the nodes' vectors come from ("" for none yet): vectors of two models never share one index
    embedding_model: str = ""
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @contextmanager
    def write(self) -> Iterator[Memory]:
        """Hold the memory for a change (or a read-decide-write sequence); re-entrant."""
        with self._lock:
            yield self

    @contextmanager
    def read(self) -> Iterator[Memory]:
        """Hold the memory still for a consistent read of several parts."""
        with self._lock:
            yield self

    def clear(self) -> None:
        """Empty every layer in place: components holding the graph keep a valid, empty one."""
        with self.write():
            self._clear()

    def _clear(self) -> None:
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

    def rejected_claims(self) -> set[str]:
        """The sentences only rejected entries say (whitespace-normalised, lower case): a section node's outline
        restates its passages' opening sentences, and a claim that lost must not come back through it."""
        rejected = self.rejected_entries()
        if not rejected:
            return set()
        said: dict[bool, set[str]] = {True: set(), False: set()}
        for entry in self.tree.entries.values():
            if entry.metadata.get("structure") == "section":
                continue
            said[entry.entry_id in rejected].update(claim_key(s) for s in split_sentences(entry.text))
        return said[True] - said[False]

    def pending_conflicts(self) -> list[PendingConflict]:
        return [c for c in self.conflicts.values() if c.status == "pending"]

    def resolve_id(self, node_id: str) -> str | None:
        """The live node that now stands for `node_id` (itself, or its merge successor), or None."""
        seen: set[str] = set()
        while node_id not in self.graph and node_id in self.merged_into and node_id not in seen:
            seen.add(node_id)
            node_id = self.merged_into[node_id]
        return node_id if node_id in self.graph else None


def claim_key(sentence: str) -> str:
    """How two sentences are told to be the same claim: case and spacing aside."""
    return " ".join(sentence.lower().split())
