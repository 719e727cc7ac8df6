"""The Run page follows an LLM run (issue 29 item 4): the call in progress (agent, item, seconds, tokens) and the
time left, from the snapshot the worker fills; nothing of it for the offline engine. The LLM run is held inside
one of its calls by the scripted server on 127.0.0.1, so the page is drawn while that call is in flight."""

from __future__ import annotations

import re
import threading

import pytest
from streamlit.testing.v1 import AppTest

from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply
from tests.ui.test_app_pages import finish_runs, new_app, task_of

HELD_CALL = 3  # the first two calls are measured before it: the time left is estimated, not "estimating…"


def plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", re.sub(r"\*\*", "", text))


class HoldsOneCall:
    """The scripted model, holding its `HELD_CALL`th request until the test lets it go."""

    def __init__(self) -> None:
        self.model, self.lock, self.calls = ContractLLM(), threading.Lock(), 0
        self.held, self.release = threading.Event(), threading.Event()

    def __call__(self, request: RecordedRequest) -> Reply | str:
        with self.lock:
            self.calls += 1
            mine = self.calls
        if mine == HELD_CALL:
            self.held.set()
            self.release.wait(120)
        return self.model(request)


def test_an_llm_run_shows_the_call_in_progress_and_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = HoldsOneCall()
    with FakeOpenAI(handler=handler) as fake:
        for name, value in {"MEMORY_BANK_ENGINE": "llm", "LLM_BASE_URL": fake.base_url, "LLM_MODEL": "fake-model",
                            "LLM_API_KEY": "sk-test-secret", "LLM_CONCURRENCY": "1"}.items():
            monkeypatch.setenv(name, value)
        at = new_app()
        at.run()
        try:
            at.button(key="run-sample-notes").click().run()
            for _ in range(480):  # the first start may wait for the embedding model (the Run page begins it)
                if handler.held.is_set():
                    break
                handler.held.wait(0.25)
                at.run()
            assert handler.held.is_set(), "the run never reached the held call"
            at.run()
            assert not at.exception, at.exception
            lines = [plain(m.value) for m in at.markdown]
            calling = [line for line in lines if line.startswith("Calling ")]
            assert len(calling) == 1, lines
            assert re.fullmatch(r"Calling \w+( for .+)? · \d+ s · waiting for the first token \([\d,]+ prompt "
                                r"tokens\)", calling[0]), calling
            captions = [plain(c.value) for c in at.caption]
            left = [c for c in captions if c.startswith("About ")]
            assert len(left) == 1 and re.search(r"left \(≈\d+ calls? at ~\d+ s\)$", left[0]), captions
            assert any(c.startswith("Model measured: writes ") for c in captions), captions
        finally:
            handler.release.set()
        finish_runs(at)
    assert task_of(at).current_run.monitor.view().status == "done"
    assert not [m for m in at.markdown if m.value.startswith("Calling ")], "the panel goes with the run"


def _panel(uses_llm: bool) -> AppTest:
    def page(uses_llm: bool) -> None:
        from memory_bank import LiveCall, LiveProgress, TimeLeft
        from ui.call_panel import live_calls_panel

        call = LiveCall(agent="analysis", item="node '[click](http://evil.example) **now**'", elapsed_s=12.4,
                        prompt_tokens=812, tokens_so_far=38, tokens_per_s=11.84)
        live = LiveProgress(calls=(call,), planned={"analysis": 14},
                            time_left=TimeLeft(seconds=238.0, calls=14, seconds_per_call=17.0))
        live_calls_panel(live, running=True, uses_llm=uses_llm)

    return AppTest.from_function(page, kwargs={"uses_llm": uses_llm}, default_timeout=60).run()


def test_the_panel_says_the_call_and_the_time_left_and_escapes_the_item() -> None:
    at = _panel(uses_llm=True)
    assert not at.exception, at.exception
    (line,) = [m.value for m in at.markdown if "Calling" in m.value]
    assert plain(line) == ("Calling analysis for node '[click](http://evil.example) **now**' · 12 s · 38 tokens at "
                           "11.8 tok/s")
    assert "[click](" not in line and "**now**" not in line, "the item's markdown is escaped: no link, no bold"
    assert any(plain(c.value) == "About 4 min left (≈14 calls at ~17 s)" for c in at.caption)


def test_nothing_is_shown_for_the_offline_engine() -> None:
    at = _panel(uses_llm=False)
    assert not at.exception, at.exception
    assert not at.markdown and not at.caption
