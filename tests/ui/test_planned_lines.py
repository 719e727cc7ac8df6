"""The run log's line for a planned task says who decided it and why (issue 29: the loop decides what the rules
leave no choice about, without a planning call), and a run log stored before that still reads. A call a rule
made unnecessary (`RuleDecided`: the run ended by rule, a duplicate merged into its own text) is a line of its
own, on the Run page too."""

from __future__ import annotations

import pytest

from memory_bank.events import RuleDecided, TaskPlanned, event_from_dict
from tests.ui.test_app_pages import run_alpha_task, task_of
from ui.format import describe


def test_a_rule_decision_says_so_and_why() -> None:
    event = TaskPlanned(task_type="CROSS_VALIDATE", description="Cross-validate the budget", by="rule",
                        reason="1 conflict pending: a pending conflict is cross-validated before anything else")
    kind, line = describe(event)
    assert kind == "task" and "Planned CROSS_VALIDATE" in line and "(by rule: 1 conflict pending" in line
    assert event_from_dict(event.to_dict()) == event


def test_a_planning_agent_decision_and_an_old_record_read_as_before() -> None:
    _, line = describe(TaskPlanned(task_type="NORMAL", description="Find the budget"))
    assert line == "Planned NORMAL: Find the budget"
    old = event_from_dict({"kind": "task_planned", "task_type": "NORMAL", "description": "d", "ts": 1.0})
    assert isinstance(old, TaskPlanned) and (old.by, old.reason) == ("planning agent", "")


def test_a_call_a_rule_made_unnecessary_is_a_line_of_its_own() -> None:
    event = RuleDecided(agent="planning", reason="the step just done answered the goal and nothing is pending")
    assert describe(event) == ("rule", "Decided by rule, no planning call: the step just done answered the goal "
                                       "and nothing is pending")
    assert event_from_dict(event.to_dict()) == event


def test_the_run_page_shows_the_rules_decisions_with_their_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """An offline run answers in one step; the loop then ends by rule, with no planning call, and says why."""
    at = run_alpha_task(monkeypatch, {"MEMORY_BANK_ENGINE": "offline"})
    decided = [e for e in task_of(at).bank.events.log() if isinstance(e, RuleDecided)]
    assert decided, "the run ended by rule"
    at.switch_page("pages/run.py").run()
    log = next(d.value for d in at.dataframe if "event" in d.value.columns)
    rows = log[log["kind"] == "rule"]
    assert [*rows["event"]] == [f"Decided by rule, no {e.agent} call: {e.reason}" for e in reversed(decided)]
