"""The LLM engine's long-term agents, each with its prompt file and typed output (seed 004 §6.3, §8.2):
the distiller (what a finished task teaches) and the error analyst (a fix for a failed tool call)."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from ..engines.llm.common import PromptedAgent
from ..engines.protocol.escaping import escape_tags
from ..tools.base import ToolSpec
from .distill import Lessons, TaskDigest
from .recovery import Fix, ToolFailure

MAX_DIGEST_CHARS = 12_000


class LLMDistiller(PromptedAgent):
    name = "distill"
    prompt_name = "distill"
    sampling_fallback = "structure"

    def run(self, digest: TaskDigest) -> Lessons:
        text = json.dumps(digest.model_dump(), ensure_ascii=False, indent=1)[:MAX_DIGEST_CHARS]
        return self._ask(Lessons, digest=escape_tags(text))


class ErrorFix(BaseModel):
    reasoning: str = ""
    recoverable: bool
    fixed_arguments: dict = Field(default_factory=dict)


class LLMErrorAnalyst(PromptedAgent):
    name = "error_analysis"
    prompt_name = "error_analysis"
    sampling_fallback = "structure"

    def propose(self, failure: ToolFailure, spec: ToolSpec | None, goal: str) -> list[Fix]:
        parameters = json.dumps(spec.parameters if spec else {}, ensure_ascii=False)
        out = self._ask(ErrorFix, tool=failure.tool, parameters=parameters,
                        arguments=escape_tags(json.dumps(failure.arguments, ensure_ascii=False)[:4_000]),
                        error_type=failure.error_type, error=escape_tags(failure.message[:1_000]),
                        goal=escape_tags(goal[:1_000]))
        if not out.recoverable or out.fixed_arguments == failure.arguments:
            return []
        return [Fix(arguments=out.fixed_arguments, reason=(out.reasoning or "the LLM's analysis")[:300],
                    source="llm")]
