"""Whose each task is. Every task belongs to one user (`tasks.owner`); a user's view of the store is their own
tasks, and another user's task is, to them, exactly a task that does not exist (the same `TaskNotFound`, the same
words), so a task id cannot be probed for. Tasks made before accounts belong to `LOCAL_USER`; `assign` hands
them (or one task) to a user."""

from __future__ import annotations

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from ..errors import TaskNotFound
from ..limits import LOCAL_USER, TASK_ID_PATTERN, fits
from .guard import guard
from .schema import TaskRow, changed


def not_found(task_id: str) -> TaskNotFound:
    """What an unknown task id and another user's task both raise."""
    shown = task_id if fits(TASK_ID_PATTERN, task_id) else "(not a task id)"
    return TaskNotFound(f"no task {shown!r} (it was deleted, or the link is wrong)")


class TaskOwners:
    def __init__(self, engine: Engine, where: str) -> None:
        self.engine, self.where = engine, where

    def owner_of(self, task_id: str) -> str | None:
        with guard(self.where, "reading a task's owner"), Session(self.engine) as s:
            return s.scalar(select(TaskRow.owner).where(TaskRow.id == task_id))

    def check(self, task_id: str, user: str) -> None:
        """`TaskNotFound` unless the task exists and is `user`'s."""
        if not fits(TASK_ID_PATTERN, task_id) or self.owner_of(task_id) != user:
            raise not_found(task_id)

    def owned(self, user: str) -> list[str]:
        """The ids of `user`'s tasks (for `list_tasks(ids=...)`)."""
        with guard(self.where, "listing a user's tasks"), Session(self.engine) as s:
            return list(s.scalars(select(TaskRow.id).where(TaskRow.owner == user)))

    def assign(self, user: str, task_id: str | None = None, source: str = LOCAL_USER) -> int:
        """Give one task, or every task of `source`, to `user`; returns how many changed hands."""
        query = update(TaskRow).values(owner=user)
        query = query.where(TaskRow.id == task_id) if task_id is not None else query.where(TaskRow.owner == source)
        with guard(self.where, "assigning tasks"), Session(self.engine) as s, s.begin():
            return changed(s, query)
