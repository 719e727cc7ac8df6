"""Structure agent (LLM): one cluster -> a structured summary of 30-50% of its length (DESIGN §3.2).

Several clusters can share one call (`run_batch`, prompt `structure_batch`): the instructions and the reply's
schema are the same for every call, so they form a prefix a provider can cache; the clusters come last.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from ...text.tokens import estimate_tokens
from ..models import StructureInput, StructureOutput
from .batch import REPLY_OVERHEAD, BatchRequest, batch_schema, for_ids
from .common import BatchedAgent, json_lines
from .faithful import must, unfaithful
from .structured import response_schema

MIN_SUMMARY_WORDS = 20
ITEM_OVERHEAD = 40  # prompt tokens of one item's id, topic, keywords and aim
BATCH_SUMMARY_CHARS = 12_000  # the schema's bound on one summary in a batch: fixed, so the schema never changes


class StructureItem(StructureOutput):
    id: str


def _word_bounds(inp: StructureInput) -> tuple[int, int, int]:
    words = len(inp.content.split())
    max_words = max(MIN_SUMMARY_WORDS * 2, round(words * 0.5))
    return words, max(MIN_SUMMARY_WORDS, round(words * 0.3)), max_words


def _reply_tokens(inp: StructureInput) -> int:
    """~1.5 tokens a word at the top of the range, twice over for the JSON and a margin."""
    return round(_word_bounds(inp)[2] * 1.5) * 2


class StructureAgent(BatchedAgent[StructureInput, StructureOutput]):
    name = "structure"
    prompt_name = "structure"
    batch_prompt_name = "structure_batch"
    item_prefix = "c"

    def run(self, inp: StructureInput) -> StructureOutput:
        words, min_words, max_words = _word_bounds(inp)
        # the summary's own bound: ~7 characters a word, plus the JSON around it
        schema = response_schema(StructureOutput, max_string=max_words * 7, max_items=self.max_items)
        return self._ask(StructureOutput, schema=schema, max_tokens=REPLY_OVERHEAD + _reply_tokens(inp),
                         check=lambda out: must(unfaithful(out.summary, inp.content)),
                         context=inp.context, keywords=", ".join(inp.keywords) or "(none)",
                         content=inp.content, word_count=words, min_words=min_words, max_words=max_words)

    def cost(self, inp: StructureInput, group: Sequence[StructureInput]) -> tuple[int, int]:
        return estimate_tokens(inp.content) + ITEM_OVERHEAD, _reply_tokens(inp)

    def _request(self, by_id: dict[str, StructureInput]) -> BatchRequest[StructureItem]:
        def render(ids: list[str]) -> list:
            items = []
            for i in ids:
                inp = by_id[i]
                words, low, high = _word_bounds(inp)
                items.append({"id": i, "topic": inp.context, "keywords": inp.keywords, "words": words,
                              "aim": f"{low} to {high} words", "text": inp.content})
            return self._render_batch(count=len(ids), items=json_lines(items))

        schema = batch_schema(StructureItem, max_string=BATCH_SUMMARY_CHARS, max_items=self._settings.llm_batch_items)
        return BatchRequest(ids=list(by_id), render=render, item_model=StructureItem,
                            reply_tokens=lambda ids: REPLY_OVERHEAD + sum(_reply_tokens(by_id[i]) for i in ids),
                            schema=lambda ids: for_ids(schema, ids),
                            check=lambda i, item: unfaithful(item.summary, by_id[i].content))

    def _output(self, inp: StructureInput, item: BaseModel) -> StructureOutput:
        return StructureOutput(summary=item.summary)  # type: ignore[attr-defined]
