"""Error-recovery strategies (seed 004 §8): remembered fixes for failing tool calls, tried before anything else.

Every tool call of the agent goes through `RecoveringToolBox.call`, the one place failures are handled. On a
`ToolError`: the L2 strategies (`strategy` / `error_recovery`) are scored against the failure (error type +0.5,
tool +0.3, message similarity +0.2) and ordered by score, confidence, use count; a high-scoring one's argument fix
is applied and the call retried. With none, the analyst proposes fixes (built-in rules offline; the LLM engine's
error-analysis agent). A fix that works is recorded as a strategy (or, when it came from memory, makes that
strategy more confident); a remembered fix that fails loses confidence.

A fix is stored as a pattern: a value that was the task's goal is written `{task_goal}`, so the next task fills
in its own goal rather than the last one's. A remembered fix is applied with no model in the loop, so a pattern
whose new values screen as instruction-like (a model's fix that points `visit` at a new address, a query that
asks for a key) is used once and never remembered, and such a pattern found on disk is never applied. The
record's text names the fix's source, and carries the fixer's reason only when that reason is clean.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from ..errors import ToolError
from ..events import Event, ToolRecovered
from ..tools.base import ToolBox, ToolResult, ToolSpec
from .markdown import recovery_markdown
from .memory import LongTermMemory
from .models import ERROR_RECOVERY, GOAL, Category, FixPattern, MemoryRecord, Provenance, RecoveryMetadata, Source
from .screen import screen
from .vetting import pattern_findings, record_withheld

HIGH_SCORE = 0.8  # error type and tool both match
MAX_FIXES = 3
TIMEOUT_FACTOR = 3.0
START_CONFIDENCE = 0.7
MAX_PATTERN_CHARS = 4_000
_NUMBERS = re.compile(r"\d+(\.\d+)?")
_URLS = re.compile(r"https?://\S+")


@dataclass(frozen=True)
class ToolFailure:
    tool: str
    arguments: dict[str, Any]
    error_type: str
    message: str


class Fix(BaseModel):
    arguments: dict[str, Any]
    reason: str = ""
    source: Literal["memory", "rule", "llm"]
    memory_id: str | None = None


class Analyst(Protocol):
    """Proposes fixes for a failure no remembered strategy covers."""

    def propose(self, failure: ToolFailure, spec: ToolSpec | None, goal: str) -> list[Fix]: ...


def error_type(exc: BaseException) -> str:
    """A type that tells failures apart: our tools raise `ToolError` for everything, so its kind is read from
    the cause or the message."""
    text = str(exc).lower()
    if "timeout" in text or "timed out" in text or "did not answer within" in text:
        return "Timeout"
    if any(w in text for w in ("non-empty", "is required", "needs a", "missing", "empty")):
        return "MissingArgument"
    if "no memory node" in text or "not found" in text or "http 404" in text:
        return "NotFound"
    if exc.__cause__ is not None:
        return type(exc.__cause__).__name__
    return type(exc).__name__


def message_similarity(a: str, b: str) -> float:
    def norm(s: str) -> str:
        return _NUMBERS.sub("#", _URLS.sub("URL", s.lower()))

    return difflib.SequenceMatcher(None, norm(a), norm(b)).ratio()


def match_score(meta: RecoveryMetadata, failure: ToolFailure) -> float:
    return (0.5 * (meta.error_type == failure.error_type) + 0.3 * (meta.tool_name == failure.tool)
            + 0.2 * message_similarity(meta.error_message, failure.message))


def find_strategies(ltm: LongTermMemory, failure: ToolFailure) -> list[tuple[MemoryRecord, RecoveryMetadata, float]]:
    """Remembered strategies for `failure`, best first: score, then confidence, then use count. One whose text or
    fix screens as instruction-like is not a candidate (`record_withheld`)."""
    found = []
    for record in ltm.records(Category.STRATEGY, tags=[ERROR_RECOVERY]):
        if record.subcategory != ERROR_RECOVERY or record.needs_revision or record_withheld(record) is not None:
            continue
        meta = RecoveryMetadata.model_validate(record.metadata)
        found.append((record, meta, match_score(meta, failure)))
    return sorted(found, key=lambda f: (-f[2], -f[0].confidence, -f[1].uses))


def apply_pattern(pattern: FixPattern, arguments: dict[str, Any], goal: str) -> dict[str, Any]:
    return {**arguments, **{k: goal if v == GOAL else v for k, v in pattern.fixed.items()}}


def pattern_of(original: dict[str, Any], fixed: dict[str, Any], goal: str) -> FixPattern:
    keys = sorted(k for k in {*original, *fixed} if original.get(k) != fixed.get(k))
    return FixPattern(original={k: original.get(k) for k in keys},
                      fixed={k: GOAL if goal and fixed.get(k) == goal else fixed.get(k) for k in keys})


class RuleAnalyst:
    """The offline engine's built-in recovery rules: a timeout is retried as it was (it may be transient), then
    with a longer deadline where the tool takes one; an empty or missing required text argument takes the task
    goal."""

    def __init__(self, default_timeout: float = 15.0, max_timeout: float = 120.0) -> None:
        self.default_timeout = default_timeout
        self.max_timeout = max_timeout

    def propose(self, failure: ToolFailure, spec: ToolSpec | None, goal: str) -> list[Fix]:
        args = failure.arguments
        properties = (spec.parameters.get("properties", {}) if spec else {}) or {}
        if failure.error_type == "Timeout":
            fixes = [Fix(arguments=dict(args), reason="a timeout may be transient: the same call again",
                         source="rule")]
            if "timeout" in properties:
                current = args.get("timeout") if isinstance(args.get("timeout"), int | float) else None
                longer = min(self.max_timeout, (current or self.default_timeout) * TIMEOUT_FACTOR)
                fixes.append(Fix(arguments={**args, "timeout": longer}, reason="a longer deadline", source="rule"))
            return fixes
        if failure.error_type == "MissingArgument" and goal.strip():
            required = (spec.parameters.get("required", []) if spec else []) or []
            empty = [k for k in required if properties.get(k, {}).get("type") in ("string", ["string", "array"])
                     and not str(args.get(k) or "").strip()]
            if empty:
                return [Fix(arguments={**args, **dict.fromkeys(empty, goal)},
                            reason=f"empty {', '.join(empty)}: the task goal", source="rule")]
        return []


_FIXED_BY = {"rule": "a built-in rule", "llm": "the model's analysis", "memory": "a remembered strategy"}


def record_success(ltm: LongTermMemory, failure: ToolFailure, fix: Fix, goal: str,
                   task_id: str | None = None) -> MemoryRecord | None:
    """A fix worked: a remembered strategy grows more confident, a new one is written (L2 + L3). A fix too large
    to keep as a pattern (a model may rewrite a whole argument list), or one whose new values screen as
    instruction-like, is used once and not remembered: None."""
    now = ltm.clock()
    if fix.memory_id is not None:
        record = ltm.get(fix.memory_id)
        meta = RecoveryMetadata.model_validate(record.metadata)
        meta = meta.model_copy(update={"uses": meta.uses + 1, "successes": meta.successes + 1, "success": True})
        record = record.model_copy(update={
            "confidence": min(1.0, record.confidence + 0.1 * (1 - record.confidence)),
            "metadata": meta.model_dump(), "updated_at": now, "last_used_at": now,
            "access_count": record.access_count + 1})
        ltm.replace(record, recovery_markdown(record, meta))
        return record
    pattern = pattern_of(failure.arguments, fix.arguments, goal)
    if len(pattern.model_dump_json()) > MAX_PATTERN_CHARS or pattern_findings(pattern):
        return None
    meta = RecoveryMetadata(error_type=failure.error_type, tool_name=failure.tool,
                            error_message=failure.message[:500], fix_pattern=pattern)
    changed = ", ".join(pattern.fixed) or "the same call again"
    reason = " ".join(fix.reason.split())[:300]
    why = _FIXED_BY[fix.source] + (f": {reason}" if reason and not screen(reason) else "")
    content = f"Tool {failure.tool} failing with {failure.error_type} recovered by fixing {changed} ({why})"
    record = ltm.add(content[:2_000], Category.STRATEGY, subcategory=ERROR_RECOVERY,
                     tags=[ERROR_RECOVERY, f"tool:{failure.tool}", f"error:{failure.error_type}"],
                     confidence=START_CONFIDENCE, source=Source.TASK_RESULT, provenance=Provenance.MODEL_DISTILLED,
                     source_task=task_id, metadata=meta.model_dump(), title="recovery")
    ltm.replace(record, recovery_markdown(record, meta))
    return record


def record_failure(ltm: LongTermMemory, memory_id: str) -> None:
    record = ltm.get(memory_id)
    meta = RecoveryMetadata.model_validate(record.metadata)
    meta = meta.model_copy(update={"uses": meta.uses + 1, "success": False})
    now = ltm.clock()
    ltm.replace(record.model_copy(update={"confidence": record.confidence * 0.7, "metadata": meta.model_dump(),
                                          "updated_at": now, "last_used_at": now}))


class RecoveringToolBox(ToolBox):
    """A `ToolBox` whose failed calls are recovered through long-term memory before the agent sees an error."""

    def __init__(self, inner: ToolBox, ltm: LongTermMemory, analyst: Analyst,
                 publish: Callable[[Event], None] | None = None,
                 task_id: Callable[[], str | None] = lambda: None) -> None:
        """`task_id`: the task a new strategy is learnt in (its record's source task)."""
        self.inner, self.ltm, self.analyst = inner, ltm, analyst
        self.publish = publish or (lambda _event: None)
        self.task_id = task_id
        self.applied: list[str] = []  # strategies used since `take_applied`, for the run's feedback

    def names(self) -> list[str]:
        return self.inner.names()

    def specs(self) -> list[ToolSpec]:
        return self.inner.specs()

    def get(self, name: str):  # noqa: ANN201 - the inner box's tool
        return self.inner.get(name)

    def take_applied(self) -> list[str]:
        applied, self.applied = list(dict.fromkeys(self.applied)), []
        return applied

    def call(self, name: str, arguments: dict[str, Any], goal: str = "") -> ToolResult:
        try:
            return self.inner.call(name, arguments)
        except ToolError as exc:
            if self.inner.get(name) is None or not isinstance(arguments, dict):
                raise  # an unknown tool or a malformed call is the agent's to fix
            failure = ToolFailure(name, dict(arguments), error_type(exc), str(exc))
            return self._recover(failure, exc, goal)

    def _fixes(self, failure: ToolFailure, goal: str) -> list[Fix]:
        remembered = [Fix(arguments=apply_pattern(meta.fix_pattern, failure.arguments, goal), source="memory",
                          memory_id=record.memory_id, reason=record.content)
                      for record, meta, score in find_strategies(self.ltm, failure) if score >= HIGH_SCORE]
        if remembered:
            return remembered[:MAX_FIXES]
        return self.analyst.propose(failure, self._spec(failure.tool), goal)[:MAX_FIXES]

    def _spec(self, name: str) -> ToolSpec | None:
        tool = self.inner.get(name)
        return tool.spec if tool is not None else None

    def _recover(self, failure: ToolFailure, original: ToolError, goal: str) -> ToolResult:
        fixes = self._fixes(failure, goal)
        for retries, fix in enumerate(fixes, 1):
            try:
                result = self.inner.call(failure.tool, fix.arguments)
            except ToolError:
                if fix.memory_id is not None:
                    record_failure(self.ltm, fix.memory_id)
                continue
            record = record_success(self.ltm, failure, fix, goal, self.task_id())
            if fix.memory_id is not None:
                self.applied.append(fix.memory_id)
            self.publish(ToolRecovered(tool=failure.tool, error_type=failure.error_type, fix_source=fix.source,
                                       ok=True, retries=retries,
                                       memory_id=record.memory_id if record is not None else None))
            note = f"(The first call failed: {failure.message}. Recovered: {fix.reason}.)\n"
            return replace(result, text=note + result.text)
        self.publish(ToolRecovered(tool=failure.tool, error_type=failure.error_type,
                                   fix_source=fixes[0].source if fixes else "none", ok=False, retries=len(fixes)))
        if fixes:
            raise ToolError(f"{original} (and {len(fixes)} recovery attempt(s) failed)") from original
        raise original
