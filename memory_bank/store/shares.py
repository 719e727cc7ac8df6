"""Read-only links to a task: its owner makes one (`create`), sees them (`of_task`) and revokes them (`revoke`).

A link is 192 random bits (`?share=<token>`); whoever holds it may read the task, never write it: the app shows a
copy loaded from the store, without taking the task's lease. A link lasts as long as its owner chose when making
it (a week unless told otherwise, a year at most): a link forwarded beyond the people meant stops working by
itself. A revoked link, an expired one, an unknown one and one whose task was deleted read the same
(`TaskNotFound`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import NamedTuple

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from ..errors import InputError
from ..limits import DEFAULT_SHARE_SECONDS, MAX_SHARE_SECONDS, TASK_ID_PATTERN, fits
from .guard import guard
from .owners import not_found
from .schema import ShareRow, TaskRow, changed

TOKEN_PATTERN = r"[A-Za-z0-9_-]{32}"


class ShareLink(NamedTuple):
    token: str
    created: float
    expires: float


class TaskShares:
    def __init__(self, engine: Engine, where: str, clock: Callable[[], float] = time.time) -> None:
        self.engine, self.where, self.clock = engine, where, clock

    def create(self, task_id: str, owner: str, lifetime: float = DEFAULT_SHARE_SECONDS) -> str:
        """A new read-only link to `owner`'s task (`TaskNotFound` for anyone else's), valid for `lifetime`
        seconds (`InputError` outside 1 minute .. a year). The links of any task that have expired go."""
        if not 60 <= lifetime <= MAX_SHARE_SECONDS:
            raise InputError(f"a link lasts from a minute to {MAX_SHARE_SECONDS / 86400:.0f} days "
                             f"(asked: {lifetime:.0f} s)")
        token, now = secrets.token_urlsafe(24), self.clock()
        with guard(self.where, "sharing a task"), Session(self.engine) as s, s.begin():
            if s.scalar(select(TaskRow.id).where(TaskRow.id == task_id, TaskRow.owner == owner)) is None:
                raise not_found(task_id)
            s.execute(delete(ShareRow).where(ShareRow.expires <= now))
            s.add(ShareRow(token=token, task_id=task_id, created=now, expires=now + lifetime))
        return token

    def of_task(self, task_id: str, owner: str) -> list[ShareLink]:
        """The task's links that still work, oldest first; none for a task that is not `owner`'s."""
        with guard(self.where, "listing a task's links"), Session(self.engine) as s:
            return [ShareLink(*row) for row in s.execute(
                select(ShareRow.token, ShareRow.created, ShareRow.expires)
                .join(TaskRow, TaskRow.id == ShareRow.task_id)
                .where(ShareRow.task_id == task_id, TaskRow.owner == owner, ShareRow.expires > self.clock())
                .order_by(ShareRow.created))]

    def revoke(self, token: str, owner: str) -> bool:
        """Delete the link if it is to one of `owner`'s tasks; True when it was."""
        with guard(self.where, "revoking a link"), Session(self.engine) as s, s.begin():
            mine = select(TaskRow.id).where(TaskRow.owner == owner)
            return bool(changed(s, delete(ShareRow).where(ShareRow.token == token, ShareRow.task_id.in_(mine))))

    def resolve(self, token: str) -> str:
        """The task a link shows; `TaskNotFound` for a revoked, expired, unknown or malformed one."""
        if not fits(TOKEN_PATTERN, token):
            raise not_found("shared link")
        with guard(self.where, "opening a shared link"), Session(self.engine) as s:
            task_id = s.scalar(select(ShareRow.task_id).join(TaskRow, TaskRow.id == ShareRow.task_id)
                               .where(ShareRow.token == token, ShareRow.expires > self.clock()))
        if task_id is None or not fits(TASK_ID_PATTERN, task_id):
            raise not_found("shared link")
        return task_id
