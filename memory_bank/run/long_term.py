"""The long-term memory's two moments in a run (seed 004 §5-7, §6.3).

Before: the question is routed and the <long_term> block built within its budget; the adapter puts it into every
prompt of the run (the offline executor reads memory directly, so for it the block records what it would use);
the injection is published as an event. After: the run's typed result and events become a `TaskDigest`, the
engine's distiller turns it into lessons (L2 records, each with its L3 Markdown), old weak strategies are cleaned
up, and the answer is registered with the records it used, so feedback on it reaches them.
"""

from __future__ import annotations

from ..errors import BudgetExceeded, MemoryBankError, RunCancelled
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
from ..long_term.models import REFLECTION, Category, Injection, LongTermUse, MemoryRecord, Source
from ..long_term.recovery import RecoveringToolBox
from .adapter import Adapter
from .results import RunResult


def task_digest(result: RunResult, events: list[Event]) -> TaskDigest:
    """What the finished run did, typed, from its result and the events it published."""
    return TaskDigest(
        question=result.question, answer=result.answer, answered=bool(result.citations),
        termination=result.termination,
        tasks=[DigestTask(type=t.type.value, description=t.description, status=t.status.value, context=t.context)
               for t in result.insight_doc.completed_tasks],
        calls=[DigestCall(tool=e.tool, ok=e.ok, arguments=e.arguments) for e in events if isinstance(e, ToolCalled)],
        settled_conflicts=[e.resolution for e in events if isinstance(e, ConflictResolved) and e.resolution],
        errors=list(result.errors))


class LongTermHook:
    def __init__(self, ltm: LongTermMemory, distiller: Distiller, adapter: Adapter, events: EventBus,
                 budget_tokens: int, tools: RecoveringToolBox | None = None) -> None:
        self.ltm, self.distiller, self.adapter, self.events, self.tools = ltm, distiller, adapter, events, tools
        self.budget_tokens = budget_tokens

    def before(self, question: str) -> Injection:
        """The block for this run, within the bank's `long_term_budget_tokens` (a bank sizes its own prompt)."""
        injection = self.ltm.search(question, self.budget_tokens)
        self.adapter.long_term_block = injection.block
        self.ltm.mark_used(injection.memory_ids)
        self.events.publish(LongTermInjected(memory_ids=tuple(injection.memory_ids), tokens=injection.tokens,
                                             budget_tokens=injection.budget_tokens))
        return injection

    def after(self, result: RunResult, events: list[Event], injection: Injection) -> LongTermUse:
        self.adapter.long_term_block = ""
        applied = self.tools.take_applied() if self.tools is not None else []
        distilled = self._distil(result, events)
        self.ltm.cleanup()
        self._refresh_reflections(distilled, events)
        answer_id = self.ltm.record_answer(result.question, result.answer, [*injection.memory_ids, *applied])
        if distilled:
            self.events.publish(LongTermLearned(memory_ids=tuple(distilled)))
        return LongTermUse(answer_id=answer_id, injection=injection, strategies_applied=applied,
                           distilled=distilled)

    def _distil(self, result: RunResult, events: list[Event]) -> list[str]:
        if result.termination in ("cancelled", "endpoint_down"):  # nothing to learn; the endpoint is known down
            return []
        try:
            lessons = self.distiller.run(task_digest(result, events))
        except (BudgetExceeded, RunCancelled) as exc:
            result.errors.append(f"long-term distillation: {exc}")
            return []
        except MemoryBankError as exc:
            result.errors.append(f"long-term distillation: {exc}")
            self.events.publish(ErrorRaised(where="long-term distillation", message=str(exc)))
            return []
        ids = []
        for lesson in lessons.lessons:
            same = self._same(lesson.category, lesson.content)
            if same is not None:  # learnt again: more confident, not a second copy
                self.ltm.update(same.memory_id, confidence=min(1.0, same.confidence + 0.1 * (1 - same.confidence)),
                                needs_revision=same.needs_revision)
                ids.append(same.memory_id)
                continue
            record = self.ltm.add(lesson.content, lesson.category, subcategory=lesson.subcategory,
                                  tags=lesson.tags, confidence=lesson.confidence, source=Source.TASK_RESULT,
                                  title=f"Lesson from the task: {result.question[:120]}")
            ids.append(record.memory_id)
        return ids

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
