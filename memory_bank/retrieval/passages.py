"""Local search over the raw text of the task's own documents (the interaction entries).

BM25 only (no vectors: the raw entries are many and long, and the nodes already carry the semantic index).
Entries are append-only, so the index catches up incrementally with whatever was added since the last query.
A passage that only furniture nodes were made from (a table of contents, a reference list) ranks below body
text, with the retriever's penalty. A passage that counts something ("approximately 164,000 full-time equivalent
employees") carries the count's marks (`text.counts`) as terms, and a "how many employees" question asks for
them: the stock plans that say "employees" ten times beside no count otherwise bury the one passage that counts.
So does a passage that states a change with its cause, for a question asking whether or why something changed
(`text/trends.py`).
"""

from __future__ import annotations

import numpy as np

from ..memory.store import Memory
from ..text.counts import count_marks, counted_marks
from ..text.furniture import Role, merged_role
from ..text.tokens import stem, tokenize
from ..text.trends import asked_change_marks, change_marks
from .hybrid_index import HybridIndex
from .retriever import demoted
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
            terms = tokenize(entry.text) + sorted(count_marks(entry.text)) + change_marks(entry.text)
            self.index.upsert(entry.entry_id, terms, self._zero)
        self._indexed = len(entries)

    def _nodes_of(self, entry_id: str) -> tuple[str, ...]:
        return tuple(n for n in self.memory.tree.nodes_for(entry_id) if n in self.memory.graph)

    def _role(self, node_ids: tuple[str, ...]) -> Role:
        """Body when any live node made from the entry is body (or none is left to say otherwise)."""
        return merged_role(self.memory.graph.get(n).role for n in node_ids)

    def search(self, query: str, k: int) -> list[Passage]:
        """The k best passages, furniture demoted before the cut: the index is asked for 2k so body text that
        furniture outscored by less than the penalty comes in."""
        self._catch_up()
        words = tokenize(query)
        # a word the documents never write is searched in the forms they do ("headquartered" / "headquarters")
        words += [form for word in dict.fromkeys(words) for form in self.index.other_forms(word, stem)]
        terms = words + list(counted_marks(query)) + asked_change_marks(query)
        hits = self.index.search(terms, None, 2 * k, alpha=1.0)
        passages = []
        for entry_id, score in hits:
            if score <= 0:
                continue
            entry = self.memory.tree.entries[entry_id]
            meta = entry.metadata
            node_ids = self._nodes_of(entry_id)
            passages.append(Passage(entry_id=entry_id, node_ids=node_ids, text=entry.text,
                                    score=demoted(score, self._role(node_ids)), source=str(meta.get("source", "")),
                                    page_start=meta.get("page_start"), page_end=meta.get("page_end"),
                                    printed_start=meta.get("printed_start"), printed_end=meta.get("printed_end"),
                                    section=entry.section))
        order = sorted(range(len(passages)), key=lambda i: (-passages[i].score, i))
        return [passages[i] for i in order[:k]]

