"""Linking new nodes into the graph: retrieve -> analyse -> apply (DESIGN §1, §4).

For each new node the analysis agent judges its retrieved candidates; the relation with the highest priority
wins per pair (conflict > merge > related > unrelated). A `merge` is integrated at once and the merged node goes
through retrieval again, excluding its inherited neighbours, until only related/unrelated remain. A `conflict`
is recorded as pending; the loop's CROSS_VALIDATE task later calls `resolve_conflict`.

Analysis calls for a batch of new nodes run concurrently against the graph as it stands (an LLM analysis agent
carries several new nodes a call, and is sent only the candidates whose embedding is close enough to the new
node's: `analysis_min_similarity`); each node only judges nodes that were there before it, and judgements are
applied in input order. A judgement about a node that was
merged in the meantime follows the merge to its successor (`Memory.resolve_id`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..engines.base import Engine
from ..engines.models import (
    AnalysisInput,
    AnalysisOutput,
    IntegrationInput,
    NodeInfo,
    NodeWithNeighbors,
    RelationJudgement,
    Verdict,
)
from ..errors import STOPS_THE_RUN, MemoryBankError, RunError
from ..events import ErrorRaised, EventBus
from ..memory.query_graph import Node, PendingConflict, Relation
from ..memory.store import Memory
from ..retrieval.retriever import Retriever
from ..settings import Settings
from ..text.furniture import in_furniture_section
from .graph_ops import GraphOps
from .parallel import agent_concurrency, map_agent

MAX_RELINK_DEPTH = 3


class Merged(NamedTuple):
    node: Node
    failures: list[RunError]  # re-linking the merged node records failures instead of raising
    rejected: str | None = None  # for a conflict: the side whose claim the validation rejected


def _judged(out: AnalysisOutput, candidates: list[Node]) -> AnalysisOutput:
    """The judgements about the given candidates only (and the new node's own rewrite)."""
    allowed = {c.id for c in candidates}
    return out.model_copy(update={"relationships": [j for j in out.relationships if j.existing_node_id in allowed]})


def node_info(node: Node) -> NodeInfo:
    return NodeInfo(id=node.id, summary=node.summary, context=node.context, keywords=list(node.keywords),
                    documents=sorted({s.name for s in node.sources}),
                    sections=sorted({" > ".join(s.section) for s in node.sources if s.section}))


class Linker:
    def __init__(self, engine: Engine, ops: GraphOps, retriever: Retriever, memory: Memory, settings: Settings,
                 events: EventBus, check_cancel: Callable[[], None]) -> None:
        self.engine, self.ops, self.retriever, self.memory = engine, ops, retriever, memory
        self.settings, self.events = settings, events
        self.check_cancel = check_cancel

    def link_new(self, nodes: list[Node], on_linked: Callable[[int], None] | None = None,
                 check: Callable[[], None] | None = None) -> list[RunError]:
        """Analyse and apply every new node; returns the failures (recorded, not raised). `check` runs before
        each call, a merge's and a re-link's too (the pipeline's: the cancellation and the time budget)."""
        check = check or self.check_cancel
        failures: list[RunError] = []
        size = max(1, self.settings.llm_concurrency * 2 * self._items_per_call())
        for start in range(0, len(nodes), size):
            batch = nodes[start:start + size]
            with self.memory.read():
                later = [{n.id for n in batch[i + 1:]} for i in range(len(batch))]
                candidates = [self._close(n, self.retriever.candidates_for(n, exclude=ex))
                              for n, ex in zip(batch, later)]
            asking = [i for i, cs in enumerate(candidates) if cs]  # a node with no candidate has nothing to judge
            inputs = [AnalysisInput(new_node=node_info(batch[i]), candidates=[node_info(c) for c in candidates[i]])
                      for i in asking]
            limit = agent_concurrency(self.engine, self.settings)
            outs = dict(zip(asking, map_agent(self.engine.analysis, inputs, limit, before_each=check)))
            results: list[AnalysisOutput | MemoryBankError] = []
            for i in range(len(batch)):
                out = outs.get(i)
                results.append(out if isinstance(out, MemoryBankError) else AnalysisOutput() if out is None
                               else _judged(out, candidates[i]))
            for node, result in zip(batch, results):
                if isinstance(result, MemoryBankError):
                    failures.append(self._fail(f"analysis of '{node.context[:60]}'", result))
                else:
                    failures.extend(self._apply(node.id, result, depth=0, check=check))
            if on_linked is not None:
                on_linked(min(start + size, len(nodes)))
        return failures

    def _items_per_call(self) -> int:
        return self.settings.llm_batch_items if self.settings.engine_for("analysis") == "llm" else 1

    def _close(self, node: Node, candidates: list[Node]) -> list[Node]:
        """The candidates an LLM analysis is sent: those close enough to `node` (a pair retrieval only reached
        through a neighbour, far in meaning, would cost tokens to be called unrelated). The offline analysis
        costs nothing per pair and judges them all."""
        least = self.settings.analysis_min_similarity
        if least <= 0 or node.embedding is None or self.settings.engine_for("analysis") != "llm":
            return candidates
        return [c for c in candidates if c.embedding is None or float(c.embedding @ node.embedding) >= least]

    def _analyse(self, pair: tuple[Node, list[Node]]) -> AnalysisOutput:
        node, candidates = pair
        candidates = self._close(node, candidates)
        if not candidates:
            return AnalysisOutput()
        # as a batch of one: the same prompt as the wave's calls, so the server's prompt cache serves its prefix
        (out,) = map_agent(self.engine.analysis, [AnalysisInput(new_node=node_info(node),
                                                               candidates=[node_info(c) for c in candidates])], 1)
        if isinstance(out, MemoryBankError):
            raise out
        return _judged(out, candidates)

    def _fail(self, where: str, exc: MemoryBankError) -> RunError:
        self.events.publish(ErrorRaised(where=where, message=str(exc)))
        return RunError.of(where, exc)

    def _apply(self, node_id: str, out: AnalysisOutput, depth: int,
               check: Callable[[], None] | None = None) -> list[RunError]:
        buckets: dict[Relation, list[tuple[str, RelationJudgement]]] = {r: [] for r in Relation}
        with self.memory.write():
            node_id = self.memory.resolve_id(node_id) or ""
            if not node_id:
                return []
            best: dict[str, RelationJudgement] = {}
            for j in out.relationships:
                other = self.memory.resolve_id(j.existing_node_id)
                if other and other != node_id and (other not in best
                                                   or j.relationship.priority < best[other].relationship.priority):
                    best[other] = j
            for other, j in best.items():
                buckets[j.relationship].append((other, j))
            for other, j in buckets[Relation.CONFLICT]:
                if self._states_claims(node_id) and self._states_claims(other):
                    self.ops.flag_conflict(node_id, other, j.conflict_description or j.reasoning or "contradiction")
                else:
                    buckets[Relation.RELATED].append((other, j))
            merges, apart = self._apart(node_id, buckets[Relation.MERGE])
            buckets[Relation.MERGE] = merges
            self._relate(node_id, buckets[Relation.RELATED] + apart, out)
        merge_ids = [other for other, _ in buckets[Relation.MERGE]]
        if not merge_ids:
            return []
        reasons = "; ".join(j.reasoning for _, j in buckets[Relation.MERGE] if j.reasoning)
        try:
            failures = self.integrate([node_id, *merge_ids], kind="merge", reason=reasons, depth=depth,
                                      check=check).failures
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            return [self._fail("merge of near-duplicate nodes", exc)]
        return failures

    def _states_claims(self, node_id: str) -> bool:
        """Document furniture (a reference list, a table of contents, a notice) states no claim a source could
        contradict: two reference lists that cite "Software Asset Management" and "Hardware Asset Management"
        after the same words were a pending conflict on the NIST PDF. Such a pair is only related. So is a
        passage read under a furniture heading, whatever its own shape: two lines of a 10-K's index of exhibits
        ("4.14 Officer's Certificate … dated as of May 11, 2017" / "4.5 … November 10, 2014") name documents
        filed elsewhere."""
        node = self.memory.graph.get(node_id)
        return not node.role.is_furniture and not any(in_furniture_section(s.section) for s in node.sources)

    def _apart(self, node_id: str, merges: list[tuple[str, RelationJudgement]]
               ) -> tuple[list[tuple[str, RelationJudgement]], list[tuple[str, RelationJudgement]]]:
        """Split the merge candidates into those that may join `node_id` and those kept apart: a merge putting
        both sides of a pending conflict into one node would close it as moot, unexamined, so such a candidate is
        only related and the conflict waits for its cross-validation."""
        pending = [{c.node_a, c.node_b} for c in self.memory.pending_conflicts()]
        joined, kept, apart = {node_id}, [], []
        for other, j in merges:
            if any(pair <= joined | {other} for pair in pending):
                apart.append((other, j))
            else:
                joined.add(other)
                kept.append((other, j))
        return kept, apart

    def _relate(self, node_id: str, related: list[tuple[str, RelationJudgement]], out: AnalysisOutput) -> None:
        """Edges to the related candidates, each candidate's rewrite, and the new node's own rewrite, once: only
        when something is related (the rewrite states the node's topic in the light of its links)."""
        updates: dict[str, tuple[str | None, list[str] | None]] = {}
        for other, j in related:
            self.ops.add_edge(node_id, other)
            updates[other] = (j.context_update_existing, j.keywords_update_existing)
        if related and (out.context_update_new or out.keywords_update_new):
            updates[node_id] = (out.context_update_new, out.keywords_update_new)
        if updates:
            self.ops.update_context(updates)

    def integrate(self, node_ids: list[str], *, kind: str, reason: str = "", validation: str | None = None,
                  verdict: Verdict | None = None, conflict_description: str | None = None, depth: int = 0,
                  check: Callable[[], None] | None = None) -> Merged:
        """Merge nodes with the integration agent, then re-link the result. Raises on agent failure. `check`
        runs before the merge's call and the re-link's."""
        with self.memory.read():
            ids = list(dict.fromkeys(i for i in (self.memory.resolve_id(n) for n in node_ids) if i))
            inputs = [NodeWithNeighbors(node=node_info(self.memory.graph.get(i)),
                                        neighbors=[node_info(self.memory.graph.get(nb))
                                                   for nb in self.memory.graph.neighbors(i) if nb not in ids])
                      for i in ids]
        if len(ids) < 2:
            raise MemoryBankError("nothing left to merge: the nodes were already merged")
        if check is not None:
            check()
        out = self.engine.integration.run(IntegrationInput(nodes_to_merge=inputs, validation_result=validation,
                                                           verdict=verdict, conflict_description=conflict_description))
        description = out.interaction_tree_description or reason or f"{kind} of {len(ids)} nodes"
        with self.memory.write():
            node, inherited = self.ops.merge(ids, summary=out.summary, context=out.context,
                                             keywords=out.keywords, description=description, kind=kind)
            updates: dict[str, tuple[str | None, list[str] | None]] = {
                nid: (u.context, u.keywords or None) for nid, u in out.neighbor_updates.items() if nid in inherited}
            if updates:
                self.ops.update_context(updates)
        rejected = out.rejected_node_id if out.rejected_node_id in ids else None
        return Merged(node, self._relink(node, set(inherited), depth + 1, check), rejected)

    def _relink(self, node: Node, inherited: set[str], depth: int,
                check: Callable[[], None] | None = None) -> list[RunError]:
        if depth > MAX_RELINK_DEPTH:
            return []
        with self.memory.read():
            candidates = self.retriever.candidates_for(node, exclude=inherited)
        try:
            if check is not None:
                check()
            judged = self._analyse((node, candidates))
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            return [self._fail(f"analysis of merged node '{node.context[:60]}'", exc)]
        return self._apply(node.id, judged, depth, check)

    def resolve_conflict(self, conflict: PendingConflict, validation: str, verdict: Verdict | None = None) -> Node:
        """CROSS_VALIDATE: merge the two sides using the validation result (its text, and the typed verdict when
        the executor reached one), then mark the conflict resolved.

        While validating, the conflict is taken out of the pending set so the merge does not close it as moot;
        if the merge fails it is marked failed (not pending again), so planning does not retry it forever.
        """
        conflict = self.ops.begin_validation(conflict.id)
        try:
            merged = self.integrate([conflict.node_a, conflict.node_b], kind="conflict", validation=validation,
                                    verdict=verdict, conflict_description=conflict.description,
                                    reason=conflict.description)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            self.ops.resolve_conflict(conflict.id, None, f"validation failed: {exc}", status="failed")
            raise
        self.ops.resolve_conflict(conflict.id, merged.node.id, validation[:1000], rejected_node=merged.rejected)
        return merged.node
