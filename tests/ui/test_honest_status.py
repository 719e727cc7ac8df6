"""Honest status: a run is named by what it did. A bad upload is a failed run (in the app too), a mixed one
partly failed; a sample starts a task of its own instead of adding to the memory in the session."""

from __future__ import annotations

import pytest

from memory_bank import InsightDoc, RunResult
from tests.ui.test_app_pages import BUDGET_5, finish_runs, new_app, plain, task_of
from ui.run_status import finished_status


def result(errors: list[str], new: list[str], termination: str = "done") -> RunResult:
    return RunResult(question="q", answer="a", insight_doc=InsightDoc(doc_id="d", task_goal="q"),
                     termination=termination, errors=errors, new_node_ids=new)


def test_the_status_names_what_the_run_did() -> None:
    assert finished_status(result([], ["n1"]), inputs=1) == "done"
    assert finished_status(result([], []), inputs=0) == "done"  # a follow-up reads nothing and fails nothing
    assert finished_status(result(["bad.pdf: not a PDF"], []), inputs=1) == "failed"
    assert finished_status(result(["bad.pdf: not a PDF"], ["n1"]), inputs=2) == "partly failed"
    assert finished_status(result(["planning: bad output"], []), inputs=0) == "partly failed"
    assert finished_status(result(["cancelled while ingesting"], [], "cancelled"), inputs=1) == "cancelled"
    assert finished_status(result([], ["n1"]), inputs=1, cancel_requested=True) == "cancelled"


def _pill(at) -> str:  # noqa: ANN001 - AppTest
    return " ".join(h.proto.body for h in at.get("html") if "amb-pill" in h.proto.body)


def test_a_bad_upload_is_a_failed_run_in_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.file_uploader[0].set_value([("broken.pdf", b"%PDF-1.4 this is not a PDF", "application/pdf")])
    at.text_area[0].set_value("What is the Northwind budget?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    assert task_of(at).current_run.monitor.view().status == "failed"
    assert "Failed" in _pill(at) and "Done" not in _pill(at)
    shown = " ".join(plain(m.value) for m in at.markdown)
    assert "broken.pdf** — not read" in shown and "follow-up" not in shown
    assert any("broken.pdf" in plain(e.value) for e in at.error)
    tasks = next(d.value for d in at.dataframe if "status" in d.value.columns)
    assert not any(str(v).startswith("✓") for v in tasks["status"]), "no green tick on a run that read nothing"

    # a good file beside the bad one: partly failed
    at.switch_page("pages/new_task.py").run()
    at.file_uploader[0].set_value([("overview.txt", BUDGET_5.encode(), "text/plain"),
                                   ("broken.pdf", b"%PDF-1.4 not a PDF either", "application/pdf")])
    at.text_area[0].set_value("What is the Northwind budget?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    assert task_of(at).current_run.monitor.view().status == "partly failed"
    at.switch_page("pages/run.py").run()
    assert "Partly failed" in _pill(at)


def test_a_sample_starts_a_new_task(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.text_area[1].set_value(BUDGET_5)
    at.text_area[0].set_value("What is the budget?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    before = task_of(at).bank
    own = {n.id for n in before.snapshot().nodes}
    at.switch_page("pages/new_task.py").run()
    assert any("cleared first" in c.value for c in at.caption)
    at.button(key="run-sample-notes").click().run()
    finish_runs(at)
    bank = task_of(at).bank
    assert bank is not before and not own & {n.id for n in bank.snapshot().nodes}
    assert {name for n in bank.snapshot().nodes for name in n.source_names} == {
        "project-overview.md", "finance-review.md", "board-minutes.md"}
