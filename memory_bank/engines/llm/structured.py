"""The one way LLM text becomes typed data.

Models wrap JSON in code fences, add prose around it, think aloud in `<think>` blocks, or stop mid-object when they
hit their token limit. `extract_json_object` finds the first complete JSON object in such text; `parse_model`
validates it into a pydantic model; `structured_call` asks, validates, and re-asks with the exact validation error
(the cheapest way to get a correct object from a model with no JSON-schema mode) before failing with
`AgentOutputError`. `parse_items` reads a batched reply (`{"items": [{"id": ...}, ...]}`) item by item, keeping
what validates even when the rest does not or the reply was cut mid-list (`batch.py` re-asks for the rest).
Nothing else in the package parses LLM text as JSON.

Where the endpoint takes a JSON schema the reply is decoded against it (`response_schema`), with bounds on every
string and list so a complete object fits in the agent's `max_tokens`. A reply cut at `max_tokens`
(`finish_reason="length"`) is asked again with twice the room, up to a cap, and then fails with a message that
says so; its truncated text is not echoed back, since the model did nothing wrong but run out of room.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ...errors import AgentOutputError
from ...settings import Sampling
from ...text.tags import strip_think
from .client import Completion, LLMClient, Message, ResponseSchema

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_MAX_CANDIDATES = 20
_MAX_ITEMS = 200  # objects read from one batched reply; a batch asks for far fewer
_ECHO_CHARS = 6_000  # how much of a bad reply is echoed back when re-asking
LENGTH_GROWTH = 2  # a reply cut at max_tokens is asked again with this many times the room


class OutputInvalid(ValueError):
    """The text holds no valid object; the message is written for the model that produced it."""


def _balanced_end(text: str, start: int) -> int | None:
    """Index just past the `}` closing the `{` at `start`, skipping braces inside strings; None if truncated."""
    depth = 0
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _regions(text: str) -> list[str]:
    """Where to look, best first: fenced blocks, then the whole text without reasoning blocks."""
    cleaned = strip_think(text, spaced=False)
    regions = [m.group(1) for m in _FENCE.finditer(cleaned)] + [cleaned]
    return regions if cleaned == text else [*regions, text]


def _first_object(region: str) -> tuple[dict[str, Any] | None, str | None]:
    """The first `{...}` in `region` that parses as a JSON object, else the first problem seen."""
    problem: str | None = None
    start = region.find("{")
    tries = 0
    while start != -1 and tries < _MAX_CANDIDATES:
        tries += 1
        end = _balanced_end(region, start)
        if end is None:
            problem = problem or "the JSON object is incomplete (truncated: a closing brace is missing)"
            start = region.find("{", start + 1)
            continue
        try:
            value = json.loads(region[start:end])
        except json.JSONDecodeError as exc:
            problem = problem or f"invalid JSON: {exc.msg} at character {exc.pos}"
        else:
            if isinstance(value, dict):
                return value, None
        start = region.find("{", start + 1)
    return None, problem


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in model text; raises `OutputInvalid` saying what is wrong."""
    problem: str | None = None
    for region in _regions(text):
        value, found_problem = _first_object(region)
        if value is not None:
            return value
        problem = problem or found_problem
    if not text.strip():
        raise OutputInvalid("the reply was empty; a JSON object was expected")
    raise OutputInvalid(problem or "no JSON object found in the reply")


def _format_errors(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"- {where}: {err['msg']}")
    return "\n".join(lines[:15])


def parse_model(text: str, output_model: type[T]) -> T:
    """Extract and validate; raises `OutputInvalid` with a message the model can act on."""
    data = extract_json_object(text)
    try:
        return output_model.model_validate(data)
    except ValidationError as exc:
        raise OutputInvalid(f"the JSON does not match the required shape:\n{_format_errors(exc)}") from exc


def _salvaged_objects(text: str) -> list[Any]:
    """The complete top-level objects of the reply's `items` list, read one by one: a reply cut at `max_tokens`
    mid-list still gives every item that ended before the cut."""
    cleaned = strip_think(text, spaced=False)
    key = cleaned.find('"items"')
    start = cleaned.find("[", key if key != -1 else 0)
    found: list[Any] = []
    pos = cleaned.find("{", start + 1) if start != -1 else -1
    while pos != -1 and len(found) < _MAX_ITEMS:
        end = _balanced_end(cleaned, pos)
        if end is None:
            break
        try:
            found.append(json.loads(cleaned[pos:end]))
        except json.JSONDecodeError:
            pass
        pos = cleaned.find("{", end)
    return found


def parse_items(text: str, item_model: type[T], wanted: set[str]) -> tuple[dict[str, T], dict[str, str]]:
    """The valid items of a batched reply by id, and a problem per wanted id that has none.

    An id nobody asked for is ignored; an item given twice keeps its first valid version; an item that does not
    validate is reported for its id (quoted back to the model when re-asking); items may come in any order."""
    try:
        whole = extract_json_object(text)
        raw = whole.get("items")
        objects = raw if isinstance(raw, list) else _salvaged_objects(text)
    except OutputInvalid:
        objects = _salvaged_objects(text)
    kept: dict[str, T] = {}
    problems: dict[str, str] = {}
    for obj in objects[:_MAX_ITEMS]:
        item_id = obj.get("id") if isinstance(obj, dict) else None
        if not isinstance(item_id, str) or item_id not in wanted or item_id in kept:
            continue
        try:
            kept[item_id] = item_model.model_validate(obj)
        except ValidationError as exc:
            problems.setdefault(item_id, f"the item does not match the required shape:\n{_format_errors(exc)}")
    return kept, {i: problems[i] for i in wanted - kept.keys() if i in problems}


