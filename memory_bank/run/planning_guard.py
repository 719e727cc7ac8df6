"""Invariants of one-step planning that hold whatever the planning agent says (DESIGN §3, §4).

A pending conflict always comes first as CROSS_VALIDATE; then waiting images as IMAGE_RECOGNITION; a goal
without an answer gets a NORMAL answering task; a step that has just answered the goal, with nothing pending,
ends the run. Where these rules alone decide the next step (`rule_decision`), the planning agent is not asked
at all: its answer could change nothing, and on a local model a planning call
costs half a minute. When the planning agent fails, or proposes what the rules forbid (a step already done: a
model looping on one task), the same rules plan the next step, so a broken planner degrades the run instead of
ending it. Each decision says who made it and why, for the run log.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..memory.insight_doc import CompletedTask, PendingTask, TaskStatus, TaskType
from ..memory.pending_images import TempImage
from ..memory.query_graph import PendingConflict

PLANNER = "planning agent"
RULE = "rule"
# the status a completed task's line in the planning prompt carries after its description
_ECHOED_LINE = re.compile(rf"\s*->\s*(?:{'|'.join(s.value for s in TaskStatus)})\b.*\Z", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class Decision:
    """The next task (None: the run is finished), who decided it and why."""

    task: PendingTask | None
    by: str
    reason: str = ""


def answer_task(goal: str) -> PendingTask:
    return PendingTask(type=TaskType.NORMAL, description=f"Answer from the task's documents and memory: {goal}")


def _cross_validate(conflict: PendingConflict) -> PendingTask:
    return PendingTask(type=TaskType.CROSS_VALIDATE, conflict_id=conflict.id,
                       description=f"Cross-validate the conflicting claims: {conflict.description}")


def _recognise(image: TempImage) -> PendingTask:
    return PendingTask(type=TaskType.IMAGE_RECOGNITION, image_id=image.image_id,
                       description=f"Describe the uploaded image {image.name}")


def rule_decision(*, goal: str, conflicts: list[PendingConflict], images: list[TempImage], answered: bool,
                  at_round_cap: bool, worked_on_goal: bool = True, just_answered: bool = False) -> Decision | None:
    """The next step when the rules leave no choice, else None (the planning agent is asked).

    `worked_on_goal`: a NORMAL task was done in this run. Until then the first answering step is the goal
    itself (the local model, asked, once ended the task there with no answer).
    `just_answered`: the step just done was a NORMAL task that answered the goal (not with "not found"). With
    nothing pending that ends the run, as the offline planner does: asked, the local model once planned the
    goal again (4 more ReAct calls and 2 planning calls, 80 s of a 342 s run, for the same answer). The planning
    agent's choice is left where there is one: what to try after a step that found no answer, and whether an
    answer still stands after a cross-validation that came later."""
    if conflicts:
        return Decision(_cross_validate(conflicts[0]), RULE,
                        f"{len(conflicts)} conflict{'s' if len(conflicts) != 1 else ''} pending: a pending "
                        "conflict is cross-validated before anything else")
    if images:
        return Decision(_recognise(images[0]), RULE,
                        f"{len(images)} image{'s' if len(images) != 1 else ''} waiting: a waiting image is "
                        "described before any other task")
    if at_round_cap:
        return Decision(None if answered else answer_task(goal), RULE,
                        "the round cap is reached: no further step can run")
    if not worked_on_goal and not answered:
        return Decision(answer_task(goal), RULE, "nothing is pending and no step has worked on the goal yet: "
                                                 "the first one answers it")
    if just_answered:
        return Decision(None, RULE, "the step just done answered the goal and nothing is pending: the run ends")
    return None


def _flat(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .?!")


def _said(description: str, goal: str) -> str:
    """A task's description as compared for a repeat: case, spacing and end marks aside, a completed task's
    line as the prompt shows it ("<description> -> success: <what it found>") as its description, and the goal
    itself as the answering step it names (the local model, after that step answered, proposed the goal as a
    NORMAL task, once plainly and once as the completed task's line with its answer: 4 more ReAct calls and a
    planning call that wrote the same answer again)."""
    said = _flat(_ECHOED_LINE.sub("", description))
    return _flat(answer_task(goal).description) if said == _flat(goal) else said


def _repeats(task: PendingTask, done: Sequence[CompletedTask], goal: str) -> bool:
    said = _said(task.description, goal)
    return any(t.type is task.type and _said(t.description, goal) == said for t in done)


def guard_next(proposed: PendingTask | None, *, goal: str, conflicts: list[PendingConflict],
               images: list[TempImage], answered: bool, done: Sequence[CompletedTask] = (),
               failed: bool = False) -> Decision:
    """The planning agent's proposal where the rules allow it, else the rules' own step, saying why.

    `failed`: the planning agent gave no usable reply, so the rules stand in for it."""
    pending_ids = {c.id for c in conflicts}
    if conflicts:
        if proposed and proposed.type is TaskType.CROSS_VALIDATE and proposed.conflict_id in pending_ids:
            return Decision(proposed, PLANNER)
        return Decision(_cross_validate(conflicts[0]), RULE, "a pending conflict comes first")
    image_ids = {i.image_id for i in images}
    if images:
        if proposed and proposed.type is TaskType.IMAGE_RECOGNITION and proposed.image_id in image_ids:
            return Decision(proposed, PLANNER)
        return Decision(_recognise(images[0]), RULE, "a waiting image comes next")
    fallback = None if answered else answer_task(goal)
    if proposed and proposed.type is TaskType.NORMAL:
        if not _repeats(proposed, done, goal):
            return Decision(proposed, PLANNER)
        return Decision(fallback, RULE, f"the planning agent repeated a completed task "
                                        f"({proposed.description[:80]!r}): the loop does not run it again")
    if failed:
        return Decision(fallback, RULE, "the planning agent failed: the rules planned this step")
    if proposed is None:
        return Decision(None, PLANNER) if answered else Decision(
            fallback, RULE, "the planning agent ended the task with no answer: the rules planned an answering step")
    return Decision(fallback, RULE, f"the planning agent proposed {proposed.type.value} with nothing of that kind "
                                    "waiting")
