"""The task store: tasks that survive a reload, a restart or a crash (DESIGN §8).

`SqlTaskStore` keeps every task's memory, runs, run log and files (SQLite in the data folder by default, or
PostgreSQL by URL); a `MemoryBank` given a store writes its changes there in the background (`persist`).
"""

from __future__ import annotations

from .base import ChangeSet, RunRecord, StoredTask, TaskStore, TaskSummary
from .persist import SaveStatus
from .sql import SqlTaskStore, new_task_id

__all__ = ["ChangeSet", "RunRecord", "SaveStatus", "SqlTaskStore", "StoredTask", "TaskStore", "TaskSummary",
           "new_task_id"]
