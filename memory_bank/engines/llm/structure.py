"""Structure agent (LLM): one cluster -> a structured summary of 30-50% of its length (DESIGN §3.2)."""

from __future__ import annotations

from ..models import StructureInput, StructureOutput
from .common import PromptedAgent
from .structured import response_schema

MIN_SUMMARY_WORDS = 20


class StructureAgent(PromptedAgent):
    name = "structure"
    prompt_name = "structure"

    def run(self, inp: StructureInput) -> StructureOutput:
        words = len(inp.content.split())
        max_words = max(MIN_SUMMARY_WORDS * 2, round(words * 0.5))
        # the summary's own bound: ~7 characters and ~1.5 tokens a word, plus the JSON around it
        schema = response_schema(StructureOutput, max_string=max_words * 7, max_items=self.max_items)
        return self._ask(StructureOutput, schema=schema, max_tokens=64 + round(max_words * 1.5) * 2,
                         context=inp.context, keywords=", ".join(inp.keywords) or "(none)",
                         content=inp.content, word_count=words,
                         min_words=max(MIN_SUMMARY_WORDS, round(words * 0.3)), max_words=max_words)
