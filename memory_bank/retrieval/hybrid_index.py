"""An incremental hybrid index: BM25 postings plus a vector matrix, both append-only.

Each indexed document occupies a *slot*. Updating a document takes a new slot and marks the old one dead, so an
insert never rebuilds anything: postings grow by appending, the vector matrix doubles its capacity when full.
Dead slots are skipped at query time and dropped by a compaction once they outnumber the live ones, which keeps
the amortised cost of an insert O(1) (DESIGN §2: inserting N nodes must not cost O(N²)).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np
from threadpoolctl import ThreadpoolController

ONE_THREAD_ROWS = 4096  # up to here a product on one thread takes ~0.3 ms (384 dimensions), less than a wake-up


class _Postings:
    """One term's postings in growable numpy arrays (capacity doubles), so a query never converts lists."""

    __slots__ = ("n", "slots", "tfs")

    def __init__(self) -> None:
        self.n = 0
        self.slots = np.empty(4, dtype=np.int64)
        self.tfs = np.empty(4, dtype=np.float32)

    def append(self, slot: int, tf: float) -> None:
        if self.n == len(self.slots):
            self.slots = np.resize(self.slots, 2 * self.n)
            self.tfs = np.resize(self.tfs, 2 * self.n)
        self.slots[self.n] = slot
        self.tfs[self.n] = tf
        self.n += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return self.slots[: self.n], self.tfs[: self.n]


