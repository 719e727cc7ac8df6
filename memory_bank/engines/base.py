"""Agent contracts and the engine bundle.

An engine is the five agents plus the executor (ReAct, or its offline counterpart) and the image recogniser.
The loop only ever sees an `Engine`, so the LLM and the offline engines are interchangeable (DESIGN §5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from .models import (
    AnalysisInput,
    AnalysisOutput,
    ClassificationInput,
    ClassificationOutput,
    ExecutionInput,
    ExecutionResult,
    ImageDescription,
    ImageInput,
    IntegrationInput,
    IntegrationOutput,
    PlanningInput,
    PlanningOutput,
    StructureInput,
    StructureOutput,
)

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


class Agent(Protocol[In, Out]):
    name: str

    def run(self, inp: In) -> Out: ...


@dataclass(frozen=True)
class Engine:
    name: str  # "offline" | "llm"
    label: str  # what the UI and CLI show, e.g. "Offline engine (classical NLP, no LLM)"
    classification: Agent[ClassificationInput, ClassificationOutput]
    structure: Agent[StructureInput, StructureOutput]
    analysis: Agent[AnalysisInput, AnalysisOutput]
    integration: Agent[IntegrationInput, IntegrationOutput]
    planning: Agent[PlanningInput, PlanningOutput]
    executor: Agent[ExecutionInput, ExecutionResult]
    recognizer: Agent[ImageInput, ImageDescription]
    uses_llm: bool = False
    # Chunk size this engine prefers, in tokens, when smaller than the agent window. Smaller chunks let nodes
    # stream into the graph as a long document is read; the offline engine has no context window to fill.
    chunk_tokens: int | None = None
