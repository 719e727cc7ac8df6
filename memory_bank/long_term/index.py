"""The in-memory search index over L2 records: numpy arrays, so a search over 10k records takes milliseconds.

Score (seed 004 §5.1, §7): relevance x confidence x reward factor x time decay, halved while a record needs
revision. Relevance mixes a BM25-style lexical score (normalised by the query's best) with the embedding cosine
when an embedder is given.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from threadpoolctl import ThreadpoolController

from ..retrieval.embedding import Embedder
from ..text.tokens import stems
from .models import REFLECTION, Category, MemoryRecord
from .vectors import VectorFile, text_key

DAY = 86_400.0
K1, B = 1.2, 0.75
MIN_COSINE = 0.3  # below it an embedding match alone is noise
PREFERENCE_FLOOR = 0.25  # explicit preferences apply to every query of their user
_CATEGORIES = list(Category)


def reward_factor(reward: float) -> float:
    """-1 .. 1 -> 0.5 .. 1: a demoted record ranks lower but is still found."""
    return 0.75 + 0.25 * reward


def decay(age_seconds: float, half_life_days: float) -> float:
    return 0.5 ** (max(0.0, age_seconds) / (half_life_days * DAY))


def record_text(record: MemoryRecord) -> str:
    return " ".join([record.content, record.subcategory, *record.tags])


@dataclass(frozen=True)
class Scored:
    record: MemoryRecord
    score: float
    relevance: float
    decay: float


class SearchIndex:
    """Rows follow the records' order. Appending records extends the postings and vectors; an edit or a removal
    rebuilds them (both are rare, and made by a person). BM25 length normalisation is computed at query time
    from raw term counts, so an append never invalidates earlier rows."""

    def __init__(self, embedder: Embedder | None = None, half_life_days: float = 30.0,
                 vector_file: VectorFile | None = None) -> None:
        self.embedder = embedder
        self.half_life_days = half_life_days
        self.vector_file = vector_file
        self._vector_cache: dict[str, np.ndarray] | None = None  # sha1 of the text -> vector
        self._blas: ThreadpoolController | None = None
        self.rebuild([])

    def rebuild(self, records: list[MemoryRecord]) -> None:
        self._records: list[MemoryRecord] = []
        self._postings: dict[str, tuple[list[int], list[int]]] = {}
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._lengths: list[int] = []
        dim = self.embedder.dim if self.embedder is not None else 0
        self._vectors = np.zeros((0, dim), dtype=np.float32)
        self.append(records)

    def append(self, records: list[MemoryRecord]) -> None:
        """Index records added after the current ones (reflection records are summaries, not candidates)."""
        new = [r for r in records if r.subcategory != REFLECTION]
        for record in new:
            row = len(self._records)
            self._records.append(record)
            counts: dict[str, int] = defaultdict(int)
            words = stems(record_text(record))
            for w in words:
                counts[w] += 1
            self._lengths.append(len(words))
            for w, tf in counts.items():
                rows, tfs = self._postings.setdefault(w, ([], []))
                rows.append(row)
                tfs.append(tf)
                self._arrays.pop(w, None)
        self._length_array = np.asarray(self._lengths, dtype=np.float64)
        if self.embedder is not None and new:
            self._vectors = np.vstack([self._vectors, self._embed(new)])
        self.refresh()

    def _embed(self, records: list[MemoryRecord]) -> np.ndarray:
        """Vectors from the cache (memory, then disk); only texts never seen are embedded, and kept."""
        assert self.embedder is not None
        if self._vector_cache is None:
            self._vector_cache = self.vector_file.load() if self.vector_file is not None else {}
        cache = self._vector_cache
        keys = [text_key(record_text(r)) for r in records]
        missing = {k: record_text(r) for k, r in zip(keys, records) if k not in cache}
        if missing:
            vectors = self.embedder.embed(list(missing.values()))
            cache.update(zip(missing, vectors))
            if self.vector_file is not None:
                self.vector_file.append(list(missing), vectors)
        return np.stack([cache[k] for k in keys]).astype(np.float32, copy=False)

    def refresh(self, records: list[MemoryRecord] | None = None) -> None:
        """Re-read the numeric columns; `records` (the same records, in the same order, with only their numbers
        changed) replaces the objects."""
        if records is not None:
            self._records = [r for r in records if r.subcategory != REFLECTION]
        rs = self._records
        self._category = np.fromiter((_CATEGORIES.index(r.category) for r in rs), np.int8, len(rs))
        self._weight = np.fromiter((r.confidence * reward_factor(r.reward) * (0.5 if r.needs_revision else 1.0)
                                    for r in rs), np.float64, len(rs))
        self._touched = np.fromiter((r.last_touched for r in rs), np.float64, len(rs))

    def __len__(self) -> int:
        return len(self._records)

    def search(self, query: str, categories: list[Category], now: float, k: int = 20,
               query_vector: np.ndarray | None = None) -> list[Scored]:
        n = len(self._records)
        if n == 0:
            return []
        relevance = self._lexical(query, n)
        if self.embedder is not None and len(self._vectors):
            vector = query_vector if query_vector is not None else self.embedder.embed([query])[0]
            cosine = self._cosine(vector.astype(np.float32))
            cosine = np.where(cosine >= MIN_COSINE, cosine, 0.0)
            relevance = 0.5 * relevance + 0.5 * cosine
        codes = [_CATEGORIES.index(c) for c in categories]
        allowed = np.isin(self._category, codes)
        preference = self._category == _CATEGORIES.index(Category.PREFERENCE)
        relevance = np.where(preference & allowed, np.maximum(relevance, PREFERENCE_FLOOR), relevance)
        decays = np.exp2(-np.maximum(0.0, now - self._touched) / (self.half_life_days * DAY))
        score = np.where(allowed & (relevance > 0), relevance * self._weight * decays, 0.0)
        hits = int(np.count_nonzero(score))
        if hits == 0:
            return []
        take = min(k, hits)
        top = np.argpartition(-score, take - 1)[:take] if take < n else np.arange(n)
        top = top[np.argsort(-score[top], kind="stable")]
        return [Scored(self._records[i], float(score[i]), float(relevance[i]), float(decays[i]))
                for i in top if score[i] > 0]

    def _cosine(self, query_vector: np.ndarray) -> np.ndarray:
        """One matrix-vector product on one BLAS thread: at 10k x 384 waking BLAS's threads costs more than the
        product, and on a busy machine many times more (13 ms against 5 ms measured at load 17)."""
        if self._blas is None:
            self._blas = ThreadpoolController()
        with self._blas.limit(limits=1, user_api="blas"):
            return self._vectors @ query_vector

    def _posting(self, word: str) -> tuple[np.ndarray, np.ndarray] | None:
        found = self._arrays.get(word)
        if found is None:
            raw = self._postings.get(word)
            if raw is None:
                return None
            found = self._arrays[word] = (np.asarray(raw[0], dtype=np.int64), np.asarray(raw[1], dtype=np.float64))
        return found

    def _lexical(self, query: str, n: int) -> np.ndarray:
        scores = np.zeros(n, dtype=np.float64)
        average = float(self._length_array.mean()) if n else 1.0
        for word in set(stems(query)):
            found = self._posting(word)
            if found is None:
                continue
            rows, tf = found
            idf = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
            norm = K1 * (1 - B + B * self._length_array[rows] / (average or 1.0))
            scores[rows] += idf * tf * (K1 + 1) / (tf + norm)
        top = scores.max() if n else 0.0
        return scores / top if top > 0 else scores
