"""Structure agent (LLM) by selection: the model names the sentences of each cluster that carry its key facts,
and the summary is those sentences as written (DESIGN §3.2's 30-50 %, the same bounds as the offline summary).

Why a second way to summarise: on 2 cores the local model writes ~4-12 tokens a second, and a written summary
of 30-50 % of a cluster is hundreds of tokens. On the NIST PDF (stop 44, quiet) the summaries were the whole cost
of ingestion: 7,709 reply tokens and 1,794 of ~2,000 model seconds for 19 pages, ~45 min for the PDF. The 1.5B
model's summaries copied the text's sentences anyway (and once mixed two clusters' text). Naming sentences is a
dozen tokens a cluster; the model still decides what the memory keeps, and every claim in it is the source's.

The reply's schema is narrowed per call: each item's `keep` may only list that item's own sentence numbers, so a
grammar-constrained model cannot name one that is not there; validation still checks (a remote endpoint may
ignore schemas) and re-asks the item, naming its range.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from ...errors import AgentOutputError
from ...settings import Settings
from ...text.tokens import estimate_tokens
from ..base import Extractive
from ..models import StructureInput, StructureOutput
from .batch import REPLY_OVERHEAD, BatchRequest, batch_schema
from .client import LLMClient, Message, ResponseSchema
from .common import BatchedAgent, json_lines
from .structure import ITEM_OVERHEAD
from .structured import narrowed

MARK_TOKENS = 3  # prompt tokens of one sentence's "[n] " mark
PICK_TOKENS = 3  # reply tokens of one sentence number and its comma
PICKS_OVERHEAD = 16  # reply tokens of one item's id and brackets
AIM_SHARE = 0.4  # the share of a cluster's sentences the model is asked to keep (the words are bounded after)


class Picks(BaseModel):
    id: str
    keep: list[int] = Field(min_length=1)


def numbered(sentences: Sequence[str]) -> str:
    return " ".join(f"[{n}] {s}" for n, s in enumerate(sentences, 1))


def _reply_tokens(count: int) -> int:
    """Reply room for an item of `count` sentences: every one of them picked, at most."""
    return PICKS_OVERHEAD + PICK_TOKENS * count


def _aim(count: int) -> str:
    keep = max(1, round(count * AIM_SHARE))
    return f"about {keep} of {count} sentences"


class SelectingStructureAgent(BatchedAgent[StructureInput, StructureOutput]):
    """The structure agent under `Settings.summaries_by_selection`. `offline` (the offline structurer) splits a
    cluster into the sentences the model numbers and builds the summary from its picks (most important first,
    then its own scores to fill the lower bound), so a picked summary and an offline one have the same bounds."""

    name = "structure"
    prompt_name = "structure_select"
    batch_prompt_name = "structure_select"
    item_prefix = "c"

    def __init__(self, client: LLMClient, settings: Settings, offline: Extractive) -> None:
        super().__init__(client, settings)
        self._offline = offline

    def run(self, inp: StructureInput) -> StructureOutput:
        out = self.run_batch([inp])[0]
        if isinstance(out, AgentOutputError):
            raise out
        return out  # type: ignore[return-value]

    def cost(self, inp: StructureInput, group: Sequence[StructureInput]) -> tuple[int, int]:
        count = len(self._offline.sentences(inp))
        return estimate_tokens(inp.content) + ITEM_OVERHEAD + MARK_TOKENS * count, _reply_tokens(count)

    def _request(self, by_id: dict[str, StructureInput]) -> BatchRequest[Picks]:
        sentences = {i: self._offline.sentences(inp) for i, inp in by_id.items()}

        def render(ids: list[str]) -> list[Message]:
            items = [{"id": i, "topic": by_id[i].context, "keywords": by_id[i].keywords,
                      "aim": _aim(len(sentences[i])), "text": numbered(sentences[i])} for i in ids]
            return self._render_batch(count=len(ids), items=json_lines(items))

        base = batch_schema(Picks, max_string=40, max_items=self._settings.llm_batch_items)

        def schema(ids: list[str]) -> ResponseSchema:
            # one alternative per item: its own id with only its own sentence numbers
            alternatives = [{"type": "object", "additionalProperties": False, "required": ["id", "keep"],
                             "properties": {"id": {"type": "string", "enum": [i]},
                                            "keep": {"type": "array", "minItems": 1, "maxItems": len(sentences[i]),
                                                     "items": {"type": "integer",
                                                               "enum": list(range(1, len(sentences[i]) + 1))}}}}
                            for i in ids]
            return narrowed(base, {base.name + ".items": {"minItems": len(ids), "maxItems": len(ids)},
                                   "Picks": {"anyOf": alternatives}})

        def check(i: str, item: Picks) -> str | None:
            count = len(sentences[i])
            wrong = sorted({n for n in item.keep if not 1 <= n <= count})
            if wrong:
                return f"item {i} has sentences 1 to {count}; it has no sentence {', '.join(map(str, wrong[:5]))}"
            return None

        return BatchRequest(ids=list(by_id), render=render, item_model=Picks,
                            reply_tokens=lambda ids: REPLY_OVERHEAD + sum(_reply_tokens(len(sentences[i]))
                                                                          for i in ids),
                            schema=schema, check=check)

    def _output(self, inp: StructureInput, item: Any) -> StructureOutput:
        return self._offline.summary_with(inp, [n - 1 for n in item.keep])
