"""A Start clicked while the embedding model still loads answers at once and starts the run once it is ready.

Before, the click's script run blocked on the model load with the New task page and a live Start button still on
screen (seconds to a minute on a busy machine): the click looked lost, and a second click started a second run.
Here the load is held on a gate the test opens (the model itself is the real one, loaded once for the session),
so the click certainly lands while it loads.
"""

from __future__ import annotations

import threading
import uuid

import pytest

import ui.session
from tests.ui.test_app_pages import ALPHA_NOTES, finish_runs, new_app, task_of


def test_a_start_during_the_model_load_shows_starting_then_runs_once(monkeypatch: pytest.MonkeyPatch,
                                                                      embedder) -> None:  # noqa: ANN001
    gate = threading.Event()
    loads: list[str | None] = []

    def slow_load(model_path: str | None, **options):  # noqa: ANN003, ANN202 - the loader's own signature
        loads.append(model_path)
        assert gate.wait(120), "the test never opened the gate"
        return embedder

    monkeypatch.setattr(ui.session, "load_embedder", slow_load)
    # a model path of its own: the process-wide model cache has no entry for it, so this session really loads
    monkeypatch.setenv("EMBEDDING_MODEL_PATH", f"/models/gated-{uuid.uuid4().hex}")
    try:
        at = new_app()
        at.run()
        at.text_area[0].set_value("When were ALPHA systems first deployed?")
        at.text_area[1].set_value(ALPHA_NOTES)
        at.button(key="FormSubmitter:new-task-Start").click().run()
        assert not at.exception, at.exception

        task = task_of(at)
        assert task.pending is not None and task.runs == [] and task.bank is None
        assert [t.value for t in at.title] == ["Run"], "the click went straight to the Run page"
        assert any("embedding model is still loading" in i.value for i in at.info), [i.value for i in at.info]
        at.run()  # the page polls: still waiting, nothing started twice
        assert task.pending is not None and task.runs == []

        at.switch_page("pages/new_task.py").run()
        start = at.button(key="FormSubmitter:new-task-Start")
        assert start.disabled, "a second Start while the first waits would start a second run"
        at.switch_page("pages/run.py").run()
    finally:
        gate.set()
    finish_runs(at)
    task = task_of(at)
    assert len(task.runs) == 1 and task.bank is not None and task.task_id
    result = task.current_run.monitor.view().result
    assert result is not None and "1990" in result.answer
    assert len(loads) == 1, "one load of the model for the process, shared by the warm-up and the start"
