"""Cost in the app: prices from the settings give an estimate before a run and the live cost beside the calls."""

from __future__ import annotations

import re

import pytest

from memory_bank import money
from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI
from tests.ui.test_app_pages import finish_runs, new_app, task_of


def plain(text: str) -> str:
    return re.sub(r"[*_`\\]", "", text)


def test_the_notes_sample_shows_its_estimate_first_and_then_what_it_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(handler=ContractLLM()) as fake:
        for name, value in {"MEMORY_BANK_ENGINE": "llm", "LLM_BASE_URL": fake.base_url, "LLM_MODEL": "fake-model",
                            "LLM_API_KEY": "sk-test-secret", "PRICE_INPUT": "2.5", "PRICE_OUTPUT": "10"}.items():
            monkeypatch.setenv(name, value)
        at = new_app()
        at.run()
        captions = " ".join(plain(c.value) for c in at.caption)
        assert "a page" in captions and "Reading it costs about $" in captions, captions
        at.button(key="run-sample-notes").click().run()
        finish_runs(at)
        usage = task_of(at).bank.usage()
        (tokens,) = [m for m in at.metric if m.label == "Tokens (run)"]
        shown = plain(tokens.proto.delta)
        assert usage["run_cost"] > 0 and shown.startswith(f"cost {money(usage['run_cost'])} · est. $")
        assert shown.endswith("for 3 pages"), shown


def test_settings_take_a_price_preset_and_a_budget_in_money(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.switch_page("pages/settings.py").run()
    (preset,) = [s for s in at.selectbox if s.label == "Preset"]
    preset.set_value("gpt-4o-mini")
    (budget,) = [n for n in at.number_input if n.label == "Budget: money"]
    budget.set_value(2.5)
    at.button(key="FormSubmitter:settings-Save").click().run()
    settings = task_of(at).settings
    assert (settings.price_input, settings.price_cached, settings.price_output) == (0.15, 0.075, 0.6)
    assert settings.max_cost == 2.5
    (shown,) = [n for n in at.number_input if n.label == "Input"]
    assert shown.value == 0.15  # the preset's prices are now the fields' values, to edit
