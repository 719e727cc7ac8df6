"""An engine put together per agent: each slot on the LLM or the offline engine (DESIGN §10).

Three rules hold wherever an LLM agent runs here:
- it can choose either engine per agent (`Settings.engine_for`), so API users keep ingestion cheap and a slow
  local model writes only the answer;
- it degrades, never drops: when an LLM agent fails on one input (its output stays invalid after the re-asks,
  or the endpoint fails), that input goes to the offline agent, and the failure is published as an
  `AgentFellBack` event (the run's errors and the UI show it). A document is never dropped for it;
- a small model's weak judgement is guarded: every pair the LLM calls `merge` or `related` is checked by the
  offline contradiction detector, and a disagreement on a number, date or name about the same subject makes the
  pair a `conflict` (priority conflict > merge > related).
Budgets and cancellation are the run's stop signals, never a reason to fall back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar

from ..errors import STOPS_THE_RUN, MemoryBankError
from ..events import AgentFellBack
from ..memory.query_graph import Relation
from ..settings import AGENT_SLOTS, Settings
from .base import Agent, BatchAgent, Engine
from .models import (
    AnalysisInput,
    AnalysisOutput,
    ExecutionInput,
    IntegrationInput,
    PlanningInput,
    RelationJudgement,
    StructureInput,
)

In = TypeVar("In")
Out = TypeVar("Out")

_GUARDED = (Relation.MERGE, Relation.RELATED)
_SLOT_FIELDS = {"react": "executor", "image": "recognizer"}  # slot name -> Engine field


def _about(inp: Any) -> str:
    """A short name for what the agent was working on, for the failure record (never the text itself)."""
    for attr in ("source", "name"):
        value = getattr(inp, attr, "")
        if isinstance(value, str) and value:
            return value[:80]
    new_node = getattr(inp, "new_node", None)
    if new_node is not None:
        return f"node '{new_node.context[:60]}'"
    return ""


def call_item(inp: Any) -> str:
    """What an agent's call is for, as the Run page names it while it runs: the name `_about` gives, else the
    executor's task, the planning step, the cluster or the merge. Text from data: the page escapes it."""
    named = _about(inp)
    if named:
        return named
    if isinstance(inp, ExecutionInput):
        task = inp.task
        return (f"conflict {task.conflict_id}" if task.conflict_id else
                f"image {task.image_id}" if task.image_id else "the answer")
    if isinstance(inp, PlanningInput):
        return f"the next step (round {inp.round + 1})"
    if isinstance(inp, StructureInput):
        return f"cluster '{inp.context[:60]}'"
    if isinstance(inp, IntegrationInput):
        return f"merging {len(inp.nodes_to_merge)} nodes"
    return ""


def batch_item(inputs: Sequence[Any]) -> str:
    first = call_item(inputs[0]) if inputs else ""
    return f"{first} and {len(inputs) - 1} more" if first and len(inputs) > 1 else first


Label = Callable[[str], AbstractContextManager[None]]  # calls made inside are for that item (`LiveCalls`)


class LabelledAgent(Generic[In, Out]):
    """An agent whose calls say what they are for, so the Run page can name the item a call in flight serves."""

    def __init__(self, agent: Agent[In, Out], label: Label) -> None:
        self.name = getattr(agent, "name", "")
        self._agent, self._label = agent, label

    def run(self, inp: In) -> Out:
        with self._label(call_item(inp)):
            return self._agent.run(inp)

    def plan_batches(self, inputs: Sequence[In]) -> list[list[int]]:
        return plan_of(self._agent, inputs)

    def run_batch(self, inputs: Sequence[In]) -> list[Out | MemoryBankError]:
        with self._label(batch_item(inputs)):
            return batch_of(self._agent, inputs)


class FallbackAgent(Generic[In, Out]):
    """The LLM agent, and the offline agent for any input the LLM agent fails on."""

    def __init__(self, primary: Agent[In, Out], fallback: Agent[In, Out], slot: str,
                 publish: Callable[[AgentFellBack], None]) -> None:
        self.name = getattr(primary, "name", slot)
        self._primary, self._fallback, self._slot, self._publish = primary, fallback, slot, publish

    def run(self, inp: In) -> Out:
        try:
            return self._primary.run(inp)
        except STOPS_THE_RUN:  # a budget, a cancel or a dead endpoint stops the run; nothing to fall back to
            raise
        except MemoryBankError as exc:
            return self._fall_back(inp, exc)

    def plan_batches(self, inputs: Sequence[In]) -> list[list[int]]:
        return plan_of(self._primary, inputs)

    def run_batch(self, inputs: Sequence[In]) -> list[Out | MemoryBankError]:
        """The primary's batch; each input it failed on (or all, when the whole call failed) goes offline."""
        try:
            outs = batch_of(self._primary, inputs)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            outs = [exc] * len(inputs)
        return [self._fall_back(inp, out) if isinstance(out, MemoryBankError) else out
                for inp, out in zip(inputs, outs)]

    def _fall_back(self, inp: In, exc: MemoryBankError) -> Out:
        about = _about(inp)
        self._publish(AgentFellBack(where=f"{self._slot} agent" + (f" ({about})" if about else ""),
                                    message=f"the offline agent did this one instead: {exc}", agent=self._slot))
        return self._fallback.run(inp)


