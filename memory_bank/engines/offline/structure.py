"""Offline structure: an extractive summary at 30–50% of the cluster's length.

The summary is what retrieval indexes and what the agent reads first, so it keeps the sentences a question is
most likely to need: the ones central to the cluster's topic and the ones carrying checkable facts (numbers,
dates, names). Sentences are copied, never paraphrased, so every claim in memory is a claim of the source; they
stay in source order so the summary still reads as text.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import StructureInput, StructureOutput
from .classification import is_heading
from .nlp import (
    Idf,
    content_tokens,
    cosine,
    fact_density,
    has_month,
    numbers,
    sentences,
    tfidf_vector,
    trim_words,
    word_count,
)


@dataclass(frozen=True)
class SummaryConfig:
    """`min_ratio`/`max_ratio` bound the summary's share of the cluster's words; `tiny_words` is the size below
    which there is nothing worth dropping and the content is kept whole (about two sentences: cutting one of
    them to 45% leaves a fragment, not a summary)."""

    min_ratio: float = 0.30
    max_ratio: float = 0.45
    tiny_words: int = 40
    fact_weight: float = 0.06
    lead_weight: float = 0.10
    keyword_weight: float = 0.08


class OfflineStructurer:
    name = "structure"

    def __init__(self, config: SummaryConfig | None = None) -> None:
        self.config = config or SummaryConfig()

    def keeps_whole(self, inp: StructureInput) -> bool:
        """Whether the cluster is short enough to be its own summary (`tiny_words`): then no model is asked."""
        return word_count(" ".join(self.sentences(inp))) <= self.config.tiny_words

    def sentences(self, inp: StructureInput) -> list[str]:
        """The cluster's sentences a summary is made of. The raw text is split so a blank line after a heading
        ends a sentence; the node's context line names the heading, so headings are left out (unless the
        cluster is nothing but headings)."""
        sents = sentences(inp.content) or [" ".join(inp.content.split())]
        return [s for s in sents if not is_heading(s)] or sents

    def run(self, inp: StructureInput) -> StructureOutput:
        return self.summary_with(inp, [])

    def summary_with(self, inp: StructureInput, preferred: list[int]) -> StructureOutput:
        """The summary taking the sentences at `preferred` (indices into `sentences(inp)`, most important first:
        a model's choice) before any other, within the same bounds; [] leaves the choice to the scores."""
        sents = self.sentences(inp)
        total = word_count(" ".join(sents))
        if total <= self.config.tiny_words:
            return StructureOutput(summary=" ".join(sents))
        return StructureOutput(summary=self._summary(sents, inp.keywords, total, preferred))

    def _summary(self, sents: list[str], keywords: list[str], total: int, preferred: list[int]) -> str:
        """Best-scoring sentences first (after the `preferred` ones), each taken only while the summary stays
        under `max_ratio`; when long sentences leave it under `min_ratio`, the best sentence left out is added
        cut to the remaining room."""
        scores = self._scores(sents, keywords)
        budget = int(total * self.config.max_ratio)
        order = sorted(range(len(sents)), key=lambda i: (-scores[i], i))
        chosen: dict[int, str] = {}
        used = 0
        with_quantity = [i for i in order if numbers(sents[i]) or has_month(sents[i])]
        preferred = list(dict.fromkeys(i for i in preferred if 0 <= i < len(sents)))
        if preferred:
            order = preferred + [i for i in order if i not in preferred]
        elif with_quantity:  # the best sentence with a number or date goes first, cut to fit if it must
            first = with_quantity[0]
            order.remove(first)
            chosen[first] = _fit(sents[first], budget)
            used = word_count(chosen[first])
        for i in order:
            size = word_count(sents[i])
            if used + size <= budget:
                chosen[i] = sents[i]
                used += size
        if used < total * self.config.min_ratio:
            first_left = next(i for i in order if i not in chosen)
            chosen[first_left] = trim_words(sents[first_left], budget - used - 1)
        return " ".join(chosen[i] for i in sorted(chosen))

    def _scores(self, sents: list[str], keywords: list[str]) -> list[float]:
        cfg = self.config
        tokens = [content_tokens(s) for s in sents]
        idf = Idf(tokens)
        vectors = [tfidf_vector(t, idf) for t in tokens]
        centroid: dict[str, float] = {}
        for vec in vectors:
            for term, weight in vec.items():
                centroid[term] = centroid.get(term, 0.0) + weight
        key_terms = {w for k in keywords for w in content_tokens(k)}
        centroid_norm = sum(v * v for v in centroid.values()) ** 0.5 or 1.0
        scores = []
        for i, (sent, vec, toks) in enumerate(zip(sents, vectors, tokens)):
            score = cosine(vec, centroid) / centroid_norm
            score += cfg.fact_weight * fact_density(sent)
            score += cfg.keyword_weight * min(3, len(key_terms.intersection(toks)))
            score += cfg.lead_weight if i == 0 else 0.0
            scores.append(score)
        return scores


def _fit(sentence: str, room: int) -> str:
    """The sentence, or the `room`-word stretch of it that starts a little before its first number or date."""
    words_ = sentence.split()
    if len(words_) <= room:
        return sentence
    first = next((i for i, w in enumerate(words_) if numbers(w) or has_month(w)), 0)
    start = max(0, min(first - room // 3, len(words_) - room))
    cut = " ".join(words_[start:start + room - 1])
    return ("… " if start else "") + cut + " …"
