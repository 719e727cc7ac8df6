"""Insight Doc: the task state handed to the agent every round (DESIGN §1).

Planning is incremental: `pending_tasks` holds at most one task, so the doc always says what happens next and
nothing further.
"""

from __future__ import annotations

import uuid
from enum import Enum
from functools import partial
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, field_validator

from ..limits import MAX_BODY, MAX_LINE, shorten

# The doc is written to the task store as its export record: texts a model or a user wrote are shortened to the
# schema's bounds when set, so the store never holds a doc its reader would refuse.
Line = Annotated[str, AfterValidator(partial(shorten, limit=MAX_LINE))]
Body = Annotated[str, AfterValidator(partial(shorten, limit=MAX_BODY))]


class TaskType(str, Enum):
    NORMAL = "NORMAL"
    CROSS_VALIDATE = "CROSS_VALIDATE"
    IMAGE_RECOGNITION = "IMAGE_RECOGNITION"


class TaskStatus(str, Enum):
    SUCCESS = "success"
    FAILED = "failed"


class PendingTask(BaseModel):
    type: TaskType = TaskType.NORMAL
    description: Line = Field(min_length=1)
    # CROSS_VALIDATE: the conflict to validate; IMAGE_RECOGNITION: the temp image to describe.
    conflict_id: str | None = None
    image_id: str | None = None


class CompletedTask(BaseModel):
    type: TaskType = TaskType.NORMAL
    description: Line
    status: TaskStatus
    context: Body = Field(default="", description="1-2 sentences of knowledge gained, or why it failed")


class InsightDoc(BaseModel):
    doc_id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    task_goal: Body = ""
    completed_tasks: list[CompletedTask] = Field(default_factory=list)
    pending_tasks: list[PendingTask] = Field(default_factory=list, max_length=1)

    @field_validator("pending_tasks")
    @classmethod
    def _at_most_one(cls, tasks: list[PendingTask]) -> list[PendingTask]:
        if len(tasks) > 1:
            raise ValueError("pending_tasks holds at most one task (one-step planning)")
        return tasks

    @property
    def next_task(self) -> PendingTask | None:
        return self.pending_tasks[0] if self.pending_tasks else None

    @property
    def is_finished(self) -> bool:
        """Done when nothing is pending and every sub-task so far succeeded (or there were none)."""
        return not self.pending_tasks
