"""Offline analysis: judge a new node against its retrieved candidates without an LLM.

Relations are tested in the design's priority order (conflict > merge > related > unrelated):
- conflict: the two nodes' raw texts share long runs of words and differ in one or two local value slots
  (a number, date or name) — an edited copy or a restated claim (see `contradiction.py`); not a document's
  parallel passages, which align like edited copies (`parallels.py`);
- merge: most of the shorter text sits inside long runs shared with the other, with no value changed;
- related: the node embeddings are close, or moderately close with a shared keyword;
- unrelated: everything else.

Raw text comes from the memory view (the entries behind each node), so a claim the summary dropped can still
be compared; the summary stands in when a node has no entry yet. Thresholds are documented in `AnalysisConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...memory.query_graph import Relation
from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ..models import AnalysisInput, AnalysisOutput, NodeInfo, RelationJudgement
from .contradiction import Alignment, Substitution, Token, align, align_tokens, shingles
from .parallels import parallel


@dataclass(frozen=True)
class AnalysisConfig:
    """Thresholds, chosen on the dev data (bench/OFFLINE_RESULTS.md has the measurements).

    conflict_coverage 0.5, conflict_max_distinct 2, conflict_max_slots 3: on RAMDocs dev, edited copies of a
    correct document share ≥ 0.6 of their words in runs of ≥ 3 and change one value (sometimes repeated, or once
    more as a spelling variant); pages about different people or things of the same name share less (≤ 0.45)
    or differ in more places (≥ 4 slots).
    merge_coverage 0.85, merge_length_ratio 0.5: a re-scraped copy of the same page (spacing, punctuation)
    aligns at ≥ 0.9, two SQuAD paragraphs of one article at < 0.2; a short text contained in a long one (a
    heading and the table of contents listing it) is not a duplicate, hence the length ratio.
    max_related 3: the NIST PDF is about one topic throughout, and without a cap every node linked to nearly
    every candidate (up to 57 edges a node), which floods the memory prompt with neighbours.
    related_similarity 0.55 / keyword_similarity 0.40: over the top-5 candidates of every SQuAD dev node,
    cosine ≥ 0.55 held for 44% of the same-article pairs and 5% of the cross-article ones (0.50: 66% / 12%);
    a shared key phrase is evidence enough from 0.40 on.
    """

    conflict_coverage: float = 0.5
    conflict_max_distinct: int = 2
    conflict_max_slots: int = 3
    merge_coverage: float = 0.85
    merge_length_ratio: float = 0.5
    max_related: int = 3
    texts_kept: int = 4096  # nodes' texts whose words are kept between pairs (a few MB)
    related_similarity: float = 0.55
    keyword_similarity: float = 0.40
    min_shared_shingles: int = 3


class OfflineAnalyzer:
    name = "analysis"

    def __init__(self, embedder: Embedder, view: MemoryView | None = None,
                 config: AnalysisConfig | None = None) -> None:
        self.embedder = embedder
        self.view = view
        self.config = config or AnalysisConfig()
        # a node is a candidate of many new nodes: its words and shingles are read once per text, not per pair
        self._read: dict[str, tuple[list[Token], set[tuple[str, ...]]]] = {}

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        nodes = [inp.new_node, *inp.candidates]
        vectors = self.embedder.embed([_embedding_text(n) for n in nodes])
        sims = vectors[1:] @ vectors[0] if len(nodes) > 1 else np.zeros(0)
        ours = self._tokens(self._raw_text(inp.new_node))
        judgements = [self._judge(inp.new_node, ours, cand, float(sim))
                      for cand, sim in zip(inp.candidates, sims)]
        return AnalysisOutput(relationships=self._cap_related(judgements, [float(s) for s in sims]))

    def _cap_related(self, judgements: list[RelationJudgement], sims: list[float]) -> list[RelationJudgement]:
        """Only the `max_related` most similar related candidates keep the relation (ties: candidate order)."""
        related = [i for i, j in enumerate(judgements) if j.relationship is Relation.RELATED]
        keep = set(sorted(related, key=lambda i: (-sims[i], i))[: self.config.max_related])
        return [j if j.relationship is not Relation.RELATED or i in keep else
                j.model_copy(update={"relationship": Relation.UNRELATED,
                                     "reasoning": j.reasoning + "; more similar candidates were linked"})
                for i, j in enumerate(judgements)]

    def _raw_text(self, node: NodeInfo) -> str:
        if self.view is None:
            return node.summary
        entries = self.view.entries_for(node.id)
        return "\n\n".join(e.text for e in entries) if entries else node.summary

    def _tokens(self, text: str) -> tuple[list[Token], set[tuple[str, ...]]]:
        """The text's alignment tokens and shingles, kept for the next pair that reads the same text (bounded:
        the oldest are let go)."""
        known = self._read.get(text)
        if known is None:
            tokens = align_tokens(text)
            known = (tokens, shingles(tokens))
            if len(self._read) >= self.config.texts_kept:
                self._read.pop(next(iter(self._read)), None)
            self._read[text] = known
        return known

    def _judge(self, new: NodeInfo, read: tuple[list[Token], set[tuple[str, ...]]], cand: NodeInfo,
               sim: float) -> RelationJudgement:
        cfg = self.config
        (ours, our_shingles), (theirs, their_shingles) = read, self._tokens(self._raw_text(cand))
        alignment = None
        if len(our_shingles & their_shingles) >= cfg.min_shared_shingles:
            alignment = align(ours, theirs)
        if alignment is not None and self._is_conflict(alignment) and not parallel(
                new, cand, self._raw_text(new), self._raw_text(cand), alignment.distinct):
            subs = "; ".join(s.describe() for s in alignment.distinct)
            return RelationJudgement(
                existing_node_id=cand.id, relationship=Relation.CONFLICT,
                reasoning=f"{alignment.coverage:.0%} of the shorter text is shared word for word, but: {subs}",
                conflict_description=f"'{new.context[:80]}' and '{cand.context[:80]}' disagree: {subs}")
        if alignment is not None and self._is_duplicate(alignment, len(ours), len(theirs)):
            return RelationJudgement(
                existing_node_id=cand.id, relationship=Relation.MERGE,
                reasoning=f"near-duplicate: {alignment.coverage:.0%} of the shorter text is shared word for word")
        shared = _shared_keywords(new, cand)
        if sim >= cfg.related_similarity or (shared and sim >= cfg.keyword_similarity):
            why = f"similarity {sim:.2f}" + (f", shared keywords: {', '.join(shared)}" if shared else "")
            return RelationJudgement(existing_node_id=cand.id, relationship=Relation.RELATED, reasoning=why)
        return RelationJudgement(existing_node_id=cand.id, relationship=Relation.UNRELATED,
                                 reasoning=f"similarity {sim:.2f}")

    def disagreements(self, a: NodeInfo, b: NodeInfo) -> list[Substitution]:
        """The values (number, date, name) the two nodes' texts state differently where their words line up;
        empty when they share too little to compare or nothing shared differs. Looser than `_is_conflict` (no
        coverage or slot bounds): it vetoes an LLM's conflict only when there is no such difference at all."""
        (ours, our_shingles), (theirs, their_shingles) = (self._tokens(self._raw_text(a)),
                                                          self._tokens(self._raw_text(b)))
        if len(our_shingles & their_shingles) < self.config.min_shared_shingles:
            return []
        return align(ours, theirs).distinct

    def _is_duplicate(self, alignment: Alignment, ours: int, theirs: int) -> bool:
        cfg = self.config
        return (alignment.coverage >= cfg.merge_coverage and not alignment.substitutions
                and min(ours, theirs) >= cfg.merge_length_ratio * max(ours, theirs))

    def _is_conflict(self, alignment: Alignment) -> bool:
        cfg = self.config
        distinct = alignment.distinct
        return (bool(distinct) and len(distinct) <= cfg.conflict_max_distinct
                and len(distinct) + alignment.other_slots <= cfg.conflict_max_slots
                and alignment.coverage >= cfg.conflict_coverage)


def _embedding_text(node: NodeInfo) -> str:
    """The same text the pipeline embeds for a node (`Node.embedding_text`), so the embedder's cache answers."""
    return f"{node.summary}\n{node.context}\n{' '.join(node.keywords)}"


def _shared_keywords(a: NodeInfo, b: NodeInfo) -> list[str]:
    theirs = {k.lower() for k in b.keywords}
    return [k for k in a.keywords if k.lower() in theirs]
