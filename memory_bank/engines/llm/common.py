"""What the LLM agents share: one prompt file, the agent's own sampling, and the structured-call helper."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from ...errors import MemoryBankError
from ...settings import Sampling, Settings
from ..models import NodeInfo
from .batch import BatchLimits, BatchRequest, batched_call, plan_batches
from .client import LLMClient, Message, ResponseSchema
from .prompt_loader import PromptTemplate, load_prompt
from .structured import response_schema, structured_call

T = TypeVar("T", bound=BaseModel)
In = TypeVar("In")
Out = TypeVar("Out")


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


class BatchedAgent(PromptedAgent, Generic[In, Out]):
    """A prompted agent that can also carry several inputs in one call (`batch_prompt_name`).

    `plan_batches` groups inputs by `costs` (prompt and reply tokens per input) within the settings' batch
    limits; `run_batch` answers one group through `batched_call`, a group of one included (so every call of
    the agent starts with the same instructions and schema, which a server's prompt cache reads once), and each
    item's outcome comes back on its own (an output, or the error that hands that one input to the offline
    agent). `run` is the single call, for an input that needs no call (`asks`) or a caller outside batches."""

    batch_prompt_name = ""

    def __init__(self, client: LLMClient, settings: Settings) -> None:
        super().__init__(client, settings)
        self._batch_prompt: PromptTemplate = load_prompt(self.batch_prompt_name)

    def run(self, inp: In) -> Out:  # pragma: no cover - every batched agent defines its single call
        raise NotImplementedError

    def asks(self, inp: In) -> bool:
        """Whether `inp` needs the model at all (an analysis without candidates does not)."""
        return True

    def cost(self, inp: In, group: Sequence[In]) -> tuple[int, int]:
        """Prompt and reply tokens `inp` adds to a call already carrying `group`."""
        raise NotImplementedError

    def limits(self) -> BatchLimits:
        s = self._settings
        half = s.window(self.name) // 2  # the items and the reply share the agent's window
        return BatchLimits(max_items=s.llm_batch_items, prompt_tokens=min(s.llm_batch_tokens, half),
                           reply_tokens=min(s.llm_batch_reply_tokens, half))

    def plan_batches(self, inputs: Sequence[In]) -> list[list[int]]:
        return plan_batches(len(inputs), lambda i, group: self.cost(inputs[i], [inputs[j] for j in group]),
                            self.limits())

    def run_batch(self, inputs: Sequence[In]) -> list[Out | MemoryBankError]:
        if len(inputs) == 1 and not self.asks(inputs[0]):
            return [self.run(inputs[0])]
        ids = [f"{self.item_prefix}{i + 1}" for i in range(len(inputs))]
        by_id = dict(zip(ids, inputs))
        request = self._request(by_id)
        found = batched_call(self._client, request, agent=self.name, sampling=self._sampling(),
                             retries=self._settings.structured_retries)
        return [self._output(by_id[i], r) if not isinstance(r, MemoryBankError) else r
                for i, r in found.items()]

    item_prefix = "i"

    def _request(self, by_id: dict[str, In]) -> BatchRequest[Any]:
        raise NotImplementedError

    def _output(self, inp: In, item: Any) -> Out:
        raise NotImplementedError

    def _render_batch(self, **values: object) -> list[Message]:
        return self._batch_prompt.render(**values)


def json_lines(items: Iterable[dict[str, Any]]) -> str:
    """One JSON object a line: every quote and newline of the text inside escaped, so no item can end early."""
    return "\n".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items)


def nodes_json(nodes: Iterable[NodeInfo]) -> str:
    """Nodes as the agents see them: id, summary, context, keywords (never embeddings)."""
    return json.dumps([n.model_dump() for n in nodes], ensure_ascii=False, indent=1)


def node_json(node: NodeInfo) -> str:
    return json.dumps(node.model_dump(), ensure_ascii=False, indent=1)
