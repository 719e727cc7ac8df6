"""The analysis agent's per-call JSON schemas: each new node gets exactly its candidates, one judgement each, in order.

A schema that only bounds the list ("at least one judgement, at most as many as the most candidates", or even
"exactly k judgements, each naming one of the candidates") let the local 1.5B model judge every new node against
its first candidate only, or the same candidate k times: the grammar allowed it, and the model took the shortest
way. Here each position of a node's `relationships` is fixed by `prefixItems`: position j names the j-th candidate
and nothing else, and the list has exactly as many positions as the node has candidates; the batch's `items` are
fixed the same way, one position per new node in the order asked.

Checked against the server this package runs (xllamacpp 2026.10, whose llama.cpp hands a JSON schema to
llguidance: `json_schema_to_grammar` returns `%llguidance` + `%json {schema}`): a 2-node batch of 3 and 2
candidates came back with 3 and 2 judgements, each naming its position's candidate. llguidance reads
`prefixItems` as JSON Schema does (positions first, then `items` for any more), so `minItems`/`maxItems` equal
to the length are what forbid a shorter or longer list. `items` is never set beside `prefixItems`: llama.cpp's
own converter (the one used without llguidance) reads `items` first when both are there, and an
`"items": false` would replace the whole tuple; without `items` it writes the positions as a fixed sequence.
The shared string bounds live in `$defs`, so the grammar has one rule for each, not one per candidate.

The new node's own rewrite (`context_update_new`, `keywords_update_new`) is written once a node, after its
judgements and optional (the model writes it once it has decided whether anything is related), and a related
judgement carries only the candidate's rewrite. Asked once a related judgement, the local model copied the same
new-node rewrite into each: a NIST node's five related judgements were ~137 reply tokens each, mostly copies.
No schema makes the field appear only when a judgement is `related` (that needs `contains` or an anyOf over every
combination); the linker ignores it when nothing is related, and its bounds keep it short.

An endpoint that ignores schemas is still checked (`missing`): a node whose reply leaves a candidate unjudged is
asked again and, after the re-asks, handed to the offline agent like any other invalid item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...memory.query_graph import Relation
from .client import ResponseSchema
from .structured import one_of

REASON_CHARS = 120  # a judgement's reasoning (what each node says, a few words each)
LINE_CHARS = 160  # a conflict's description (both claims quoted)
CONTEXT_CHARS = 80  # a rewritten one-line context: the local 1.5B model filled 160 with a copied sentence,
# four rewrites a related pair (1,226 reply tokens, 234 s, for one call of 7 related pairs on the notes sample)
WORDS = 4  # keywords a related pair may rewrite on each side, each at most 40 characters

_DEFS: dict[str, Any] = {
    "Reason": {"type": "string", "maxLength": REASON_CHARS},
    "Line": {"type": "string", "maxLength": LINE_CHARS},
    "Context": {"type": "string", "maxLength": CONTEXT_CHARS},
    "Words": {"type": "array", "maxItems": WORDS, "items": {"type": "string", "maxLength": 40}},
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def judgement(candidate: str) -> dict[str, Any]:
    """One judgement of `candidate`: it names that candidate only, and carries the fields of its relation only (a
    conflict its description, a related pair its rewrites; a merge or an unrelated pair nothing more), each short:
    every character is a token a local model writes, and it wrote all of them, as null or as copies, when it could.
    The reason comes before the verdict: a small model that wrote "merge" first then explained a difference."""

    def variant(relation: Relation, **extra: dict[str, Any]) -> dict[str, Any]:
        fields = {"existing_node_id": one_of([candidate]), "reasoning": _ref("Reason"),
                  "relationship": one_of([relation.value])}
        required = [*fields, *(["conflict_description"] if relation is Relation.CONFLICT else [])]
        return {"type": "object", "properties": {**fields, **extra}, "required": required,
                "additionalProperties": False}

    return {"anyOf": [
        variant(Relation.CONFLICT, conflict_description=_ref("Line")), variant(Relation.MERGE),
        variant(Relation.RELATED, context_update_existing=_ref("Context"), keywords_update_existing=_ref("Words")),
        variant(Relation.UNRELATED)]}


def _fixed(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """An array of exactly these entries, in this order (see the module's note on `items`)."""
    return {"type": "array", "prefixItems": entries, "minItems": len(entries), "maxItems": len(entries)}


def judgements(candidates: Sequence[str]) -> dict[str, Any]:
    """A node's `relationships`: one judgement per candidate, in the candidates' order."""
    return _fixed([judgement(c) for c in candidates])


def node_reply(candidates: Sequence[str], **first: dict[str, Any]) -> dict[str, Any]:
    """One new node's reply: `first` (a batch entry's id), its judgements, then its own optional rewrite, once."""
    fields = {**first, "relationships": judgements(candidates), "context_update_new": _ref("Context"),
              "keywords_update_new": _ref("Words")}
    return {"type": "object", "properties": fields, "required": [*first, "relationships"],
            "additionalProperties": False}


def single_schema(candidates: Sequence[str]) -> ResponseSchema:
    """`{"relationships": [...], "context_update_new": ..., "keywords_update_new": [...]}` for one new node."""
    return ResponseSchema("AnalysisReply", {"$defs": dict(_DEFS), **node_reply(candidates)})


def batch_schema(items: Sequence[tuple[str, Sequence[str]]]) -> ResponseSchema:
    """`{"items": [...]}` for one call: an entry per (item id, its candidates), in order, the id written first."""
    entries = [node_reply(candidates, id=one_of([item])) for item, candidates in items]
    return ResponseSchema("AnalysisItemBatch", {
        "$defs": dict(_DEFS), "type": "object", "properties": {"items": _fixed(entries)}, "required": ["items"],
        "additionalProperties": False})


def missing(wanted: Sequence[str], judged: Sequence[str]) -> str | None:
    """What a reply's judgements leave out of `wanted` (None: every candidate judged), in words the model reads
    when it is asked again."""
    left = [c for c in wanted if c not in set(judged)]
    if not left:
        return None
    return (f"no judgement for candidate{'s' if len(left) > 1 else ''} {', '.join(left)}: give exactly one "
            f"judgement for each id in the node's candidates, in order ({', '.join(wanted)})")
