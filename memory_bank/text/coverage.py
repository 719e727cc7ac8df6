"""How much of a question a sentence covers: the idf-weighted share of the question's word stems it contains.

A question is usually answered by one sentence, and the words that decide which are the question's rarer ones,
so both the re-ranker (which node holds the best sentence) and the memory block (which sentences to show) score
sentences this way, with the idf taken over the candidates at hand rather than the whole memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet


def idf_weights(terms: Iterable[str], groups: Sequence[Iterable[AbstractSet[str]]]) -> dict[str, float]:
    """Idf of each term over `groups` (a group: the stem sets of one candidate's sentences); a term every
    candidate has decides little."""
    term_sets = [frozenset().union(*group) for group in groups]
    n = len(term_sets)
    return {t: math.log(1.0 + n / (1.0 + sum(t in s for s in term_sets))) for t in dict.fromkeys(terms)}


def coverage(weights: dict[str, float], sentence: frozenset[str] | set[str]) -> float:
    """The weighted share of the question's terms found in one sentence's stems, in [0, 1]."""
    total = sum(weights.values()) or 1.0
    return sum(w for t, w in weights.items() if t in sentence) / total
