"""Invariants of one-step planning that hold whatever the planning agent says (DESIGN §3, §4).

A pending conflict always comes first as CROSS_VALIDATE; then waiting images as IMAGE_RECOGNITION; a goal
without an answer gets a NORMAL answering task. When the planning agent fails, these same rules plan the next
step, so a broken planner degrades the run instead of ending it.
"""

from __future__ import annotations

from ..memory.insight_doc import PendingTask, TaskType
from ..memory.pending_images import TempImage
from ..memory.query_graph import PendingConflict


def answer_task(goal: str) -> PendingTask:
    return PendingTask(type=TaskType.NORMAL, description=f"Answer from the task's documents and memory: {goal}")


def guard_next(proposed: PendingTask | None, *, goal: str, conflicts: list[PendingConflict],
               images: list[TempImage], answered: bool) -> PendingTask | None:
    pending_ids = {c.id for c in conflicts}
    if conflicts:
        if proposed and proposed.type is TaskType.CROSS_VALIDATE and proposed.conflict_id in pending_ids:
            return proposed
        c = conflicts[0]
        return PendingTask(type=TaskType.CROSS_VALIDATE, conflict_id=c.id,
                           description=f"Cross-validate the conflicting claims: {c.description}")
    image_ids = {i.image_id for i in images}
    if images:
        if proposed and proposed.type is TaskType.IMAGE_RECOGNITION and proposed.image_id in image_ids:
            return proposed
        return PendingTask(type=TaskType.IMAGE_RECOGNITION, image_id=images[0].image_id,
                           description=f"Describe the uploaded image {images[0].name}")
    if proposed and proposed.type is TaskType.NORMAL:
        return proposed
    return None if answered else answer_task(goal)
