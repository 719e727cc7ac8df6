"""Planning agent (LLM): Insight Doc + new nodes + conflicts + waiting images -> at most one next task (§3.5).

The model proposes only the next task; the task history (`completed_tasks`) and the goal are the loop's record
and pass through unchanged, so a model can never rewrite what happened. The priorities the model must follow
(a pending conflict first, then a waiting image) and the ids it may use are checked, and a violation is sent
back to it like any validation error.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from ...memory.insight_doc import PendingTask, TaskType
from ..models import PlanningInput, PlanningOutput
from .client import ResponseSchema
from .common import PromptedAgent
from .structured import narrowed, one_of, response_schema

MAX_LISTED_NODES = 40
REASONING_CHARS = 200  # one or two sentences: every character is a token the local model must write
SUMMARY_CHARS = 300
NONE = "(none)"


class LenientTask(PendingTask):
    """Accepts "cross-validate" or "image recognition" for the task type."""

    @field_validator("type", mode="before")
    @classmethod
    def _normalise(cls, value: object) -> object:
        return "_".join(value.strip().upper().replace("-", " ").split()) if isinstance(value, str) else value


class PlanReply(BaseModel):
    """`pending_tasks` has no default: an empty object is no plan (it is asked again), not "finished"."""

    reasoning: str = ""
    pending_tasks: list[LenientTask] = Field(max_length=1)


def _check(reply: PlanReply, inp: PlanningInput) -> None:
    task = reply.pending_tasks[0] if reply.pending_tasks else None
    conflicts = [c.conflict_id for c in inp.conflicts]
    images = [i.image_id for i in inp.pending_images]
    if conflicts and not (task and task.type is TaskType.CROSS_VALIDATE and task.conflict_id in conflicts):
        raise ValueError(f"conflicts are pending: the next task must be CROSS_VALIDATE with a conflict_id from "
                         f"{conflicts}")
    if task and task.type is TaskType.CROSS_VALIDATE and task.conflict_id not in conflicts:
        raise ValueError(f"conflict_id {task.conflict_id!r} is not a pending conflict "
                         f"(pending: {conflicts or 'none'})")
    if not conflicts and images and not (task and task.type is TaskType.IMAGE_RECOGNITION):
        raise ValueError(f"images are waiting: the next task must be IMAGE_RECOGNITION with an image_id "
                         f"from {images}")
    if task and task.type is TaskType.IMAGE_RECOGNITION and task.image_id not in images:
        raise ValueError(f"image_id {task.image_id!r} is not a waiting image (waiting: {images or 'none'})")


def _schema(inp: PlanningInput, max_string: int) -> ResponseSchema:
    """This call's schema: the one task type the rules allow now and the ids it may name (`_check`'s rules as
    a grammar, so a constrained reply cannot break them; `_check` still holds for endpoints that ignore it)."""
    conflicts = [c.conflict_id for c in inp.conflicts]
    images = [i.image_id for i in inp.pending_images] if not conflicts else []
    allowed = TaskType.CROSS_VALIDATE if conflicts else TaskType.IMAGE_RECOGNITION if images else TaskType.NORMAL
    base = response_schema(PlanReply, max_string=max_string, max_items=1)
    return narrowed(base, {
        "PlanReply": {"required": ["reasoning", "pending_tasks"]},
        "PlanReply.reasoning": {"maxLength": REASONING_CHARS},
        "PlanReply.pending_tasks": {"minItems": 1 if allowed is not TaskType.NORMAL else 0},
        "LenientTask": {"required": ["type", "description", "conflict_id", "image_id"]},
        "LenientTask.type": one_of([allowed.value]),
        "LenientTask.conflict_id": one_of(conflicts), "LenientTask.image_id": one_of(images)})


def _completed(inp: PlanningInput) -> str:
    lines = [f"{i}. [{t.type.value}] {t.description} -> {t.status.value}" + (f": {t.context}" if t.context else "")
             for i, t in enumerate(inp.insight_doc.completed_tasks, 1)]
    return "\n".join(lines) or NONE


def _new_nodes(inp: PlanningInput) -> str:
    shown = inp.new_nodes[:MAX_LISTED_NODES]
    lines = [f"- [node:{n.id}] {n.context} | keywords: {', '.join(n.keywords)} | {n.summary[:SUMMARY_CHARS]}"
             for n in shown]
    if len(inp.new_nodes) > len(shown):
        lines.append(f"... and {len(inp.new_nodes) - len(shown)} more")
    return "\n".join(lines) or NONE


def _conflicts(inp: PlanningInput) -> str:
    return "\n".join(f"- conflict_id {c.conflict_id}: {c.description} (between \"{c.node_a.context}\" "
                     f"[node:{c.node_a.id}] and \"{c.node_b.context}\" [node:{c.node_b.id}])"
                     for c in inp.conflicts) or NONE


class PlanningAgent(PromptedAgent):
    name = "planning"
    prompt_name = "planning"
    max_tokens = 512
    max_string = 400

    def run(self, inp: PlanningInput) -> PlanningOutput:
        doc = inp.insight_doc
        current = doc.next_task
        reply = self._ask(
            PlanReply, check=lambda r: _check(r, inp), schema=_schema(inp, self.max_string),
            task_goal=doc.task_goal or NONE, round=inp.round, max_rounds=inp.max_rounds,
            completed_tasks=_completed(inp), new_nodes=_new_nodes(inp), conflicts=_conflicts(inp),
            current_task=f"[{current.type.value}] {current.description}" if current else NONE,
            pending_images="\n".join(f"- image_id {i.image_id}: {i.name}" for i in inp.pending_images) or NONE,
            answer_so_far=inp.answer_so_far or "(none yet)")
        tasks = [PendingTask(**t.model_dump()) for t in reply.pending_tasks]
        return PlanningOutput(task_goal=doc.task_goal, completed_tasks=list(doc.completed_tasks),
                              pending_tasks=tasks)
