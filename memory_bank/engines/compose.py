"""An engine put together per agent: each slot on the LLM or the offline engine (DESIGN §10).

Three rules hold wherever an LLM agent runs here:
- it can choose either engine per agent (`Settings.engine_for`), so API users keep ingestion cheap and a slow
  local model writes only the answer;
- it degrades, never drops: when an LLM agent fails on one input (its output stays invalid after the re-asks,
  or the endpoint fails), that input goes to the offline agent, and the failure is published as an
  `AgentFellBack` event (the run's errors and the UI show it). A document is never dropped for it;
- a small model's weak judgement is guarded: every candidate pair is checked by the offline contradiction
  detector, and a disagreement on a number, date or name about the same subject makes the pair a `conflict`
  (priority conflict > merge > related), while a conflict the LLM claims where no value differs is vetoed.
Budgets and cancellation are the run's stop signals, never a reason to fall back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from ..errors import STOPS_THE_RUN, MemoryBankError
from ..events import AgentFellBack, Event
from ..memory.query_graph import Relation
from ..settings import AGENT_SLOTS, Settings
from ..text.tokens import bare_stems
from .base import Agent, Engine, batch_of, plan_of
from .models import (
    AnalysisInput,
    AnalysisOutput,
    ExecutionInput,
    IntegrationInput,
    NodeInfo,
    PlanningInput,
    RelationJudgement,
    StructureInput,
)
from .offline.classification import WINDOW_CLUSTERS, OfflineClassifier
from .offline.contradiction import Substitution
from .offline.structure import OfflineStructurer
from .rules_first import (
    RuleFirst,
    ValidatedFirst,
    analysis_rule,
    classification_rule,
    integration_rule,
    structure_rule,
)

In = TypeVar("In")
Out = TypeVar("Out")

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


@runtime_checkable
class ContradictionCheck(Protocol):
    """The offline analysis as the guard uses it: its judgement of every pair, and the values two nodes' texts
    state differently (empty when nothing they share differs in a number, date or name)."""

    def run(self, inp: AnalysisInput) -> AnalysisOutput: ...

    def disagreements(self, a: NodeInfo, b: NodeInfo) -> list[Substitution]: ...


class GuardedAnalysis:
    """LLM analysis, every pair re-checked by the offline contradiction detector, both ways.

    - A pair the detector finds contradicting (the same words around a different number, date or name) is a
      conflict whatever the LLM said, or if it judged the pair not at all: a small model called the 5 vs 9
      million budgets of two notes "unrelated", and judged one candidate of several (issues 25, 29).
    - A merge the LLM calls where the two texts give a figure differently (where their words line up) is that
      conflict: merging would lose one of the claims.
    - A merge the LLM calls for two texts the detector finds unrelated (`_apart`) is no merge: merging would
      fuse two topics into one node.
    - A conflict the LLM claims where the two texts state no value differently is vetoed: a conflict needs two
      claims about the same thing that cannot both be true. The local 1.5B model, writing its reason first,
      copied the prompt's definition of a conflict into it and then chose "conflict" for pairs of identical
      texts (15 conflicts on the notes sample, each costing a cross-validation). The pair takes the
      detector's judgement instead, and the reasoning says the LLM's claim was overruled.
    """

    name = "analysis"

    def __init__(self, llm: Agent[AnalysisInput, AnalysisOutput], offline: ContradictionCheck) -> None:
        self._llm, self._offline = llm, offline

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        return self._guard(inp, self._llm.run(inp))

    def plan_batches(self, inputs: Sequence[AnalysisInput]) -> list[list[int]]:
        return plan_of(self._llm, inputs)

    def run_batch(self, inputs: Sequence[AnalysisInput]) -> list[AnalysisOutput | MemoryBankError]:
        outs = batch_of(self._llm, inputs)
        return [out if isinstance(out, MemoryBankError) else self._guard(inp, out) for inp, out in zip(inputs, outs)]

    def _guard(self, inp: AnalysisInput, out: AnalysisOutput) -> AnalysisOutput:
        if not inp.candidates:
            return out
        second = {j.existing_node_id: j for j in self._offline.run(inp).relationships}
        by_id = {c.id: c for c in inp.candidates}
        judged: list[RelationJudgement] = []
        for j in out.relationships:
            offline = second.get(j.existing_node_id)
            if offline is None or offline.relationship is Relation.CONFLICT or j.existing_node_id not in by_id \
                    or j.relationship not in (Relation.CONFLICT, Relation.MERGE):
                judged.append(_overruled(j, offline))
                continue
            differing = self._offline.disagreements(inp.new_node, by_id[j.existing_node_id])
            if j.relationship is Relation.CONFLICT:
                judged.append(j if differing else _vetoed(j, offline))
            else:
                figures = [d for d in differing if _has_figure(d.ours) and _has_figure(d.theirs)]
                other = by_id[j.existing_node_id]
                judged.append(_unmerged(j, figures, inp.new_node, other) if figures
                              else _apart(j, offline) if offline.relationship is Relation.UNRELATED
                              or not _overlapping(inp.new_node, other) else j)
        judged = [_own_figures(j, by_id[j.existing_node_id].summary) if j.existing_node_id in by_id else j
                  for j in judged]
        said = {j.existing_node_id for j in judged}
        unjudged = [j for cid, j in second.items() if cid not in said and j.relationship is Relation.CONFLICT]
        update: dict[str, object] = {"relationships": judged + [_unjudged(j) for j in unjudged]}
        if out.context_update_new and _new_figures(out.context_update_new, inp.new_node.summary):
            update["context_update_new"] = None
        return out.model_copy(update=update)


def _overruled(judgement: RelationJudgement, offline: RelationJudgement | None) -> RelationJudgement:
    if offline is None or offline.relationship is not Relation.CONFLICT or \
            judgement.relationship is Relation.CONFLICT:
        return judgement
    said = judgement.relationship.value
    return offline.model_copy(update={
        "reasoning": f"the LLM said {said} ({judgement.reasoning or 'no reason given'}); the offline check found "
                     f"a disagreement: {offline.reasoning}"})


def _has_figure(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _unmerged(judgement: RelationJudgement, figures: list[Substitution], new: NodeInfo,
              other: NodeInfo) -> RelationJudgement:
    """An LLM merge of two texts that give one figure differently where they line up ("budget is 9" / "with a
    budget of 5"): merging would lose a claim, so it is the conflict the merge hid (the local model merged the
    minutes' 5 million budget with the review's 9 million)."""
    subs = "; ".join(d.describe() for d in figures)
    return RelationJudgement(
        existing_node_id=judgement.existing_node_id, relationship=Relation.CONFLICT,
        reasoning=f"the LLM said merge ({judgement.reasoning or 'no reason given'}), but the texts give a figure "
                  f"differently: {subs}",
        conflict_description=f"'{new.context[:80]}' and '{other.context[:80]}' disagree: {subs}")


_FIGURE = re.compile(r"\d[\d.,]*\d|\d")


def _new_figures(rewrite: str, text: str) -> bool:
    """Does a rewritten topic line state a figure its node's text never does? A topic line is the first thing a
    reader (and the answering model) sees of a node: on the notes sample the local model rewrote the minutes'
    topic as "Northwind project budget is 9 million dollars", the review's claim that later lost, and the answer
    took it from there."""
    return bool(set(_FIGURE.findall(rewrite)) - set(_FIGURE.findall(text)))


def _own_figures(judgement: RelationJudgement, text: str) -> RelationJudgement:
    if judgement.context_update_existing and _new_figures(judgement.context_update_existing, text):
        return judgement.model_copy(update={"context_update_existing": None})
    return judgement


MERGE_OVERLAP = 0.6  # the share of the shorter text's content words the longer must say for a merge to stand


def _overlapping(new: NodeInfo, other: NodeInfo) -> bool:
    """Do the two texts overlap heavily (DESIGN: a merge is "same or heavily overlapping content")? On the notes
    sample the local model merged the finance review's opening ("This review was prepared by the finance office
    ...") into the minutes' budget approval, and the review's 9 million budget with its spending to date: six
    merges in one run, five integration calls (153 s), and nodes of two topics each."""
    ours, theirs = bare_stems(new.summary), bare_stems(other.summary)
    shorter = min(ours, theirs, key=len)
    return bool(shorter) and len(ours & theirs) >= MERGE_OVERLAP * len(shorter)


def _apart(judgement: RelationJudgement, offline: RelationJudgement) -> RelationJudgement:
    """An LLM merge of two texts the offline check finds unrelated (no shared run of words, embeddings apart), or
    that share too few of their words: not a duplicate. The local model merged the review's spending (1.2 million
    by June) into the minutes' budget approval; each such merge cost an integration call and a re-analysis of the
    merged node."""
    return offline.model_copy(update={
        "reasoning": f"the LLM said merge ({judgement.reasoning or 'no reason given'}), but the two texts share "
                     f"too little to be duplicates; the offline check: {offline.reasoning}"})


def _vetoed(judgement: RelationJudgement, offline: RelationJudgement) -> RelationJudgement:
    return offline.model_copy(update={
        "reasoning": f"the LLM said conflict ({judgement.reasoning or 'no reason given'}), but the two texts state "
                     f"no number, date or name differently; the offline check: {offline.reasoning}"})


def _unjudged(offline: RelationJudgement) -> RelationJudgement:
    return offline.model_copy(update={
        "reasoning": f"the LLM left this pair unjudged; the offline check found a disagreement: {offline.reasoning}"})


def mixed_label(settings: Settings, llm_label: str) -> str:
    """The LLM engine's label, naming the agents it runs when it does not run them all."""
    on_llm = [s for s in AGENT_SLOTS if settings.engine_for(s) == "llm"]
    if len(on_llm) == len(AGENT_SLOTS):
        return llm_label
    return f"{llm_label} for {', '.join(on_llm)}; offline for the rest"


