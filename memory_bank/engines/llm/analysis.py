"""Analysis agent (LLM): a new node against its retrieved candidates -> one relation per candidate (DESIGN §3.3).

One call judges all candidates, so the model compares them side by side and the priority conflict > merge >
related > unrelated is applied per pair in one place. Judgements about ids that are not candidates (the model
inventing or mistyping an id) are dropped here, so the loop never touches a node nobody asked about.

Several new nodes can share one call (`run_batch`, prompt `analysis_batch`): their candidates are listed once
(consecutive nodes of a document mostly share them), each new node names its candidates by id, and each node's
judgements are checked against its own candidates only. Batches are planned with each candidate at most
1/`CANDIDATE_SHARE` of the items' budget, and a call whose candidates do not fit whole lists each by its context,
keywords and the opening of its summary: listed whole, the NIST PDF's candidates (~200 tokens each, five a node)
filled a local model's 1,536-token share with one new node, and 105 of 120 analysis calls carried one node. The
new nodes, the ones being judged, are always shown whole, and so is every candidate of a call that fits (the notes
sample's calls: a duplicate is judged against its whole text).

Each call's schema (`analysis_schema.py`) gives every new node exactly its candidates, one judgement each, in
order, so a grammar-constrained reply judges them all (with "at least one judgement" the local model judged each
node against its first candidate only); a reply from an endpoint that ignores schemas and leaves a candidate
unjudged is asked again for that node, then handed to the offline agent, as any invalid item.

The new node's rewrite is asked once a node, after its judgements (`context_update_new`, `keywords_update_new`
beside `relationships`). A reply in the older shape, the new node's rewrite inside each related judgement (an
endpoint that ignores schemas, a prompt of before), is still read: the node-level field wins, else the last related
judgement's (what the linker applied when each judgement carried one).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, field_validator

from ...memory.query_graph import Relation
from ...text.split import cut_point
from ...text.tokens import chars_for_tokens, estimate_tokens
from ..models import AnalysisInput, AnalysisOutput, NodeInfo, RelationJudgement
from .analysis_schema import batch_schema, missing, single_schema
from .batch import REPLY_OVERHEAD, BatchRequest
from .client import ResponseSchema
from .common import BatchedAgent, json_lines, node_json, nodes_json

CANDIDATE_SHARE = 24  # a candidate listed in a batch takes at most this fraction of the items' prompt budget:
# on a local model's 1,536 tokens, 64 (its context and keywords, and ~250 characters of its summary), so about
# three new nodes of five candidates fit a call; on a remote window (12,000) 500 tokens, every summary whole
NODE_OVERHEAD = 30  # prompt tokens of a node's JSON keys and its candidate ids


class LenientJudgement(RelationJudgement):
    """Accepts "Conflict" or " merge " for the relation; the meaning is unambiguous. Reads the new node's rewrite
    where replies of the older shape put it, in each related judgement."""

    context_update_new: str | None = None
    keywords_update_new: list[str] | None = None

    @field_validator("relationship", mode="before")
    @classmethod
    def _normalise(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


class AnalysisReply(BaseModel):
    """`relationships` has no default: an empty object judged nothing (it is asked again). The new node's rewrite
    follows, once, and may be absent."""

    relationships: list[LenientJudgement]
    context_update_new: str | None = None
    keywords_update_new: list[str] | None = None


class AnalysisItem(AnalysisReply):
    id: str


def _node_tokens(node: NodeInfo) -> int:
    return estimate_tokens(node.summary) + estimate_tokens(node.context) + NODE_OVERHEAD + 4 * len(node.keywords)


class AnalysisAgent(BatchedAgent[AnalysisInput, AnalysisOutput]):
    name = "analysis"
    prompt_name = "analysis"
    batch_prompt_name = "analysis_batch"
    item_prefix = "n"
    max_string = 300
    per_candidate_tokens = 200  # a relation, its reasoning and the optional rewrites, at the string bound
    planned_candidate_tokens = 120  # what a judgement takes in a typical reply: batches are planned with it, and
    # a reply that runs out of room anyway keeps its complete items and re-asks for the rest

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        if not inp.candidates:
            return AnalysisOutput()
        wanted = judged(inp)

        def check(reply: AnalysisReply) -> None:
            problem = missing(wanted, [j.existing_node_id for j in reply.relationships])
            if problem is not None:
                raise ValueError(problem)

        count = len(inp.candidates)
        reply = self._ask(AnalysisReply, schema=single_schema(wanted), check=check,
                          max_tokens=64 + count * self.per_candidate_tokens, new_node=node_json(inp.new_node),
                          candidates=nodes_json(inp.candidates), candidate_count=count)
        return _output(reply, inp)

    def asks(self, inp: AnalysisInput) -> bool:
        return bool(inp.candidates)

    def cost(self, inp: AnalysisInput, group: Sequence[AnalysisInput]) -> tuple[int, int]:
        """A candidate the group already lists costs nothing more (it is listed once a call)."""
        listed = {c.id for other in group for c in other.candidates}
        chars = self._candidate_chars()
        prompt = _node_tokens(inp.new_node) + sum(_node_tokens(shown(c, chars)) for c in inp.candidates
                                                  if c.id not in listed)
        return prompt, self.planned_candidate_tokens * len(inp.candidates)

    def plan_batches(self, inputs: Sequence[AnalysisInput]) -> list[list[int]]:
        """Inputs without candidates make no call (as `run` makes none); the rest are grouped."""
        asking = [i for i, inp in enumerate(inputs) if inp.candidates]
        groups = super().plan_batches([inputs[i] for i in asking])
        return [[asking[j] for j in g] for g in groups] + [[i] for i, inp in enumerate(inputs) if not inp.candidates]

    def _request(self, by_id: dict[str, AnalysisInput]) -> BatchRequest[AnalysisItem]:
        chars, room = self._candidate_chars(), self.limits().prompt_tokens

        def listed(ids: list[str]) -> dict[str, NodeInfo]:
            """The call's candidates, whole when they fit its budget, else each by its opening."""
            existing = {c.id: c for i in ids for c in by_id[i].candidates}
            whole = sum(_node_tokens(by_id[i].new_node) for i in ids) + sum(map(_node_tokens, existing.values()))
            return existing if whole <= room else {k: shown(c, chars) for k, c in existing.items()}

        def render(ids: list[str]) -> list:
            existing = listed(ids)
            items = [{**by_id[i].new_node.model_dump(), "id": i, "candidates": judged(by_id[i])} for i in ids]
            return self._render_batch(existing_count=len(existing), count=len(ids),
                                      existing=json_lines(c.model_dump() for c in existing.values()),
                                      items=json_lines(items))

        def schema(ids: list[str]) -> ResponseSchema:
            """One entry per item asked, in order, each judging exactly its own candidates, in order."""
            return batch_schema([(i, judged(by_id[i])) for i in ids])

        def check(i: str, item: AnalysisItem) -> str | None:
            """A remote endpoint may ignore the schema: an item that leaves a candidate unjudged is asked again."""
            return missing(judged(by_id[i]), [j.existing_node_id for j in item.relationships])

        return BatchRequest(ids=list(by_id), render=render, item_model=AnalysisItem,
                            reply_tokens=lambda ids: min(self.limits().reply_tokens, REPLY_OVERHEAD + sum(
                                self.per_candidate_tokens * len(by_id[i].candidates) for i in ids)),
                            schema=schema, check=check)

    def _candidate_chars(self) -> int:
        return chars_for_tokens(self.limits().prompt_tokens // CANDIDATE_SHARE)

    def _output(self, inp: AnalysisInput, item: BaseModel) -> AnalysisOutput:
        assert isinstance(item, AnalysisReply)
        return _output(item, inp)


def shown(node: NodeInfo, chars: int) -> NodeInfo:
    """`node` as a batch lists a candidate: its summary cut at a sentence end (else a word) within `chars`,
    marked as cut with an ellipsis; a summary that fits is left whole."""
    if len(node.summary) <= chars:
        return node
    end = cut_point(node.summary, 0, chars)
    return node.model_copy(update={"summary": node.summary[:end].rstrip() + " …"})


def judged(inp: AnalysisInput) -> list[str]:
    """The candidates a new node is judged against, in retrieval order: each once, never the node itself."""
    return [c for c in dict.fromkeys(c.id for c in inp.candidates) if c != inp.new_node.id]


def _output(reply: AnalysisReply, inp: AnalysisInput) -> AnalysisOutput:
    """The judgements about real candidates, and the new node's rewrite: the reply's own, field by field, else the
    last related judgement's that carries one (the older shape)."""
    context, words = reply.context_update_new, reply.keywords_update_new
    candidates = set(judged(inp))
    for j in reply.relationships:
        if j.relationship is Relation.RELATED and j.existing_node_id in candidates:
            context = reply.context_update_new or j.context_update_new or context
            words = reply.keywords_update_new or j.keywords_update_new or words
    return AnalysisOutput(relationships=_known_only(reply.relationships, inp), context_update_new=context,
                          keywords_update_new=words)


def _known_only(judgements: list[LenientJudgement], inp: AnalysisInput) -> list[RelationJudgement]:
    """One judgement per real candidate (the first given), in the model's order; a conflict keeps a description."""
    wanted = {c.id for c in inp.candidates} - {inp.new_node.id}
    kept: list[RelationJudgement] = []
    for j in judgements:
        if j.existing_node_id not in wanted:
            continue
        wanted.discard(j.existing_node_id)
        data = j.model_dump(exclude={"context_update_new", "keywords_update_new"})
        if j.relationship is Relation.CONFLICT and not (j.conflict_description or "").strip():
            data["conflict_description"] = j.reasoning or "the two nodes contradict each other"
        kept.append(RelationJudgement(**data))
    return kept
