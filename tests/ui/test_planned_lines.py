"""The run log's line for a planned task says who decided it and why (issue 29: the loop decides what the rules
leave no choice about, without a planning call), and a run log stored before that still reads."""

from __future__ import annotations

from memory_bank.events import TaskPlanned, event_from_dict
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
