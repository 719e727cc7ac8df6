"""Structure agent (LLM): one cluster -> a structured summary of 30-50% of its length (DESIGN §3.2)."""

from __future__ import annotations

from ..models import StructureInput, StructureOutput
from .common import PromptedAgent

MIN_SUMMARY_WORDS = 20


class StructureAgent(PromptedAgent):
    name = "structure"
    prompt_name = "structure"

    def run(self, inp: StructureInput) -> StructureOutput:
        words = len(inp.content.split())
        return self._ask(StructureOutput, context=inp.context, keywords=", ".join(inp.keywords) or "(none)",
                         content=inp.content, word_count=words,
                         min_words=max(MIN_SUMMARY_WORDS, round(words * 0.3)),
                         max_words=max(MIN_SUMMARY_WORDS * 2, round(words * 0.5)))
