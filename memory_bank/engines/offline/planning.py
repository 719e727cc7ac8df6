"""Offline planning: one-step rules over the Insight Doc (DESIGN §3).

The next step is always the most urgent one: a contradiction in memory is settled before anything is answered
from it, an uploaded image is described before it can be used, and the question is answered once. Nothing is
left pending after that, which ends the run. The rules never invent work, so the run cannot loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...memory.insight_doc import PendingTask, TaskStatus, TaskType
from ..models import PlanningInput, PlanningOutput


@dataclass(frozen=True)
class PlanningConfig:
    """`max_answer_attempts`: answering tasks that may fail before the planner stops asking again."""

    max_answer_attempts: int = 2


class OfflinePlanner:
    name = "planning"

    def __init__(self, config: PlanningConfig | None = None) -> None:
        self.config = config or PlanningConfig()

    def run(self, inp: PlanningInput) -> PlanningOutput:
        doc = inp.insight_doc
        pending = [] if inp.round >= inp.max_rounds else [t for t in [self._next(inp)] if t is not None]
        return PlanningOutput(task_goal=doc.task_goal, completed_tasks=list(doc.completed_tasks),
                              pending_tasks=pending)

    def _next(self, inp: PlanningInput) -> PendingTask | None:
        if inp.conflicts:
            c = inp.conflicts[0]
            return PendingTask(type=TaskType.CROSS_VALIDATE, conflict_id=c.conflict_id,
                               description=f"Cross-validate against the task's documents: {c.description}")
        if inp.pending_images:
            image = inp.pending_images[0]
            return PendingTask(type=TaskType.IMAGE_RECOGNITION, image_id=image.image_id,
                               description=f"Describe the uploaded image {image.name}")
        goal = inp.insight_doc.task_goal.strip()
        if not goal or self._answered(inp):
            return None
        return PendingTask(type=TaskType.NORMAL, description=f"Answer the question from the documents: {goal}")

    def _answered(self, inp: PlanningInput) -> bool:
        if inp.answer_so_far:
            return True
        normal = [t for t in inp.insight_doc.completed_tasks if t.type is TaskType.NORMAL]
        if any(t.status is TaskStatus.SUCCESS for t in normal):
            return True
        return len(normal) >= self.config.max_answer_attempts