def _slot(engine: Engine, slot: str) -> Agent[Any, Any]:
    return getattr(engine, _SLOT_FIELDS.get(slot, slot))


def _ruled(slot: str, primary: Agent[Any, Any], offline: Engine, publish: Callable[[Event], None]) -> Agent[Any, Any]:
    """The LLM agent of `slot` with its guard, and the rules that answer some inputs without a call."""
    if slot == "analysis":
        check = offline.analysis
        if not isinstance(check, ContradictionCheck):
            raise TypeError("the LLM analysis is guarded by an offline analysis that can compare two nodes")
        return RuleFirst(GuardedAnalysis(primary, check), offline.analysis, analysis_rule, publish)
    if slot == "structure" and isinstance(offline.structure, OfflineStructurer):
        return RuleFirst(primary, offline.structure, structure_rule(offline.structure), publish)
    if slot == "integration":
        return RuleFirst(primary, offline.integration, integration_rule, publish)
    if slot == "classification" and isinstance(offline.classification, OfflineClassifier):
        return RuleFirst(primary, offline.classification.sized(WINDOW_CLUSTERS), classification_rule, publish)
    return primary


def compose_engine(settings: Settings, llm: Engine, offline: Engine, publish: Callable[[Event], None],
                   label: Label | None = None) -> Engine:
    """Each slot from the engine the settings choose for it; LLM slots fall back to offline, analysis guarded,
    rules first where they decide without a call, and with `label` their calls name the input they serve."""
    chosen: dict[str, Agent[Any, Any]] = {}
    for slot in AGENT_SLOTS:
        if settings.engine_for(slot) == "offline":
            chosen[slot] = _slot(offline, slot)
            continue
        primary = _ruled(slot, _slot(llm, slot), offline, publish)
        # the ReAct executor reports an LLM failure in its result instead of raising; it keeps its partial work.
        # The one-call answer has none to keep: the offline answer stands in for it
        reports = slot == "react" and not settings.answers_in_one_call()
        if reports:
            primary = ValidatedFirst(primary, offline.executor, publish)
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
