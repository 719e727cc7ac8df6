"""Offline classification: topic segmentation of one chunk into clusters of bounded size.

Nodes are the unit of retrieval, so cluster size is a retrieval decision: a cluster must be small enough that a
250-word context budget still reaches the sentence that answers a question (≈ 100–250 words), and large enough
to carry a topic. Paragraphs are the natural units; headings open a new cluster and name the clusters that
follow; small paragraphs join their neighbour when they continue its topic; over-long paragraphs are cut at
sentence ends where neighbouring sentences are least similar. Cluster content is sliced from the input, never
rewritten, because the pipeline maps it back to PDF pages.

When the input carries the document's structure (`ClassificationInput.units`), its pieces are the units: a
cluster never spans two sections, a list's items (with its lead-in) and a table's rows join each other up to the
size bound and nothing else, conversation turns are never cut, and the section's title names the clusters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from ...retrieval.embedding import Embedder
from ...text.split import Span, paragraph_spans
from ..models import ClassificationInput, ClassificationOutput, Cluster, UnitHint
from .nlp import (
    Idf,
    content_tokens,
    cosine,
    keyphrases,
    sentence_spans,
    tfidf_vector,
    trim_words,
    word_count,
)

_HEADING_NUMBER = re.compile(r"^(?:#{1,6}\s+|(?:\d+(?:\.\d+)*|[IVX]+|[A-Z])\.?\s+)")


@dataclass(frozen=True)
class SegmentationConfig:
    """Sizes in words. min/max bound a cluster; `join_similarity` is the cosine between the end of the current
    cluster and the start of a small next piece above which that piece continues the same topic.

    40-120 words: on SQuAD dev (300 questions, context = memory entry + deep retrieval per node in rank order)
    these beat 60-160 and 90-220 at a 250-word budget (0.86 vs 0.82 vs 0.79) because one node plus its memory
    entry fits the budget; a shorter topic line (16 words) and 6 keywords keep that entry small.
    """

    min_words: int = 40
    max_words: int = 120
    join_similarity: float = 0.35
    keywords: int = 6
    context_words: int = 16


WINDOW_CLUSTERS = SegmentationConfig(min_words=200, max_words=500)
"""Clusters for a pipeline whose agents are LLMs, when the document's structure stands in for the classification
model (`rules_first.classification_rule`): each cluster costs a summary item and an analysis node, so they are a
section up to ~500 words rather than retrieval-sized. On NIST's first 19 pages (scripted model, calls counted)
the offline 40-120 words made 92 nodes and 35 analysis calls of 73.5k prompt tokens; the model's own clustering
52 nodes and 17 calls (32.2k) after 5 classification calls (14.2k); 200-500 words 47 nodes and 16 calls (31.5k)
with no classification call."""


@dataclass(frozen=True)
class Unit:
    """A paragraph or a piece of one, as a verbatim span."""

    start: int
    end: int
    words: int
    heading: bool
    group: int | None = None  # the list or table it belongs to (its pieces join only each other)
    section: str | None = None  # the title of its section, when the structure is known


def is_heading(text: str) -> bool:
    """A short line without a sentence end: a section title (also '3.1 Scope', '# Intro')."""
    line = " ".join(text.split())
    if not line or "\n" in text.strip() or word_count(line) > 12 or line[-1] in ".?!,;:":
        return False
    return bool(_HEADING_NUMBER.match(line)) or line[:1].isupper() or line.isupper()


class OfflineClassifier:
    name = "classification"

    def __init__(self, embedder: Embedder | None = None, config: SegmentationConfig | None = None) -> None:
        self.embedder = embedder
        self.config = config or SegmentationConfig()

    def sized(self, config: SegmentationConfig) -> OfflineClassifier:
        """The same classifier cutting clusters of another size."""
        return OfflineClassifier(self.embedder, config)

    def run(self, inp: ClassificationInput) -> ClassificationOutput:
        text = inp.context
        units = self._hinted_units(text, inp.units) if inp.units else self._units(text)
        if not units:
            return ClassificationOutput(should_cluster=False, clusters=[])
        groups = self._group(text, units)
        idf = Idf([content_tokens(text[u.start:u.end]) for u in units])
        clusters = [self._cluster(i, text, group, heading, idf) for i, (group, heading) in enumerate(groups)]
        return ClassificationOutput(should_cluster=len(clusters) > 1, clusters=clusters)

    # --- units ---------------------------------------------------------------------------------------------------

    def _units(self, text: str) -> list[Unit]:
        units: list[Unit] = []
        for para in paragraph_spans(text):
            words = word_count(para.text)
            if words <= self.config.max_words:
                units.append(Unit(para.start, para.end, words, is_heading(para.text)))
            else:
                units.extend(self._split_long(text, para))
        return units

    def _hinted_units(self, text: str, hints: list[UnitHint]) -> list[Unit]:
        """The structure's pieces as units. A list's items and a table's rows keep their unit as a group; turns
        of one session form one group too (a session's talk fills clusters, never cut mid-turn). An over-long
        paragraph is cut at sentence ends as without structure: one node per 300-word paragraph would halve the
        nodes of a prose book and cost the block its precision."""
        units: list[Unit] = []
        for hint in hints:
            piece = text[hint.start:hint.end]
            if not piece.strip():
                continue
            grouped = hint.kind in ("item", "row")
            group = hint.group if grouped else (-1 if hint.kind == "turn" else None)
            words = word_count(piece)
            if hint.kind == "paragraph" and words > self.config.max_words:
                units.extend(replace(u, section=hint.section)
                             for u in self._split_long(text, Span(hint.start, hint.end, piece)))
                continue
            units.append(Unit(hint.start, hint.end, words, hint.kind == "heading", group, hint.section))
        return units

    def _split_long(self, text: str, para: Span) -> list[Unit]:
        """Cut an over-long paragraph at sentence ends into pieces of about equal size, none over `max_words`
        unless a single sentence is."""
        sents = sentence_spans(text, para.start, para.end)
        total = sum(word_count(s.text) for s in sents)
        pieces = max(2, round(total / ((self.config.min_words + self.config.max_words) / 2)))
        target = total / pieces
        units: list[Unit] = []
        start, count = sents[0].start, 0
        for i, sent in enumerate(sents):
            size = word_count(sent.text)
            if count and (count >= target or count + size > self.config.max_words):
                units.append(Unit(start, sents[i - 1].end, count, False))
                start, count = sent.start, 0
            count += size
        units.append(Unit(start, sents[-1].end, count, False))
        return units

    # --- grouping ------------------------------------------------------------------------------------------------

    def _similarity(self, text: str, before: Unit, after: Unit) -> float:
        """How well a small piece continues the topic before it: the last sentence before the boundary against
        the first one after it. Asked only where the grouping depends on it. tf-idf cosine by default; with an
        embedder, embedding cosine (one call per boundary: on a PDF with many short paragraphs, such as the
        NIST one, that cost 20 s of ingestion, so the engine does not pass one)."""
        tail = _edge_text(text, before, tail=True)
        head = _edge_text(text, after, tail=False)
        if self.embedder is not None:
            vectors = self.embedder.embed([tail, head])
            return float(vectors[0] @ vectors[1])
        idf = Idf([content_tokens(tail), content_tokens(head)])
        return cosine(tfidf_vector(content_tokens(tail), idf), tfidf_vector(content_tokens(head), idf))

    def _group(self, text: str, units: list[Unit]) -> list[tuple[list[Unit], str | None]]:
        """Greedy left-to-right grouping; each group remembers the heading in force where it ends."""
        groups: list[tuple[list[Unit], str | None]] = []
        current: list[Unit] = []
        heading: str | None = None
        size = 0
        for i, unit in enumerate(units):
            similarity = partial(self._similarity, text, units[i - 1], unit)
            if current and (_apart(current[-1], unit) or self._starts_new(current, size, unit, similarity)):
                groups.append((current, heading))
                current, size = [], 0
            current.append(unit)
            size += unit.words
            if unit.section is not None:
                heading = unit.section or None
            elif unit.heading:
                heading = " ".join(text[unit.start:unit.end].split()).lstrip("# ")
        if current:
            groups.append((current, heading))
        return groups

    def _starts_new(self, current: list[Unit], size: int, unit: Unit, similarity: Callable[[], float]) -> bool:
        cfg = self.config
        if all(u.heading for u in current):
            return False  # a heading always stays with what follows it, even past max_words
        if unit.heading:
            return True
        if size + unit.words > cfg.max_words:
            return True
        if size < cfg.min_words or (unit.group is not None and unit.group == current[-1].group):
            return False  # one list's items, one table's rows and a conversation's turns fill a cluster up
        return unit.words >= cfg.min_words or similarity() < cfg.join_similarity

    # --- one cluster ---------------------------------------------------------------------------------------------

    def _cluster(self, index: int, text: str, group: list[Unit], heading: str | None, idf: Idf) -> Cluster:
        content = text[group[0].start:group[-1].end]
        body = " ".join(text[u.start:u.end] for u in group if not u.heading) or content
        context = self._context(body, heading, idf)
        keywords = keyphrases(body, idf, self.config.keywords)
        return Cluster(cluster_id=f"c{index + 1}", context=context, content=content, keywords=keywords)

    def _context(self, body: str, heading: str | None, idf: Idf) -> str:
        """Section heading plus the cluster's most central sentence: the topic in one line."""
        central = central_sentence(body, idf)
        line = f"{heading}: {central}" if heading else central
        return trim_words(line, self.config.context_words) or trim_words(body, self.config.context_words)


def _apart(last: Unit, unit: Unit) -> bool:
    """Pieces that never share a cluster: two sections' text, and a list or table beside anything but itself. A
    heading still stays with what follows it."""
    if last.section is None or unit.section is None or last.heading:
        return False
    if last.section != unit.section:
        return True
    return last.group != unit.group and (last.group is not None or unit.group is not None)


def central_sentence(body: str, idf: Idf) -> str:
    sents = [" ".join(s.text.split()) for s in sentence_spans(body)]
    if len(sents) <= 1:
        return sents[0] if sents else ""
    vectors = [tfidf_vector(content_tokens(s), idf) for s in sents]
    centroid: dict[str, float] = {}
    for vec in vectors:
        for term, weight in vec.items():
            centroid[term] = centroid.get(term, 0.0) + weight
    scores = [cosine(v, centroid) for v in vectors]
    best = max(range(len(sents)), key=lambda i: (scores[i], -i))
    return sents[best]


def _edge_text(text: str, unit: Unit, *, tail: bool) -> str:
    sents = sentence_spans(text, unit.start, unit.end)
    picked = sents[-1] if tail else sents[0]
    return " ".join(picked.text.split())

