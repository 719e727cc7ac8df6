"""Read-only links to a task: its owner makes one (`create`), sees them (`of_task`) and revokes them (`revoke`).

A link is 192 random bits (`?share=<token>`); whoever holds it may read the task, never write it: the app shows a
copy loaded from the store, without taking the task's lease. A revoked link, an unknown one and one whose task was
deleted read the same (`TaskNotFound`).
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from ..limits import TASK_ID_PATTERN, fits
from .guard import guard
from .owners import not_found
from .schema import ShareRow, TaskRow

TOKEN_PATTERN = r"[A-Za-z0-9_-]{32}"


class TaskShares:
    def __init__(self, engine: Engine, where: str) -> None:
        self.engine, self.where = engine, where

    def create(self, task_id: str, owner: str) -> str:
        """A new read-only link to `owner`'s task (`TaskNotFound` for anyone else's)."""
        token = secrets.token_urlsafe(24)
        with guard(self.where, "sharing a task"), Session(self.engine) as s, s.begin():
            if s.scalar(select(TaskRow.id).where(TaskRow.id == task_id, TaskRow.owner == owner)) is None:
                raise not_found(task_id)
            s.add(ShareRow(token=token, task_id=task_id, created=time.time()))
        return token

    def of_task(self, task_id: str, owner: str) -> list[tuple[str, float]]:
        """The task's links (token, created), oldest first; none for a task that is not `owner`'s."""
        with guard(self.where, "listing a task's links"), Session(self.engine) as s:
            return [(t, c) for t, c in s.execute(
                select(ShareRow.token, ShareRow.created).join(TaskRow, TaskRow.id == ShareRow.task_id)
                .where(ShareRow.task_id == task_id, TaskRow.owner == owner).order_by(ShareRow.created))]

    def revoke(self, token: str, owner: str) -> bool:
        """Delete the link if it is to one of `owner`'s tasks; True when it was."""
        with guard(self.where, "revoking a link"), Session(self.engine) as s, s.begin():
            mine = select(TaskRow.id).where(TaskRow.owner == owner)
            return bool(s.execute(delete(ShareRow).where(ShareRow.token == token, ShareRow.task_id.in_(mine)))
                        .rowcount)

    def resolve(self, token: str) -> str:
        """The task a link shows; `TaskNotFound` for a revoked, unknown or malformed one."""
        if not fits(TOKEN_PATTERN, token):
            raise not_found("shared link")
        with guard(self.where, "opening a shared link"), Session(self.engine) as s:
            task_id = s.scalar(select(ShareRow.task_id).join(TaskRow, TaskRow.id == ShareRow.task_id)
                               .where(ShareRow.token == token))
        if task_id is None or not fits(TASK_ID_PATTERN, task_id):
            raise not_found("shared link")
        return task_id
