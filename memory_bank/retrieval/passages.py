"""Local search over the raw text of the task's own documents (the interaction entries).

BM25 only (no vectors: the raw entries are many and long, and the nodes already carry the semantic index).
Entries are append-only, so the index catches up incrementally with whatever was added since the last query.
"""

from __future__ import annotations

import numpy as np

from ..memory.store import Memory
from ..text.tokens import tokenize
from .hybrid_index import HybridIndex
from .view import Passage


class PassageSearch:
    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.index = HybridIndex(dim=1)
        self._indexed = 0
        self._zero = np.zeros(1, dtype=np.float32)

    def clear(self) -> None:
        self.index.clear()
        self._indexed = 0

    def _catch_up(self) -> None:
        entries = list(self.memory.tree.entries.values())
        for entry in entries[self._indexed:]:
            self.index.upsert(entry.entry_id, tokenize(entry.text), self._zero)
        self._indexed = len(entries)

    def _nodes_of(self, entry_id: str) -> tuple[str, ...]:
        return tuple(n for n in self.memory.tree.nodes_for(entry_id) if n in self.memory.graph)

    def search(self, query: str, k: int) -> list[Passage]:
        self._catch_up()
        hits = self.index.search(tokenize(query), None, k, alpha=1.0)
        passages = []
        for entry_id, score in hits:
            if score <= 0:
                continue
            entry = self.memory.tree.entries[entry_id]
            meta = entry.metadata
            passages.append(Passage(entry_id=entry_id, node_ids=self._nodes_of(entry_id), text=entry.text,
                                    score=score, source=str(meta.get("source", "")),
                                    page_start=meta.get("page_start"), page_end=meta.get("page_end"),
                                    printed_start=meta.get("printed_start"), printed_end=meta.get("printed_end")))
        return passages
