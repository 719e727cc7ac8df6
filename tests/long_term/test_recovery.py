"""Strategy matching (seed 004 §8.2), the recovering tool box, and the cleanup of long-unused weak strategies."""

from __future__ import annotations

from typing import Any

import pytest

from memory_bank import Category, LongTermMemory, RecoveryMetadata, Source, ToolError
from memory_bank.long_term.models import FixPattern
from memory_bank.long_term.recovery import (
    RecoveringToolBox,
    RuleAnalyst,
    ToolFailure,
    error_type,
    find_strategies,
)
from memory_bank.tools.base import ToolBox, ToolResult, ToolSpec
from tests.long_term.conftest import Clock


def _strategy(ltm: LongTermMemory, tool: str, error: str, message: str, confidence: float, uses: int = 1,
              fixed: dict[str, Any] | None = None) -> str:
    meta = RecoveryMetadata(error_type=error, tool_name=tool, error_message=message, uses=uses, successes=uses,
                            fix_pattern=FixPattern(original={"query": ""}, fixed=fixed or {"query": "{task_goal}"}))
    return ltm.add(f"{tool} {error}", Category.STRATEGY,
                   source=Source.USER_INPUT, subcategory="error_recovery", confidence=confidence,
                   tags=["error_recovery", f"tool:{tool}", f"error:{error}"], metadata=meta.model_dump()).memory_id


def test_strategies_rank_by_score_then_confidence_then_uses(ltm: LongTermMemory) -> None:
    failure = ToolFailure("search", {"query": ""}, "MissingArgument", "search needs a non-empty 'query'")
    other_tool = _strategy(ltm, "visit", "MissingArgument", "search needs a non-empty 'query'", 0.99)
    other_error = _strategy(ltm, "search", "Timeout", "search needs a non-empty 'query'", 0.99)
    weak = _strategy(ltm, "search", "MissingArgument", "search needs a non-empty 'query'", 0.5, uses=9)
    strong = _strategy(ltm, "search", "MissingArgument", "search needs a non-empty 'query'", 0.9, uses=1)
    used = _strategy(ltm, "search", "MissingArgument", "search needs a non-empty 'query'", 0.9, uses=5)
    found = find_strategies(ltm, failure)
    assert [r.memory_id for r, _, _ in found] == [used, strong, weak, other_tool, other_error]
    assert [round(score, 2) for _, _, score in found] == [1.0, 1.0, 1.0, 0.7, 0.5]  # type +0.5, tool +0.3, text +0.2


def test_error_types_tell_failures_apart() -> None:
    assert error_type(ToolError("http://x did not answer within 15 s (timeout)")) == "Timeout"
    assert error_type(ToolError("search needs a non-empty 'query'")) == "MissingArgument"
    assert error_type(ToolError("no memory node 'abc'")) == "NotFound"
    assert error_type(ValueError("odd")) == "ValueError"


class Flaky:
    """A tool that fails until its `query` is set, counting its calls."""

    spec = ToolSpec(name="search", description="", parameters={
        "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        self.calls.append(dict(arguments))
        if not str(arguments.get("query") or "").strip():
            raise ToolError("search needs a non-empty 'query'")
        return ToolResult(f"found {arguments['query']}")


def test_a_failing_remembered_fix_loses_confidence_and_the_error_reaches_the_agent(ltm: LongTermMemory) -> None:
    bad = _strategy(ltm, "search", "MissingArgument", "search needs a non-empty 'query'", 0.8, fixed={"query": ""})
    tool = Flaky()
    box = RecoveringToolBox(ToolBox([tool]), ltm, RuleAnalyst())
    with pytest.raises(ToolError, match="1 recovery attempt"):
        box.call("search", {"query": ""}, goal="the goal")
    assert len(tool.calls) == 2 and ltm.get(bad).confidence == pytest.approx(0.56)
    assert RecoveryMetadata.model_validate(ltm.get(bad).metadata).success is False


def test_the_goal_pattern_takes_each_tasks_own_goal(ltm: LongTermMemory) -> None:
    tool = Flaky()
    box = RecoveringToolBox(ToolBox([tool]), ltm, RuleAnalyst())
    assert box.call("search", {"query": ""}, goal="first goal").text.endswith("found first goal")
    assert box.call("search", {"query": " "}, goal="second goal").text.endswith("found second goal")
    assert tool.calls[-1] == {"query": "second goal"}
    assert len(box.take_applied()) == 1 and box.take_applied() == []


def test_long_unused_weak_strategies_are_forgotten(storage, clock: Clock) -> None:  # noqa: ANN001
    ltm = LongTermMemory(storage, "alice", clock=clock, half_life_days=30, min_confidence=0.2)
    weak = _strategy(ltm, "visit", "Timeout", "slow", 0.3)
    strong = _strategy(ltm, "search", "MissingArgument", "empty", 0.95)
    lesson = ltm.add("A work fact stays however old", Category.WORK, source=Source.USER_INPUT, confidence=0.1)
    assert ltm.cleanup() == []
    clock.advance(60)  # two half-lives: 0.3 -> 0.075 (below 0.2), 0.95 -> 0.24 (kept)
    assert ltm.cleanup() == [weak]
    assert {r.memory_id for r in ltm.records()} == {strong, lesson.memory_id}
    assert not ltm.store.reflection_path(weak).exists()