def plan_of(agent: Agent[In, Out], inputs: Sequence[In]) -> list[list[int]]:
    """The agent's own batches, or one input a call for an agent that does not batch."""
    return agent.plan_batches(inputs) if isinstance(agent, BatchAgent) else [[i] for i in range(len(inputs))]


def batch_of(agent: Agent[In, Out], inputs: Sequence[In]) -> list[Out | MemoryBankError]:
    """One group's outcomes: the agent's batch call, or its single call for an agent that does not batch."""
    if isinstance(agent, BatchAgent):
        return list(agent.run_batch(inputs))
    return [agent.run(inp) for inp in inputs]


class GuardedAnalysis:
    """LLM analysis, with every merge/related pair re-checked by the offline contradiction detector."""

    name = "analysis"

    def __init__(self, llm: Agent[AnalysisInput, AnalysisOutput],
                 offline: Agent[AnalysisInput, AnalysisOutput]) -> None:
        self._llm, self._offline = llm, offline

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        return self._guard(inp, self._llm.run(inp))

    def plan_batches(self, inputs: Sequence[AnalysisInput]) -> list[list[int]]:
        return plan_of(self._llm, inputs)

    def run_batch(self, inputs: Sequence[AnalysisInput]) -> list[AnalysisOutput | MemoryBankError]:
        outs = batch_of(self._llm, inputs)
        return [out if isinstance(out, MemoryBankError) else self._guard(inp, out) for inp, out in zip(inputs, outs)]

    def _guard(self, inp: AnalysisInput, out: AnalysisOutput) -> AnalysisOutput:
        checked = {j.existing_node_id for j in out.relationships if j.relationship in _GUARDED}
        candidates = [c for c in inp.candidates if c.id in checked]
        if not candidates:
            return out
        second = self._offline.run(inp.model_copy(update={"candidates": candidates}))
        conflicts = {j.existing_node_id: j for j in second.relationships if j.relationship is Relation.CONFLICT}
        return AnalysisOutput(relationships=[_overruled(j, conflicts.get(j.existing_node_id))
                                             for j in out.relationships])


def _overruled(judgement: RelationJudgement, conflict: RelationJudgement | None) -> RelationJudgement:
    if conflict is None or judgement.relationship not in _GUARDED:
        return judgement
    said = judgement.relationship.value
    return conflict.model_copy(update={
        "reasoning": f"the LLM said {said} ({judgement.reasoning or 'no reason given'}); the offline check found "
                     f"a disagreement: {conflict.reasoning}"})


def mixed_label(settings: Settings, llm_label: str) -> str:
    """The LLM engine's label, naming the agents it runs when it does not run them all."""
    on_llm = [s for s in AGENT_SLOTS if settings.engine_for(s) == "llm"]
    if len(on_llm) == len(AGENT_SLOTS):
        return llm_label
    return f"{llm_label} for {', '.join(on_llm)}; offline for the rest"


def _slot(engine: Engine, slot: str) -> Agent[Any, Any]:
    return getattr(engine, _SLOT_FIELDS.get(slot, slot))


def compose_engine(settings: Settings, llm: Engine, offline: Engine,
                   publish: Callable[[AgentFellBack], None], label: Label | None = None) -> Engine:
    """Each slot from the engine the settings choose for it; LLM slots fall back to offline, analysis guarded,
    and with `label` their calls name the input they serve."""
    chosen: dict[str, Agent[Any, Any]] = {}
    for slot in AGENT_SLOTS:
        if settings.engine_for(slot) == "offline":
            chosen[slot] = _slot(offline, slot)
            continue
        primary = _slot(llm, slot)
        if slot == "analysis":
            primary = GuardedAnalysis(primary, offline.analysis)
        # the ReAct executor reports an LLM failure in its result instead of raising; it keeps its partial work.
        # The one-call answer has none to keep: the offline answer stands in for it
        reports = slot == "react" and not settings.answers_in_one_call()
        chosen[slot] = primary if reports else FallbackAgent(primary, _slot(offline, slot), slot, publish)
        if label is not None:
            chosen[slot] = LabelledAgent(chosen[slot], label)
    everything = all(settings.engine_for(s) == "llm" for s in AGENT_SLOTS)
    return Engine(
        name="llm" if everything else "mixed", label=mixed_label(settings, llm.label),
        classification=chosen["classification"], structure=chosen["structure"], analysis=chosen["analysis"],
        integration=chosen["integration"], planning=chosen["planning"], executor=chosen["react"],
        recognizer=chosen["image"],
        uses_llm=any(settings.engine_for(s) == "llm" for s in ("classification", "structure")),
        # offline classification reads chunks of its own size; an LLM one fills its window
        chunk_tokens=offline.chunk_tokens if settings.engine_for("classification") == "offline" else None)
