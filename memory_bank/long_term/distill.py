"""Distillation at task end (seed 004 §6.3): what the finished task teaches, as new L2 records.

The input is typed (`TaskDigest`, built from the run's result and events): the question, the answer, the sub-tasks
with their status, the tool calls, the conflicts the run settled, the errors, and the places and passages the
answer cited. The offline distiller applies rules; the LLM engine's distiller (`llm_agents.py`) writes the same
typed output from a prompt. Neither decides what is kept: `vetting.py` refuses instruction-like lessons and copies
of the answer, and sets each kept lesson's provenance. A lesson says how the task was done and where its answer
was found, never what the answer said: the answer is the task's, and what a document put in it is not a lesson.
Recoveries are not distilled here: the recovering tool box records them as they happen.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from .models import Category

MAX_ITEMS = 6


class DigestTask(BaseModel):
    type: str
    description: str
    status: str
    context: str = ""


class DigestCall(BaseModel):
    tool: str
    ok: bool
    arguments: dict = Field(default_factory=dict)


class TaskDigest(BaseModel):
    question: str
    answer: str = ""
    answered: bool = False
    termination: str = "done"
    tasks: list[DigestTask] = Field(default_factory=list)
    calls: list[DigestCall] = Field(default_factory=list)
    settled_conflicts: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list, description="where the cited passages are (file, section)")
    evidence: list[str] = Field(default_factory=list, description="the cited passages' text")


class Lesson(BaseModel):
    """One record to keep."""

    category: Category
    subcategory: str = Field(default="", max_length=64)
    tags: list[str] = Field(default_factory=list, max_length=12)
    content: str = Field(min_length=1, max_length=1_000)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)


class Lessons(BaseModel):
    lessons: list[Lesson] = Field(default_factory=list, max_length=MAX_ITEMS)


class Distiller(Protocol):
    def run(self, digest: TaskDigest) -> Lessons: ...


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RuleDistiller:
    """Offline: a successful approach (which tools found the answer), each failure's cause, each settled
    conflict. Nothing when the task neither answered nor failed in a way worth remembering."""

    name = "distill"

    def run(self, digest: TaskDigest) -> Lessons:
        lessons: list[Lesson] = []
        q = _clip(digest.question, 160)
        tools = list(dict.fromkeys(c.tool for c in digest.calls if c.ok))
        if digest.answered:
            how = f"using {', '.join(tools)}" if tools else "from memory alone"
            where = list(dict.fromkeys(digest.sources))[:3]
            found = f"; the answer was found in {_clip('; '.join(where), 200)}" if where else ""
            lessons.append(Lesson(category=Category.STRATEGY, subcategory="task_approach",
                                  tags=["success", *(f"tool:{t}" for t in tools)],
                                  content=f"Answered '{q}' {how}{found}", confidence=0.5))
        for task in digest.tasks:
            if task.status == "failed":
                lessons.append(Lesson(category=Category.STRATEGY, subcategory="failure_cause", tags=["failure"],
                                      content=f"While working on '{q}', the {task.type} step '"
                                              f"{_clip(task.description, 120)}' failed: {_clip(task.context, 240)}",
                                      confidence=0.5))
        for conflict in digest.settled_conflicts:
            lessons.append(Lesson(category=Category.WORK, subcategory="settled_conflict", tags=["conflict"],
                                  content=f"Settled while answering '{q}': {_clip(conflict, 400)}",
                                  confidence=0.6))
        if digest.termination not in ("done",) and not digest.answered:
            lessons.append(Lesson(category=Category.STRATEGY, subcategory="failure_cause", tags=["failure"],
                                  content=f"'{q}' stopped without an answer ({digest.termination}); "
                                          f"errors: {_clip('; '.join(digest.errors) or 'none', 240)}",
                                  confidence=0.4))
        return Lessons(lessons=lessons[:MAX_ITEMS])
