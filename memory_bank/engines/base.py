"""Agent contracts and the engine bundle.

An engine is the five agents plus the executor (ReAct, or its offline counterpart) and the image recogniser.
The loop only ever sees an `Engine`, so the LLM and the offline engines are interchangeable (DESIGN §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from ..errors import MemoryBankError
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
InT = TypeVar("InT")  # a helper's own input and output types (the protocols' are variant)
OutT = TypeVar("OutT")


class Agent(Protocol[In, Out]):
    name: str

    def run(self, inp: In) -> Out: ...


class Extractive(Protocol):
    """An extractive summariser (the offline structurer): the sentences of a cluster a summary is made of, and the
    summary with chosen sentences first. The LLM structure agent that picks sentences builds on it
    (`llm/structure_select.py`), so a picked summary has the offline one's sentences and bounds."""

    def sentences(self, inp: StructureInput) -> list[str]: ...

    def summary_with(self, inp: StructureInput, preferred: list[int]) -> StructureOutput: ...


@runtime_checkable
class BatchAgent(Protocol[In, Out]):
    """An agent that can answer several inputs in one call: `plan_batches` groups them (indices, every input in
    exactly one group), `run_batch` answers one group with one outcome per input, an error for an input it could
    not do (the others stand). Callers use it through `ingest.parallel.map_agent`."""

    name: str

    def run(self, inp: In) -> Out: ...

    def plan_batches(self, inputs: Sequence[In]) -> list[list[int]]: ...

    def run_batch(self, inputs: Sequence[In]) -> Sequence[Out | MemoryBankError]: ...


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


def plan_of(agent: Agent[InT, OutT], inputs: Sequence[InT]) -> list[list[int]]:
    """The agent's own batches, or one input a call for an agent that does not batch."""
    return agent.plan_batches(inputs) if isinstance(agent, BatchAgent) else [[i] for i in range(len(inputs))]


def batch_of(agent: Agent[InT, OutT], inputs: Sequence[InT]) -> list[OutT | MemoryBankError]:
    """One group's outcomes: the agent's batch call, or its single call for an agent that does not batch."""
    if isinstance(agent, BatchAgent):
        return list(agent.run_batch(inputs))
    return [agent.run(inp) for inp in inputs]
