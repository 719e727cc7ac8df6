"""Tasks through `AppTest` (no browser): the task id in the URL brings a task back in a new session, the Tasks
page lists, renames, ends and deletes, and a dead run shows as interrupted with Resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_bank import SqlTaskStore

from .test_app_pages import finish_runs, new_app, task_of


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    monkeypatch.setenv("MEMORY_BANK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _open(task_id: str, page: str = "pages/run.py") -> AppTest:
    at = new_app()
    at.query_params["task"] = task_id
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def test_a_new_session_with_the_task_link_shows_the_same_task_and_answers(data_dir: Path) -> None:
    at = new_app()
    at.run()
    at.button(key="run-sample-notes").click().run()
    finish_runs(at)
    first = task_of(at)
    task_id = first.task_id
    assert task_id  # the URL carries it: see the browser tests
    answer = first.current_run.monitor.view().result.answer

    again = _open(task_id)  # a reload: a new browser session, the same URL
    task = task_of(again)
    assert task.bank is first.bank, "the open task is shared, not loaded twice"
    assert [r.monitor.view().result.answer for r in task.runs] == [answer]
    assert any(answer[:50] in m.value for m in again.markdown)

    again.switch_page("pages/tasks.py").run()
    assert any("Northwind" in m.value for m in again.markdown)
    again.text_input(key=f"name-{task_id}").input("Budget notes").run()
    again.button(key=f"rename-{task_id}").click().run()
    assert any("Budget notes" in m.value for m in again.markdown)
    again.toggle(key=f"confirm-{task_id}").set_value(True).run()
    again.button(key=f"delete-{task_id}").click().run()
    assert not again.exception
    store = SqlTaskStore(data_dir)
    assert store.list_tasks() == [] and store.files.stored() == set()
    assert task_of(again).task_id is None


def test_a_run_that_died_with_its_server_shows_interrupted_and_resumes(data_dir: Path, embedder) -> None:  # noqa: ANN001
    store = SqlTaskStore(data_dir)
    task_id = store.create_task("crashed", "", embedder.name)
    store.start_run(task_id, "What is the Northwind budget?", {"files": [], "text": "The budget is 5 million."})
    store.close()  # the process that ran it is gone: its run row still says 'running'

    at = _open(task_id)
    run = task_of(at).current_run
    assert run.monitor.view().status == "interrupted"
    assert any("Interrupted" in w.value for w in at.warning)
    at.button(key="resume-run").click().run()
    finish_runs(at)
    task = task_of(at)
    assert task.current_run.monitor.view().result.answer
    assert [r.status for r in task.bank.stored_runs()] == ["done"]
    assert task.bank.snapshot().counts["nodes"] >= 1


def test_a_wrong_link_says_so(data_dir: Path) -> None:
    at = new_app()
    at.query_params["task"] = "no-such-task-id-0000"
    at.run()
    assert any("not valid any more" in w.value for w in at.warning)
    assert task_of(at).task_id is None



def test_a_task_the_store_does_not_take_says_so_on_the_run_page_until_it_is_saved(data_dir: Path) -> None:
    from sqlalchemy import text

    from memory_bank import StoreError

    at = new_app()
    at.run()
    at.button(key="run-sample-notes").click().run()
    finish_runs(at)
    bank = task_of(at).bank
    at.switch_page("pages/run.py").run()
    assert not any("Not saved" in e.value for e in at.error)

    store = SqlTaskStore(data_dir)  # a second connection to the same file: the failure is the database's own
    with store.engine.begin() as conn:
        conn.execute(text("CREATE TRIGGER amb_fail BEFORE INSERT ON nodes BEGIN SELECT RAISE(ABORT, 'disk says no'); "
                          "END"))
    bank.ingest_text("The OMEGA tank holds forty litres.", source="later.txt")
    with pytest.raises(StoreError):
        bank.flush()
    at.run()
    assert any("Not saved yet" in e.value and "disk says no" in e.value for e in at.error)

    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER amb_fail"))
    bank.flush()
    at.run()
    assert not any("Not saved" in e.value for e in at.error)
    assert store.list_tasks([bank.task_id])[0].nodes == bank.snapshot().counts["nodes"]
