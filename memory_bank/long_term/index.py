"""The in-memory search index over L2 records: numpy arrays, so a search over 10k records takes milliseconds.

Score (seed 004 §5.1, §7): relevance x confidence x reward factor x time decay, halved while a record needs
revision. Relevance mixes a BM25-style lexical score (normalised by the query's best) with the embedding cosine
when an embedder is given. Only what changed is rebuilt: the lexical postings and the vectors when the set of
records or their text changes, the numeric columns (confidence, reward, last use) on every change, which is a
pass over plain floats.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from ..retrieval.embedding import Embedder
from ..text.tokens import stems
from .models import REFLECTION, Category, MemoryRecord

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
    def __init__(self, embedder: Embedder | None = None, half_life_days: float = 30.0) -> None:
        self.embedder = embedder
        self.half_life_days = half_life_days
        self._records: list[MemoryRecord] = []
        self._postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._vectors: np.ndarray | None = None
        self._vector_cache: dict[str, np.ndarray] = {}

    def rebuild(self, records: list[MemoryRecord]) -> None:
        """Postings and vectors from the records' text (reflection records are summaries, not candidates)."""
        self._records = [r for r in records if r.subcategory != REFLECTION]
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        lengths = []
        tokens_per_row = []
        for record in self._records:
            words = stems(record_text(record))
            tokens_per_row.append(words)
            lengths.append(len(words))
        avg = (sum(lengths) / len(lengths)) if lengths else 1.0
        for row, words in enumerate(tokens_per_row):
            counts: dict[str, int] = defaultdict(int)
            for w in words:
                counts[w] += 1
            norm = K1 * (1 - B + B * lengths[row] / (avg or 1.0))
            for w, tf in counts.items():
                postings[w].append((row, tf * (K1 + 1) / (tf + norm)))
        self._postings = {w: (np.fromiter((r for r, _ in p), np.int32, len(p)),
                              np.fromiter((v for _, v in p), np.float32, len(p))) for w, p in postings.items()}
        self._vectors = self._embed_all() if self.embedder is not None else None
        self.refresh()

    def _embed_all(self) -> np.ndarray:
        assert self.embedder is not None
        texts = [record_text(r) for r in self._records]
        missing = [t for t in dict.fromkeys(texts) if t not in self._vector_cache]
        if missing:
            for text, vector in zip(missing, self.embedder.embed(missing)):
                self._vector_cache[text] = vector
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([self._vector_cache[t] for t in texts]).astype(np.float32, copy=False)

    def refresh(self, records: list[MemoryRecord] | None = None) -> None:
        """Re-read the numeric columns; `records` replaces the objects when only their numbers changed."""
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
        if self._vectors is not None and len(self._vectors):
            if query_vector is None:
                assert self.embedder is not None
                query_vector = self.embedder.embed([query])[0]
            cosine = self._vectors @ query_vector.astype(np.float32)
            cosine = np.where(cosine >= MIN_COSINE, cosine, 0.0)
            relevance = 0.5 * relevance + 0.5 * cosine
        codes = [_CATEGORIES.index(c) for c in categories]
        allowed = np.isin(self._category, codes)
        preference = self._category == _CATEGORIES.index(Category.PREFERENCE)
        relevance = np.where(preference & allowed, np.maximum(relevance, PREFERENCE_FLOOR), relevance)
        decays = 0.5 ** (np.maximum(0.0, now - self._touched) / (self.half_life_days * DAY))
        score = np.where(allowed & (relevance > 0), relevance * self._weight * decays, 0.0)
        hits = int(np.count_nonzero(score))
        if hits == 0:
            return []
        take = min(k, hits)
        top = np.argpartition(-score, take - 1)[:take] if take < n else np.arange(n)
        top = top[np.argsort(-score[top], kind="stable")]
        return [Scored(self._records[i], float(score[i]), float(relevance[i]), float(decays[i]))
                for i in top if score[i] > 0]

    def _lexical(self, query: str, n: int) -> np.ndarray:
        scores = np.zeros(n, dtype=np.float64)
        for word in set(stems(query)):
            found = self._postings.get(word)
            if found is None:
                continue
            rows, values = found
            idf = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
            scores[rows] += idf * values
        top = scores.max() if n else 0.0
        return scores / top if top > 0 else scores
