"""Analysis agent (LLM): a new node against its retrieved candidates -> one relation per candidate (DESIGN §3.3).

One call judges all candidates, so the model compares them side by side and the priority conflict > merge >
related > unrelated is applied per pair in one place. Judgements about ids that are not candidates (the model
inventing or mistyping an id) are dropped here, so the loop never touches a node nobody asked about.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from ...memory.query_graph import Relation
from ..models import AnalysisInput, AnalysisOutput, RelationJudgement
from .common import PromptedAgent, node_json, nodes_json
from .structured import response_schema


class LenientJudgement(RelationJudgement):
    """Accepts "Conflict" or " merge " for the relation; the meaning is unambiguous."""

    @field_validator("relationship", mode="before")
    @classmethod
    def _normalise(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


class AnalysisReply(BaseModel):
    relationships: list[LenientJudgement] = Field(default_factory=list)


class AnalysisAgent(PromptedAgent):
    name = "analysis"
    prompt_name = "analysis"
    max_string = 300
    per_candidate_tokens = 200  # a relation, its reasoning and the optional rewrites, at the string bound

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        if not inp.candidates:
            return AnalysisOutput()
        count = len(inp.candidates)
        schema = response_schema(AnalysisReply, max_string=self.max_string, max_items=max(count, 8))
        reply = self._ask(AnalysisReply, schema=schema, max_tokens=64 + count * self.per_candidate_tokens,
                          new_node=node_json(inp.new_node), candidates=nodes_json(inp.candidates),
                          candidate_count=count)
        return AnalysisOutput(relationships=_known_only(reply.relationships, inp))


def _known_only(judgements: list[LenientJudgement], inp: AnalysisInput) -> list[RelationJudgement]:
    """One judgement per real candidate (the first given), in the model's order; a conflict keeps a description."""
    wanted = {c.id for c in inp.candidates} - {inp.new_node.id}
    kept: list[RelationJudgement] = []
    for j in judgements:
        if j.existing_node_id not in wanted:
            continue
        wanted.discard(j.existing_node_id)
        data = j.model_dump()
        if j.relationship is Relation.CONFLICT and not (j.conflict_description or "").strip():
            data["conflict_description"] = j.reasoning or "the two nodes contradict each other"
        kept.append(RelationJudgement(**data))
    return kept
