"""The Insight Doc changes in one place, and each change is the event the UI and the run log follow."""

from __future__ import annotations

import ast
from pathlib import Path

from memory_bank.events import EventBus, TaskCompleted, TaskPlanned
from memory_bank.memory.insight_doc import CompletedTask, PendingTask, TaskStatus, TaskType
from memory_bank.memory.insight_ops import InsightOps
from memory_bank.memory.store import Memory

PACKAGE = Path(__file__).resolve().parents[2] / "memory_bank"


def _ops() -> tuple[InsightOps, Memory, EventBus]:
    memory, events = Memory(), EventBus()
    return InsightOps(memory, events), memory, events


def test_planning_and_completing_change_the_doc_and_publish_one_event_each() -> None:
    ops, memory, events = _ops()
    ops.begin("What is the budget?")
    ops.plan(PendingTask(description="find the budget"))
    assert memory.insight_doc.next_task == PendingTask(description="find the budget")
    ops.plan(PendingTask(description="look again"))  # one-step planning: the new task replaces the old
    assert [t.description for t in memory.insight_doc.pending_tasks] == ["look again"]
    ops.complete(CompletedTask(description="look again", status=TaskStatus.SUCCESS, context="5 million"))
    ops.plan(None)
    doc = memory.insight_doc
    assert (doc.task_goal, doc.pending_tasks, [t.context for t in doc.completed_tasks]) == (
        "What is the budget?", [], ["5 million"])
    assert events.log() == [
        TaskPlanned(task_type="NORMAL", description="find the budget", ts=events.log()[0].ts),
        TaskPlanned(task_type="NORMAL", description="look again", ts=events.log()[1].ts),
        TaskCompleted(task_type="NORMAL", description="look again", status="success", context="5 million",
                      ts=events.log()[2].ts)]


def test_a_new_question_starts_a_fresh_doc_and_copies_are_detached() -> None:
    ops, memory, _ = _ops()
    ops.begin("first")
    ops.complete(CompletedTask(description="t", status=TaskStatus.FAILED))
    copy = ops.copy()
    copy.completed_tasks.clear()
    assert len(memory.insight_doc.completed_tasks) == 1
    ops.begin("second")
    assert (memory.insight_doc.task_goal, memory.insight_doc.completed_tasks) == ("second", [])


def test_planning_may_rewrite_what_tasks_taught_but_not_add_drop_or_retype_them() -> None:
    ops, memory, _ = _ops()
    ops.begin("goal")
    ops.complete(CompletedTask(description="a", status=TaskStatus.SUCCESS, context="old a"))
    ops.complete(CompletedTask(type=TaskType.CROSS_VALIDATE, description="b", status=TaskStatus.SUCCESS,
                               context="old b"))
    ops.revise([CompletedTask(description="a", status=TaskStatus.FAILED, context="  new a  "),
                CompletedTask(description="b", status=TaskStatus.SUCCESS, context="new b")])  # b's type differs
    assert [(t.context, t.status) for t in memory.insight_doc.completed_tasks] == [
        ("new a", TaskStatus.SUCCESS), ("old b", TaskStatus.SUCCESS)]
    ops.revise([CompletedTask(description="a", status=TaskStatus.SUCCESS, context="dropped b")])
    assert memory.insight_doc.completed_tasks[0].context == "new a"


def _writes_to_the_doc(path: Path) -> list[str]:
    """Assignments to a doc's task lists or to `insight_doc`, and appends to the task lists."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            if (isinstance(target, ast.Attribute) and target.attr in ("insight_doc", "pending_tasks", "completed_tasks")
                    and ast.unparse(target.value) != "out"):  # the store's change set holds the doc's text
                found.append(f"{path.name}:{node.lineno}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr in ("pending_tasks", "completed_tasks")):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_only_the_insight_ops_and_the_memory_itself_write_the_doc() -> None:
    allowed = {PACKAGE / "memory" / "insight_ops.py", PACKAGE / "memory" / "store.py"}
    writers = [w for path in sorted(PACKAGE.rglob("*.py")) if path not in allowed for w in _writes_to_the_doc(path)]
    assert not writers, writers