class HybridIndex:
    def __init__(self, dim: int, k1: float = 1.5, b: float = 0.75, capacity: int = 1024) -> None:
        self.dim, self.k1, self.b = dim, k1, b
        self._vectors = np.zeros((capacity, dim), dtype=np.float32)
        self._alive = np.zeros(capacity, dtype=bool)
        self._lengths = np.zeros(capacity, dtype=np.float32)
        self._slot_key: list[str | None] = []
        self._slot_terms: list[Counter[str] | None] = []
        self._key_slot: dict[str, int] = {}
        self._postings: dict[str, _Postings] = {}
        self._df: Counter[str] = Counter()
        self._vocab: list[str] = []  # every term ever indexed, in the order first seen (`_postings`' keys)
        # `other_forms`' lookup: stem -> the terms of that stem, built from `_vocab` as far as `_formed`, by `_stem`
        self._forms: dict[str, list[str]] = {}
        self._formed = 0
        self._stem: Callable[[str], str] | None = None
        self._total_len = 0.0
        self._blas: ThreadpoolController | None = None  # made at the first search (it reads the loaded libraries)

    def clear(self) -> None:
        self.__dict__.update(HybridIndex(self.dim, self.k1, self.b).__dict__)

    def __len__(self) -> int:
        return len(self._key_slot)

    def __contains__(self, key: object) -> bool:
        return key in self._key_slot

    # -- writes --------------------------------------------------------------------------------------------

    def upsert(self, key: str, tokens: list[str], vector: np.ndarray) -> None:
        if key in self._key_slot:
            self.remove(key)
        slot = len(self._slot_key)
        if slot >= len(self._alive):
            self._grow()
        terms = Counter(tokens)
        self._slot_key.append(key)
        self._slot_terms.append(terms)
        self._key_slot[key] = slot
        self._vectors[slot] = vector
        self._alive[slot] = True
        self._lengths[slot] = len(tokens)
        self._total_len += len(tokens)
        for term, tf in terms.items():
            postings = self._postings.get(term)
            if postings is None:  # not setdefault: its default would be built (two arrays) for every term
                postings = self._postings[term] = _Postings()
                self._vocab.append(term)
            postings.append(slot, float(tf))
        self._df.update(terms.keys())

    def remove(self, key: str) -> None:
        slot = self._key_slot.pop(key, None)
        if slot is None:
            return
        self._alive[slot] = False
        self._total_len -= float(self._lengths[slot])
        terms = self._slot_terms[slot] or Counter()
        for term in terms:
            self._df[term] -= 1
        self._slot_terms[slot] = None
        self._slot_key[slot] = None
        if len(self._slot_key) > 2048 and len(self._key_slot) * 2 < len(self._slot_key):
            self._compact()

    def _grow(self) -> None:
        cap = len(self._alive) * 2
        self._vectors = np.resize(self._vectors, (cap, self.dim))
        self._vectors[len(self._slot_key):] = 0
        self._alive = np.concatenate([self._alive, np.zeros(cap - len(self._alive), dtype=bool)])
        self._lengths = np.concatenate([self._lengths, np.zeros(cap - len(self._lengths), dtype=np.float32)])

    def _compact(self) -> None:
        live = [(k, s) for k, s in self._key_slot.items()]
        live.sort(key=lambda ks: ks[1])
        fresh = HybridIndex(self.dim, self.k1, self.b, capacity=max(1024, 2 * len(live)))
        for key, slot in live:
            fresh.upsert(key, list((self._slot_terms[slot] or Counter()).elements()), self._vectors[slot])
        self.__dict__.update(fresh.__dict__)

    # -- reads ---------------------------------------------------------------------------------------------

    def other_forms(self, term: str, stem: Callable[[str], str]) -> list[str]:
        """The indexed words that share `term`'s stem (and first letter), when `term` itself is never indexed: a
        question's "headquartered" finds the filing's "headquarters". A lookup: each term is stemmed once, the
        first time a word is asked after it was indexed (a pass over a 100k-node vocabulary per question word
        cost ~15 ms a word on every passage search)."""
        if self._df.get(term, 0) > 0:
            return []
        if stem is not self._stem:
            self._forms, self._formed, self._stem = {}, 0, stem
        for word in self._vocab[self._formed:]:
            self._forms.setdefault(stem(word), []).append(word)
        self._formed = len(self._vocab)
        return sorted(w for w in self._forms.get(stem(term), ()) if w[:1] == term[:1] and self._df.get(w, 0) > 0)

    def bm25(self, query_tokens: list[str]) -> np.ndarray:
        """Raw BM25 score per slot (dead slots included; callers mask them). Every query term's postings are
        scored in one pass of numpy calls (a node used as a query has a hundred terms, and a few calls per term
        cost more than the arithmetic); a slot's score is still its terms' float32 shares added in query order."""
        n_slots = len(self._slot_key)
        scores = np.zeros(n_slots, dtype=np.float32)
        n_docs = len(self._key_slot)
        terms = [term for term in dict.fromkeys(query_tokens) if self._df.get(term, 0) > 0]
        if not n_docs or not terms:
            return scores
        avgdl = max(self._total_len / n_docs, 1.0)
        idfs = [math.log(1.0 + (n_docs - self._df[term] + 0.5) / (self._df[term] + 0.5)) for term in terms]
        postings = [self._postings[term].arrays() for term in terms]
        slots = np.concatenate([slots for slots, _ in postings])
        tfs = np.concatenate([tfs for _, tfs in postings])
        idf = np.repeat(np.array(idfs, dtype=np.float32), [len(slots) for slots, _ in postings])
        norm = tfs + self.k1 * (1.0 - self.b + self.b * self._lengths[slots] / avgdl)
        np.add.at(scores, slots, idf * tfs * (self.k1 + 1.0) / norm)  # in order: term by term, as one at a time
        return scores

    def search(self, query_tokens: list[str], query_vector: np.ndarray | None, k: int, alpha: float,
               exclude: set[str] | None = None) -> list[tuple[str, float]]:
        """Top-k keys by alpha * BM25 (normalised by the query's best score) + (1 - alpha) * cosine."""
        n_slots = len(self._slot_key)
        if not self._key_slot or k <= 0:
            return []
        alive = self._alive[:n_slots].copy()
        for key in exclude or ():
            slot = self._key_slot.get(key)
            if slot is not None:
                alive[slot] = False
        lexical = self.bm25(query_tokens) if alpha > 0 else np.zeros(n_slots, dtype=np.float32)
        lexical = np.where(alive, lexical, 0.0)
        best = float(lexical.max()) if n_slots else 0.0
        score = alpha * (lexical / best if best > 0 else lexical)
        if query_vector is not None and alpha < 1:
            score = score + (1.0 - alpha) * self._cosines(n_slots, query_vector.astype(np.float32))
        score = np.where(alive, score, -np.inf)
        k = min(k, int(alive.sum()))
        if k <= 0:
            return []
        top = np.argpartition(-score, k - 1)[:k]
        top = top[np.lexsort((top, -score[top]))]  # best first; slot order breaks ties deterministically
        return [(self._slot_key[i], float(score[i])) for i in top]  # type: ignore[misc]

    def _cosines(self, n_slots: int, query_vector: np.ndarray) -> np.ndarray:
        """A small index's matrix-vector product on one BLAS thread. Linking searches once per new node, and on a
        busy machine waking BLAS's threads waited for a core: ~10 ms a search against ~0.1 ms for a one-thread
        product over a 1,300-node book (measured at load 5). A large index keeps BLAS's threads: at 100k nodes
        they halve the product (6.6 against 13.1 ms a query, bench/retrieval.py at load 5-8)."""
        if n_slots > ONE_THREAD_ROWS:
            return self._vectors[:n_slots] @ query_vector
        if self._blas is None:
            self._blas = ThreadpoolController()
        with self._blas.limit(limits=1, user_api="blas"):
            return self._vectors[:n_slots] @ query_vector

    def vector(self, key: str) -> np.ndarray:
        return self._vectors[self._key_slot[key]]
