"""One Save on the Settings page asks the LLM endpoint once, whether or not a task is open: reopening the task
on the new settings asks nothing more."""

from __future__ import annotations

import pytest

from tests.support.fake_openai import FakeOpenAI
from tests.ui.test_app_pages import finish_runs, new_app, plain, task_of


def _save_llm_settings(at, fake: FakeOpenAI) -> None:  # noqa: ANN001 - AppTest
    at.switch_page("pages/settings.py").run()
    at.radio[0].set_value("llm")
    at.text_input[0].set_value(fake.base_url)
    at.text_input[1].set_value(fake.models[0])
    at.text_input[2].set_value("sk-test")
    at.button(key="FormSubmitter:settings-Save").click().run()
    assert any(plain(s.value).startswith("Saved for this session") for s in at.success), [e.value for e in at.error]


def test_one_save_checks_the_endpoint_once_with_a_task_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    with FakeOpenAI(*(["OK"] * 6)) as fake:
        at = new_app()
        at.run()
        at.button(key="run-sample-notes").click().run()
        finish_runs(at)
        assert task_of(at).bank is not None and not fake.requests
        _save_llm_settings(at, fake)
        assert task_of(at).bank.settings.engine == "llm", "the open task was reopened on the saved settings"
        at.run()  # the page after the Save's rerun
        assert len(fake.chat_requests) == 1 and len(fake.requests) == 1


def test_one_save_checks_the_endpoint_once_without_a_task(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    with FakeOpenAI(*(["OK"] * 6)) as fake:
        at = new_app()
        at.run()
        _save_llm_settings(at, fake)
        assert len(fake.requests) == 1
        _save_llm_settings(at, fake)
        assert len(fake.requests) == 2, "each Save checks once"
