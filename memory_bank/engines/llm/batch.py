"""Many items in one structured call: what makes LLM ingestion cost a fraction of one call per item.

A batched agent renders several inputs into one prompt, each under a short id, and the model answers
`{"items": [{"id": ..., ...}, ...]}`. The reply is read item by item (`structured.parse_items`): the items that
validate are kept whatever happened to the rest (another item invalid, items out of order or twice, ids the model
invented, a reply cut at `max_tokens` mid-list), and only the missing or invalid ones are asked again, in a
smaller batch that names each one's problem. An item still missing after the re-asks comes back as an
`AgentOutputError` of its own, so the caller hands just that item to the offline agent; nothing is dropped and
nothing is attached to another item's id.

`plan_batches` groups inputs into calls by their estimated prompt and reply tokens, in input order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, create_model

from ...errors import AgentOutputError
from ...settings import Sampling
from .client import LLMClient, Message, ResponseSchema
from .structured import narrowed, one_of, parse_items, response_schema

T = TypeVar("T", bound=BaseModel)
In = TypeVar("In")

REPLY_OVERHEAD = 64  # tokens of the reply's own JSON around the items


@dataclass(frozen=True)
class BatchLimits:
    """How much one batched call may carry: items, prompt tokens of the items, and reply tokens."""

    max_items: int
    prompt_tokens: int
    reply_tokens: int


def plan_batches(count: int, cost: Callable[[int, list[int]], tuple[int, int]],
                 limits: BatchLimits) -> list[list[int]]:
    """Indices 0..count-1 grouped into calls, in order. `cost(i, group)` is what input i adds to `group` (prompt
    tokens, reply tokens): an input already partly listed by the group (a shared candidate) adds less.

    An input bigger than a whole batch goes alone (it was one call before batching too)."""
    groups: list[list[int]] = []
    prompt = reply = 0
    for i in range(count):
        if groups and len(groups[-1]) < limits.max_items:
            p, r = cost(i, groups[-1])
            if prompt + p <= limits.prompt_tokens and reply + r <= limits.reply_tokens:
                groups[-1].append(i)
                prompt, reply = prompt + p, reply + r
                continue
        groups.append([i])
        prompt, reply = cost(i, [])
    return groups


def batch_schema(item_model: type[BaseModel], *, max_string: int, max_items: int) -> ResponseSchema:
    """`{"items": [item, ...]}` with bounds."""
    wrapper = create_model(f"{item_model.__name__}Batch", items=(list[item_model], ...))
    return response_schema(wrapper, max_string=max_string, max_items=max_items)


def for_ids(schema: ResponseSchema, ids: list[str], changes: dict[str, dict[str, Any]] | None = None) -> ResponseSchema:
    """A batch schema for one call: exactly one item for each of `ids`, each named by one of them (and whatever
    else `changes` narrows), so a grammar-constrained reply can neither skip an item nor invent an id."""
    item = schema.schema["properties"]["items"]["items"]["$ref"].rsplit("/", 1)[-1]
    out = narrowed(schema, {schema.name + ".items": {"minItems": len(ids), "maxItems": len(ids)},
                            item + ".id": one_of(ids), **(changes or {})})
    fields = out.schema["$defs"][item]["properties"]
    out.schema["$defs"][item]["properties"] = {"id": fields.pop("id"), **fields}  # a grammar writes the id first
    return out


@dataclass(frozen=True)
class BatchRequest(Generic[T]):
    """One batch: the ids, how to ask for any subset of them, and how much reply room a subset needs."""

    ids: list[str]
    render: Callable[[list[str]], list[Message]]
    reply_tokens: Callable[[list[str]], int]
    item_model: type[T]
    schema: Callable[[list[str]], ResponseSchema]  # the schema of a call asking for these ids
    # what is wrong with a valid item beyond its shape (None: nothing), so it is asked again like an invalid one
    check: Callable[[str, T], str | None] | None = None


def _with_problems(messages: list[Message], problems: dict[str, str]) -> list[Message]:
    """The re-ask: the prompt for the remaining items, its last message ending with what was wrong with each (at
    the end, so the prompt's fixed prefix stays the same)."""
    if not problems:
        return messages
    lines = "\n".join(f"- item {i}: {p}" for i, p in problems.items())
    last = messages[-1]
    note = (f"\n\nAn earlier reply could not be used for these items:\n{lines}\n"
            "Reply with the JSON object only, one entry per item.")
    return [*messages[:-1], {**last, "content": f"{last['content']}{note}"}]


def batched_call(client: LLMClient, request: BatchRequest[T], *, agent: str, sampling: Sampling,
                 retries: int) -> dict[str, T | AgentOutputError]:
    """Ask for every id, keep each valid item, re-ask up to `retries` times for the rest; an id still without a
    valid item maps to its own `AgentOutputError`."""
    found: dict[str, T] = {}
    pending = list(request.ids)
    problems: dict[str, str] = {}
    attempts = 0
    while pending and attempts <= retries:
        messages = _with_problems(request.render(pending), problems)
        completion = client.complete(messages, agent=agent, temperature=sampling.temperature, top_p=sampling.top_p,
                                     max_tokens=request.reply_tokens(pending), json_mode=True,
                                     schema=request.schema(pending))
        attempts += 1
        kept, invalid = parse_items(completion.text, request.item_model, set(pending))
        if request.check is not None:
            wrong = {i: problem for i, item in kept.items() if (problem := request.check(i, item)) is not None}
            invalid.update(wrong)
            kept = {i: item for i, item in kept.items() if i not in wrong}
        found.update(kept)
        missing = ("the reply was cut at the token limit before this item" if completion.finish_reason == "length"
                   else "the reply had no entry for this id")
        pending = [i for i in pending if i not in found]
        problems = {i: invalid.get(i, missing) for i in pending}
    failed = {i: AgentOutputError(agent, f"item {i}: {problems[i]} (after {attempts} "
                                         f"attempt{'s' if attempts != 1 else ''})") for i in pending}
    return {i: found[i] if i in found else failed[i] for i in request.ids}
