"""The long-term memory's two moments in a run (seed 004 §5-7, §6.3).

Before: the question is routed and the <long_term> block built within its budget; the session hands it to the
runner, whose adapter puts it into every prompt of the run (the offline executor reads memory directly, so for it
the block records what it would use); the injection is published as an event. After: the run's typed result and
events become a `TaskDigest`, the engine's distiller turns it into lessons, `vetting` keeps the ones that are
neither instruction-like nor copies of the answer and says where each comes from (L2 records with their provenance
and source task, each with its L3 Markdown), old weak strategies are cleaned up, and the answer is registered with
the records it used, so feedback on it reaches them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engines.models import Citation
from ..errors import BudgetExceeded, MemoryBankError, RunCancelled, RunError
from ..events import (
    ConflictResolved,
    ErrorRaised,
    Event,
    EventBus,
    LongTermInjected,
    LongTermLearned,
    ToolCalled,
    ToolRecovered,
)
from ..long_term.distill import DigestCall, DigestTask, Distiller, TaskDigest
from ..long_term.memory import LongTermMemory
from ..long_term.models import REFLECTION, Category, Injection, LongTermUse, MemoryRecord, Source, Withheld
from ..long_term.recovery import RecoveringToolBox
from ..long_term.vetting import vet
from ..retrieval.view import MemoryView
from .results import RunResult

MAX_EVIDENCE_CHARS = 4_000  # of each cited passage
MAX_EVIDENCE = 8
DISTIL_WHERE = "long-term distillation"


def cited_evidence(citations: list[Citation], view: MemoryView | None) -> list[str]:
    """The text each citation stands on: its quote, else the document text behind the cited node (an LLM's
    citation names a node only). What a lesson's document support is checked against."""
    out = []
    for c in citations[:MAX_EVIDENCE]:
        text = c.quote or (" ".join(e.text for e in view.entries_for(c.node_id)) if view is not None else "")
        if text.strip():
            out.append(text[:MAX_EVIDENCE_CHARS])
    return out


def task_digest(result: RunResult, events: list[Event], view: MemoryView | None = None) -> TaskDigest:
    """What the finished run did, typed, from its result, the events it published and the cited memory."""
    return TaskDigest(
        question=result.read_question(), answer=result.answer, answered=bool(result.citations),
        termination=result.termination,
        tasks=[DigestTask(type=t.type.value, description=t.description, status=t.status.value, context=t.context)
               for t in result.insight_doc.completed_tasks],
        calls=[DigestCall(tool=e.tool, ok=e.ok, arguments=e.arguments) for e in events if isinstance(e, ToolCalled)],
        settled_conflicts=[e.resolution for e in events if isinstance(e, ConflictResolved) and e.resolution],
        errors=[str(e) for e in result.errors], sources=[c.where() for c in result.citations],
        evidence=cited_evidence(result.citations, view))


class LongTermHook:
    def __init__(self, ltm: LongTermMemory, distiller: Distiller, events: EventBus,
                 budget_tokens: int, tools: RecoveringToolBox | None = None,
                 task_id: Callable[[], str | None] = lambda: None, view: MemoryView | None = None) -> None:
        """`task_id`: the task this bank is (`wiring.source_task`), read at each run: the source task its lessons
        and answers name."""
        self.ltm, self.distiller, self.events, self.tools = ltm, distiller, events, tools
        self.budget_tokens = budget_tokens
        self.task_id = task_id
        self.view = view

    def before(self, question: str) -> Injection:
        """The block for this run (`injection.block`), within the bank's `long_term_budget_tokens` (a bank sizes
        its own prompt)."""
        injection = self.ltm.search(question, self.budget_tokens)
        self.ltm.mark_used(injection.memory_ids)
        self.events.publish(LongTermInjected(memory_ids=tuple(injection.memory_ids), tokens=injection.tokens,
                                             budget_tokens=injection.budget_tokens))
        return injection

    def after(self, result: RunResult, events: list[Event], injection: Injection) -> LongTermUse:
        applied = self.tools.take_applied() if self.tools is not None else []
        distilled, refused = self._distil(result, events)
        self.ltm.cleanup()
        self._refresh_reflections(distilled, events)
        answer_id = self.ltm.record_answer(result.read_question(), result.answer, [*injection.memory_ids, *applied],
                                           task_id=self.task_id())
        if distilled:
            self.events.publish(LongTermLearned(memory_ids=tuple(distilled)))
        return LongTermUse(answer_id=answer_id, injection=injection, strategies_applied=applied,
                           distilled=distilled, refused=refused)

    def _distil(self, result: RunResult, events: list[Event]) -> tuple[list[str], list[Withheld]]:
        if result.termination in ("cancelled", "endpoint_down"):  # nothing to learn; the endpoint is known down
            return [], []
        digest = task_digest(result, events, self.view)
        try:
            lessons = self.distiller.run(digest)
        except (BudgetExceeded, RunCancelled) as exc:
            result.add_errors([RunError.of(DISTIL_WHERE, exc)])
            return [], []
        except MemoryBankError as exc:
            result.add_errors([RunError.of(DISTIL_WHERE, exc)])
            self.events.publish(ErrorRaised(where=DISTIL_WHERE, message=str(exc)))
            return [], []
        kept, refused = vet(lessons, digest)
        ids = []
        for lesson, provenance in ((v.lesson, v.provenance) for v in kept):
            same = self._same(lesson.category, lesson.content)
            if same is not None:  # learnt again: more confident, not a second copy
                self.ltm.update(same.memory_id, confidence=min(1.0, same.confidence + 0.1 * (1 - same.confidence)),
                                needs_revision=same.needs_revision)
                ids.append(same.memory_id)
                continue
            record = self.ltm.add(lesson.content, lesson.category, subcategory=lesson.subcategory,
                                  tags=lesson.tags, confidence=lesson.confidence, source=Source.TASK_RESULT,
                                  provenance=provenance, source_task=self.task_id(),
                                  title=f"Lesson from the task: {result.read_question()[:120]}")
            ids.append(record.memory_id)
        return ids, refused

    def _refresh_reflections(self, distilled: list[str], events: list[Event]) -> None:
        """A category that has an L3 summary gets it rewritten when the task added to it (seed §6.3)."""
        touched = {self.ltm.get(i).category for i in distilled}
        if any(isinstance(e, ToolRecovered) and e.ok for e in events):
            touched.add(Category.STRATEGY)
        have = {r.category for r in self.ltm.records(tags=[REFLECTION]) if r.subcategory == REFLECTION}
        for category in sorted(touched & have):
            self.ltm.reflect(category)

    def _same(self, category: Category, content: str) -> MemoryRecord | None:
        key = " ".join(content.split()).lower()
        return next((r for r in self.ltm.records(category) if r.content.lower() == key), None)
