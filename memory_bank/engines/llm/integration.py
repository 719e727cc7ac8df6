"""Integration agent (LLM): nodes to merge (+ neighbours, + validation result) -> the merged node (DESIGN §3.4).

For a cross-validated conflict the validation result decides which claim survives; the prompt says so and the
result is passed verbatim. Neighbour updates are kept only for real neighbours of the merged nodes. A duplicate
merge's summary keeps every figure of the merged nodes: what the model's text lost is added back from their own
sentences (`with_figures`), with no second call.
"""

from __future__ import annotations

import json

from ..models import IntegrationInput, IntegrationOutput, NodeWithNeighbors
from .client import ResponseSchema
from .common import PromptedAgent
from .faithful import with_figures
from .structured import narrowed, one_of, response_schema

NOT_GIVEN = "(none)"
LINE_CHARS = 160  # a one-line context
MAX_SCHEMA_NEIGHBOURS = 8  # neighbours a schema names one by one (llama.cpp's grammar grows with each optional key)


def _nodes_block(groups: list[NodeWithNeighbors]) -> str:
    """Compact JSON: the local 1.5B model writes its reply in the layout of the JSON it reads, and shown the
    nodes indented it indented its reply too (a token a line) whatever the prompt asked."""
    data = [{"node": g.node.model_dump(), "neighbours": [n.model_dump() for n in g.neighbors]} for g in groups]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def neighbour_ids(inp: IntegrationInput) -> set[str]:
    merged = {g.node.id for g in inp.nodes_to_merge}
    return {n.id for g in inp.nodes_to_merge for n in g.neighbors} - merged


class IntegrationAgent(PromptedAgent):
    name = "integration"
    prompt_name = "integration"
    max_tokens = 1_536
    max_string = 2_000

    def run(self, inp: IntegrationInput) -> IntegrationOutput:
        conflict = inp.validation_result is not None or inp.conflict_description is not None
        reason = ("their claims conflicted and the conflict was cross-validated" if conflict
                  else "they duplicate or heavily overlap each other")
        merged = [g.node.summary for g in inp.nodes_to_merge]
        out = self._ask(IntegrationOutput, schema=self._schema(inp, conflict), reason=reason,
                        nodes=_nodes_block(inp.nodes_to_merge),
                        conflict_description=inp.conflict_description or NOT_GIVEN,
                        validation_result=inp.validation_result or NOT_GIVEN)
        allowed = neighbour_ids(inp)
        updates = {k: v for k, v in out.neighbor_updates.items() if k in allowed}
        summary, restored = (out.summary, []) if conflict else with_figures(out.summary, merged)
        note = (f" The merged nodes' sentences stating {', '.join(restored)} were added to the model's summary, "
                "which left them out." if restored else "")
        return out.model_copy(update={"neighbor_updates": updates, "summary": summary,
                                      "interaction_tree_description": out.interaction_tree_description + note})

    def _schema(self, inp: IntegrationInput, conflict: bool) -> ResponseSchema:
        """This call's schema: a neighbour update only for a listed neighbour, a rejected node only among the
        merged ones and only for a conflict, and the one-line fields short (each character is a token the
        model writes)."""
        merged = [g.node.id for g in inp.nodes_to_merge]
        neighbours = sorted(neighbour_ids(inp))
        named = {"IntegrationOutput.neighbor_updates": {
            "type": "object", "additionalProperties": False,
            "properties": {n: {"$ref": "#/$defs/NeighborUpdate"} for n in neighbours}}}
        base = response_schema(IntegrationOutput, max_string=self.max_string, max_items=self.max_items)
        return narrowed(base, {**(named if len(neighbours) <= MAX_SCHEMA_NEIGHBOURS else {}),
            "IntegrationOutput.context": {"maxLength": LINE_CHARS},
            "IntegrationOutput.keywords": {"maxItems": 8, "items": {"type": "string", "maxLength": 40}},
            "IntegrationOutput.interaction_tree_description": {"maxLength": 2 * LINE_CHARS},
            "IntegrationOutput.rejected_node_id": one_of(merged if conflict else [], nullable=True),
            "NeighborUpdate.context": {"maxLength": LINE_CHARS}})
