"""The streamed answer reaches the page: the worker's deltas (new text only) are folded into the monitor's draft,
never drawn from the worker with st.*."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from memory_bank import AnswerDelta
from memory_bank.memory.insight_doc import InsightDoc
from memory_bank.run.results import RunResult
from ui.worker import RunMonitor


def test_the_monitor_folds_the_deltas_into_the_draft_and_logs_no_token() -> None:
    monitor = RunMonitor("What is the budget?")
    for text, offset in (("The", 0), (" budget", 3), (" is 5 million", 10)):
        monitor.on_event(AnswerDelta(text=text, offset=offset, llm_calls=2, tokens=100 + offset))
    view = monitor.view()
    assert view.draft is not None and view.draft.text == "The budget is 5 million" and view.draft.llm_calls == 2
    assert view.counts["answer_delta"] == 3 and not view.log
    monitor.on_event(AnswerDelta(text="Five", offset=0, llm_calls=3))  # a retried reply starts the draft again
    assert monitor.view().draft.text == "Five"


def test_the_page_draws_the_draft_while_the_run_goes_on() -> None:
    def page() -> None:
        from memory_bank import AnswerDelta
        from ui.panels import answer_view
        from ui.worker import RunMonitor

        monitor = RunMonitor("What is the budget?")
        monitor.on_event(AnswerDelta(text="The budget is **5 million**", llm_calls=3, tokens=1234))
        answer_view(None, monitor.view(), key="a")  # type: ignore[arg-type]

    at = AppTest.from_function(page, default_timeout=60).run()  # a hang guard: the first script run imports the UI
    assert not at.exception, at.exception
    assert any("The budget is **5 million**" in m.value for m in at.markdown)
    assert any("3 LLM call(s), ~1,234 tokens so far" in c.value for c in at.caption)


def test_the_draft_is_dropped_once_the_answer_or_the_failure_is_shown() -> None:
    """The draft is as long as the answer: once the result (or the failure) is what the page shows, the monitor
    does not keep a second copy of it for the rest of the session."""
    answered, failed = RunMonitor("What is the budget?"), RunMonitor("What is the budget?")
    for monitor in (answered, failed):
        monitor.on_event(AnswerDelta(text="The budget is 5 million", llm_calls=1))
        assert monitor.view().draft is not None
    answered.finish(RunResult(question="What is the budget?", answer="The budget is 5 million.",
                              insight_doc=InsightDoc(task_goal="What is the budget?")))
    failed.fail(RuntimeError("the model went away"))
    assert answered.view().draft is None and answered.view().result.answer == "The budget is 5 million."
    assert failed.view().draft is None and failed.view().status == "failed"
