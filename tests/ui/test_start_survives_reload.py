"""A Start clicked while the embedding model loads survives a reload of its page.

The waiting start lived in the browser session alone: a reload made a new session, and the start (with its
uploads, which go with the dropped session) was gone. Now the process keeps it under the token the page's URL
carries (`?start=`). The model load is held on a gate the test opens, as in test_start_waits_for_model."""

from __future__ import annotations

import gc
import shutil
import threading
import uuid
from pathlib import Path

import pytest

import ui.session
from tests.ui.test_app_pages import ALPHA_NOTES, finish_runs, new_app, task_of
from ui.pending import PendingStarts

QUESTION = "When were ALPHA systems first deployed?"


def test_a_reload_while_the_start_waits_keeps_the_start_and_runs_it_once(monkeypatch: pytest.MonkeyPatch,
                                                                          embedder) -> None:  # noqa: ANN001
    gate = threading.Event()

    def slow_load(model_path: str | None, **options):  # noqa: ANN003, ANN202 - the loader's own signature
        assert gate.wait(120), "the test never opened the gate"
        return embedder

    monkeypatch.setattr(ui.session, "load_embedder", slow_load)
    monkeypatch.setenv("EMBEDDING_MODEL_PATH", f"/models/gated-{uuid.uuid4().hex}")
    try:
        first = new_app()
        first.run()
        first.text_area[0].set_value(QUESTION)
        first.text_area[1].set_value(ALPHA_NOTES)
        first.button(key="FormSubmitter:new-task-Start").click().run()
        assert not first.exception, first.exception
        token = task_of(first).pending.token
        assert first.query_params.get("start") == token, "the page's URL names the waiting start"

        reloaded = new_app()  # the same URL in a new browser session; the first one is dropped
        reloaded.query_params["start"] = token
        del first
        gc.collect()
        reloaded.switch_page("pages/run.py").run()
        assert not reloaded.exception, reloaded.exception
        task = task_of(reloaded)
        assert task.pending is not None and task.pending.token == token and task.pending.question == QUESTION
        assert any("embedding model is still loading" in i.value for i in reloaded.info)
        reloaded.switch_page("pages/new_task.py").run()
        assert reloaded.button(key="FormSubmitter:new-task-Start").disabled, "no second run while it waits"
        reloaded.switch_page("pages/run.py").run()
    finally:
        gate.set()
    finish_runs(reloaded)
    task = task_of(reloaded)
    assert len(task.runs) == 1 and task.task_id
    result = task.current_run.monitor.view().result
    assert result is not None and "1990" in result.answer
    assert "start" not in reloaded.query_params
    assert ui.session.pending_starts().get(token, task.user) is None, "begun once, then gone"


def test_a_waiting_start_keeps_a_copy_of_its_files_and_is_taken_once(tmp_path: Path) -> None:
    uploads = tmp_path / "session" / "uploads" / "ab12cd34"
    uploads.mkdir(parents=True)
    doc = uploads / "notes.md"
    doc.write_text(ALPHA_NOTES)
    starts = PendingStarts(parent=tmp_path)
    pending = starts.add(QUESTION, [doc], None, "alice")
    assert doc.read_text() == ALPHA_NOTES, "copied, never moved: a sample's files are the app's own"
    shutil.rmtree(tmp_path / "session")  # the session that uploaded it was dropped
    [kept] = pending.files
    assert kept.name == "notes.md" and kept.read_text() == ALPHA_NOTES and not kept.is_relative_to(uploads)
    assert starts.get(pending.token, "bob") is None, "another user's start is not theirs to see"
    assert starts.take(pending.token, "bob", tmp_path / "bob") is None
    assert starts.get(pending.token, "alice") == pending

    taken = starts.take(pending.token, "alice", tmp_path / "reloaded" / "uploads")
    [moved] = taken.files
    assert moved.is_relative_to(tmp_path / "reloaded" / "uploads") and moved.read_text() == ALPHA_NOTES
    assert not kept.exists() and not kept.parent.parent.exists(), "its own folder went with it"
    assert starts.take(pending.token, "alice", tmp_path / "second-tab") is None, "taken once"
    dropped = starts.add("Another question", [], "some text", "alice")
    starts.drop(dropped.token)
    assert len(starts) == 0 and not list(tmp_path.glob("amb-start-*"))
