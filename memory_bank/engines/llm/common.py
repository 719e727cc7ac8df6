"""What the LLM agents share: one prompt file, the agent's own sampling, and the structured-call helper."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TypeVar

from pydantic import BaseModel

from ...settings import Sampling, Settings
from ..models import NodeInfo
from .client import LLMClient, Message, ResponseSchema
from .prompt_loader import load_prompt
from .structured import response_schema, structured_call

T = TypeVar("T", bound=BaseModel)


class PromptedAgent:
    """Base of the JSON-producing agents. Sub-classes set `name` (the usage and sampling key) and `prompt_name`.

    An agent with no sampling of its own in the settings borrows `sampling_fallback`'s. Each agent bounds its
    reply: `max_tokens` per call, and in the JSON schema sent where the endpoint takes one, `max_string`
    characters per string and `max_items` per list, so a schema-constrained reply ends before the token limit.
    """

    name = ""
    prompt_name = ""
    sampling_fallback = "react"
    max_tokens = 1_024
    max_string = 600
    max_items = 12

    def __init__(self, client: LLMClient, settings: Settings) -> None:
        self._client = client
        self._settings = settings
        self._prompt = load_prompt(self.prompt_name)

    def _ask(self, output_model: type[T], *, check: Callable[[T], None] | None = None,
             schema: ResponseSchema | None = None, max_tokens: int | None = None, **values: object) -> T:
        return self._ask_messages(self._prompt.render(**values), output_model, check=check, schema=schema,
                                  max_tokens=max_tokens)

    def _ask_messages(self, messages: list[Message], output_model: type[T], *,
                      check: Callable[[T], None] | None = None, schema: ResponseSchema | None = None,
                      max_tokens: int | None = None) -> T:
        schema = schema or response_schema(output_model, max_string=self.max_string, max_items=self.max_items)
        return structured_call(self._client, agent=self.name, messages=messages, output_model=output_model,
                               sampling=self._sampling(), retries=self._settings.structured_retries, check=check,
                               schema=schema, max_tokens=max_tokens or self.max_tokens)

    def _sampling(self) -> Sampling:
        own = self._settings.sampling.get(self.name)
        return own or self._settings.sampling_for(self.sampling_fallback)


def nodes_json(nodes: Iterable[NodeInfo]) -> str:
    """Nodes as the agents see them: id, summary, context, keywords (never embeddings)."""
    return json.dumps([n.model_dump() for n in nodes], ensure_ascii=False, indent=1)


def node_json(node: NodeInfo) -> str:
    return json.dumps(node.model_dump(), ensure_ascii=False, indent=1)
