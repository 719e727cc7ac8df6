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
from .screen import neutralise

MAX_DIGEST_CHARS = 12_000


def shown_digest(digest: TaskDigest) -> TaskDigest:
    """The digest as the distiller's model reads it: every text that came from documents or a model has its
    instruction-like sentences replaced by a marker (`screen.neutralise`), so the model is not handed the very
    text a document planted; the question stays as the user wrote it."""
    return digest.model_copy(update={
        "answer": neutralise(digest.answer),
        "tasks": [t.model_copy(update={"description": neutralise(t.description), "context": neutralise(t.context)})
                  for t in digest.tasks],
        "settled_conflicts": [neutralise(c) for c in digest.settled_conflicts],
        "errors": [neutralise(e) for e in digest.errors],
        "sources": [neutralise(s) for s in digest.sources],
        "evidence": [neutralise(e) for e in digest.evidence]})


class LLMDistiller(PromptedAgent):
    """What the model writes is vetted afterwards all the same (`vetting.vet`): this agent's output is untrusted."""

    name = "distill"
    prompt_name = "distill"
    sampling_fallback = "structure"

    def run(self, digest: TaskDigest) -> Lessons:
        text = json.dumps(shown_digest(digest).model_dump(), ensure_ascii=False, indent=1)[:MAX_DIGEST_CHARS]
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
