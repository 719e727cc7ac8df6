"""Insight Doc operations: the one path that changes the task state a run plans from (DESIGN §1, §4).

As `GraphOps` is for the Query Graph, so this is for the Insight Doc: each change holds the memory's write lock
itself and publishes its event (`TaskPlanned`, `TaskCompleted`), so the doc and the event stream the UI and the
run log follow never tell different stories. Readers still read `memory.insight_doc` (under the read lock).
"""

from __future__ import annotations

from ..events import EventBus, TaskCompleted, TaskPlanned
from .insight_doc import CompletedTask, InsightDoc, PendingTask
from .store import Memory


class InsightOps:
    def __init__(self, memory: Memory, events: EventBus) -> None:
        self.memory = memory
        self.events = events

    def begin(self, goal: str) -> None:
        """A fresh doc for a new question: the memory carries over, the previous question's tasks do not."""
        with self.memory.write():
            self.memory.insight_doc = InsightDoc(task_goal=goal)

    def plan(self, task: PendingTask | None, by: str = "planning agent", reason: str = "") -> None:
        """`task` is what happens next (one-step planning: it replaces whatever was pending); None ends the
        loop. `by`: who decided it ("rule" when the loop did without asking the planning agent), `reason` why."""
        with self.memory.write():
            self.memory.insight_doc.pending_tasks = [task] if task else []
            if task:
                self.events.publish(TaskPlanned(task_type=task.type.value, description=task.description, by=by,
                                                reason=reason))

    def complete(self, done: CompletedTask) -> None:
        """The pending task is done (or failed): it moves to the completed list and nothing is pending."""
        with self.memory.write():
            doc = self.memory.insight_doc
            doc.completed_tasks.append(done)
            doc.pending_tasks = []
            self.events.publish(TaskCompleted(task_type=done.type.value, description=done.description,
                                              status=done.status.value, context=done.context))

    def revise(self, proposed: list[CompletedTask]) -> None:
        """Planning may rewrite what completed tasks taught; it may not add, drop or re-judge them, so only the
        context of a task of the same type at the same place is taken, and only when it says something."""
        with self.memory.write():
            current = self.memory.insight_doc.completed_tasks
            if len(proposed) == len(current):
                for mine, theirs in zip(current, proposed):
                    if theirs.context.strip() and theirs.type == mine.type:
                        mine.context = theirs.context.strip()

    def copy(self) -> InsightDoc:
        """The doc as it stands, detached (for an agent's input or a run's result)."""
        with self.memory.read():
            return self.memory.insight_doc.model_copy(deep=True)