def correction_message(problem: str) -> Message:
    return {"role": "user", "content": (
        f"Your previous reply could not be used:\n{problem}\n\n"
        "Reply again with the corrected JSON object only: no prose, no code fences, exactly the shape asked for.")}


def _bounded(node: Any, max_string: int, max_items: int) -> Any:
    """A copy of a JSON schema with a `maxLength` on every string and a `maxItems` on every list that has none."""
    if isinstance(node, list):
        return [_bounded(n, max_string, max_items) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _bounded(v, max_string, max_items) for k, v in node.items() if k not in ("title", "default")}
    if out.get("type") == "string" and "enum" not in out:
        out.setdefault("maxLength", max_string)
    if out.get("type") == "array":
        out.setdefault("maxItems", max_items)
    return out


def response_schema(output_model: type[BaseModel], *, max_string: int, max_items: int) -> ResponseSchema:
    """The model's JSON schema with bounds, so a schema-constrained reply ends before `max_tokens` does.

    Fields with a default are optional in the schema too; the grammar then lets the model leave them out
    instead of spending tokens on empty values."""
    return ResponseSchema(output_model.__name__, _bounded(output_model.model_json_schema(), max_string, max_items))


def one_of(values: Sequence[str], *, nullable: bool = False) -> dict[str, Any]:
    """A field that may only name `values` (and null where `nullable`): the ids this call may use."""
    if not values:
        return {"type": "null"}
    listed = {"type": "string", "enum": list(dict.fromkeys(values))}
    return {"anyOf": [listed, {"type": "null"}]} if nullable else listed


def narrowed(schema: ResponseSchema, changes: dict[str, dict[str, Any]]) -> ResponseSchema:
    """`schema` for one call, carrying that call's state (ids, task types), so a grammar-constrained reply
    cannot name anything else. `changes` maps "Model.field" to the field's new schema (merged into it), or
    "Model" to keys merged into that object's own schema (`required`, say); "Model" is a `$defs` entry or the
    schema's own name for its top level. A name that is not there is a programming error."""
    out = copy.deepcopy(schema.schema)
    for where, change in changes.items():
        model, _, name = where.partition(".")
        target = out if model == schema.name else out.get("$defs", {}).get(model)
        if target is None or (name and name not in target.get("properties", {})):
            raise KeyError(f"{where} is not in the {schema.name} schema")
        if not name:
            if "anyOf" in change:
                target.clear()  # the object becomes alternatives: none of its old fields may stay beside them
            target.update(change)
            continue
        field = target["properties"][name]
        if "enum" in change or "anyOf" in change or change.get("type") == "null":
            field.clear()  # a new type: nothing of the old one (its $ref, its bounds) may stay beside it
        field.update(change)
    return ResponseSchema(schema.name, out)


def _length_problem(completion: Completion, max_tokens: int | None) -> str | None:
    if completion.finish_reason != "length":
        return None
    limit = f"{max_tokens} tokens" if max_tokens else "the server's default"
    return (f"the reply was truncated at the token limit ({limit}) before the JSON ended: keep every field "
            "shorter")


def structured_call(client: LLMClient, *, agent: str, messages: list[Message], output_model: type[T],
                    sampling: Sampling, retries: int, max_tokens: int | None = None,
                    check: Callable[[T], None] | None = None, schema: ResponseSchema | None = None,
                    max_tokens_cap: int | None = None) -> T:
    """Ask for JSON, validate into `output_model`, re-ask up to `retries` times, then raise `AgentOutputError`.

    `check` adds rules the model type cannot know (for example, that indices point into this call's input); it
    raises `ValueError`, whose message is quoted back to the model like a validation error. `schema` is sent as
    the response format where the endpoint takes one. A reply cut at `max_tokens` is asked again unchanged with
    more room (up to `max_tokens_cap`), which does not count as a re-ask; at the cap, the re-ask asks for a
    shorter reply.
    """
    conversation = list(messages)
    problem = "no attempt made"
    limit = max_tokens
    cap = max_tokens_cap or (max_tokens * LENGTH_GROWTH ** 2 if max_tokens else None)
    attempts = 0
    cut: str | None = None
    while attempts <= retries:
        completion = client.complete(conversation, agent=agent, temperature=sampling.temperature,
                                     top_p=sampling.top_p, max_tokens=limit, json_mode=True, schema=schema)
        cut = _length_problem(completion, limit)
        try:
            result = parse_model(completion.text, output_model)
            if check is not None:
                check(result)
            return result
        except ValueError as exc:  # OutputInvalid, or a rule broken in `check`
            problem = cut or str(exc)
        if cut and limit is not None and cap is not None and limit < cap:
            limit = min(cap, limit * LENGTH_GROWTH)
            continue
        attempts += 1
        conversation = [*conversation, {"role": "assistant", "content": completion.text[:_ECHO_CHARS]},
                        correction_message(problem)]
    advice = "; shorten the input or raise the agent's max_tokens" if cut else ""
    raise AgentOutputError(agent, f"{problem} (after {attempts} attempt{'s' if attempts != 1 else ''}{advice})")
