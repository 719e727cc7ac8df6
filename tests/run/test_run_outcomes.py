"""One selection per task, end to end, and a run's outcome as types: the termination a closed set, the errors
`RunError`s said once by equality, a failed run stored and shown as its own type and message."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pydantic import ValidationError

from memory_bank import InsightDoc, MemoryBank, RunError, RunResult, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore
from ui.worker import restore_run

BUDGET = ("The Northwind project budget is 5 million dollars for the fiscal year 2021. The board approved it in "
          "March. The policy engine decides whether to grant access to a resource; the policy administrator "
          "opens and closes the communication path.")


def _result(**fields: object) -> RunResult:
    return RunResult.model_validate({"question": "q", "answer": "a", "insight_doc": {"task_goal": "q"}, **fields})


def test_errors_are_typed_and_the_same_error_is_said_once() -> None:
    down = RunError(where="LLM endpoint", message="the LLM endpoint is not usable", fatal=True)
    result = _result(errors=[down, RunError(where="planning", message="bad output"), down])
    assert result.errors == [down, RunError(where="planning", message="bad output")]
    result.add_errors([RunError(where="ingest a.pdf", message="not a PDF"), down], first=True)
    assert [e.where for e in result.errors] == ["ingest a.pdf", "LLM endpoint", "planning"]
    # the same words elsewhere are another error: equality, not a substring of some other message
    result.add_errors([RunError(where="planning", message="bad")])
    assert [str(e) for e in result.errors][-2:] == ["planning: bad output", "planning: bad"]


def test_a_result_stored_with_string_errors_still_reads() -> None:
    old = _result(errors=["planning: bad output", "Stopped reading x.pdf"], termination="max_rounds")
    assert old.errors == [RunError(message="planning: bad output"), RunError(message="Stopped reading x.pdf")]
    assert old.termination == "max_rounds"
    with pytest.raises(ValidationError):
        _result(termination="finished")  # a closed set: a typo is an error, not a new kind of ending


def _counting_searches(bank: MemoryBank, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    search = bank.view.search_passages

    def counted(query: str, k: int):  # noqa: ANN202
        asked.append(query)
        return search(query, k)

    monkeypatch.setattr(bank.view, "search_passages", counted)
    return asked


def test_the_offline_answer_is_read_from_the_one_selection_the_adapter_made(monkeypatch: pytest.MonkeyPatch) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder())
    try:
        bank.ingest_text(BUDGET, "northwind.txt")
        asked = _counting_searches(bank, monkeypatch)
        result = bank.run("What is the Northwind project budget?")
        assert "5 million" in result.answer and result.citations
        # one evidence selection for the answering task, for the question itself (not the task's instruction)
        assert asked == ["What is the Northwind project budget?"]
        search = [c for c in bank.events.log() if c.kind == "tool_called" and c.tool == "search"]
        assert [c.arguments["query"] for c in search] == asked  # the run log's trail is that selection

        asked.clear()
        question = "What is the Northwind project budget, and what does the policy engine decide?"
        result = bank.run(question)
        # a question asking two things: the whole (rendered for an agent) and each part's own, each once
        assert asked == [question, "What is the Northwind project budget?", "what does the policy engine decide?"]
        assert "5 million" in result.answer and "grant access" in result.answer
    finally:
        bank.clear()


def test_a_failed_run_is_stored_and_shown_as_its_own_type_and_message(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(engine="offline", data_dir=tmp_path / "data")
    store = SqlTaskStore.from_settings(settings)
    bank = MemoryBank(settings, embedder=HashingEmbedder(), store=store)
    try:
        def broken(_inp: object) -> None:
            raise KeyError("boom")

        # the executor: an answered run asks the planning agent nothing (the rules end it)
        monkeypatch.setattr(bank.engine.executor, "run", broken)
        with pytest.raises(KeyError):
            bank.run("What is the budget?", text=BUDGET)
        [record] = bank.stored_runs()
        assert record.status == "failed" and record.result == {"type": "KeyError", "message": "'boom'"}
        shown = restore_run(record, [], follow_up=False).monitor.view()
        assert str(shown.error) == "KeyError: 'boom'"  # not "RuntimeError: KeyError: 'boom'"
        before = dataclasses.replace(record, result={"error": "KeyError: 'boom'"})  # stored by an older version
        assert str(restore_run(before, [], follow_up=False).monitor.view().error) == "KeyError: 'boom'"
    finally:
        bank.clear()
        store.close()


def test_a_finished_run_restores_with_its_typed_errors(tmp_path: Path) -> None:
    settings = Settings(engine="offline", data_dir=tmp_path / "data")
    store = SqlTaskStore.from_settings(settings)
    bank = MemoryBank(settings, embedder=HashingEmbedder(), store=store)
    try:
        result = bank.run("What is the budget?", files=[_empty_pdf(tmp_path)], text=BUDGET)
        assert [e.where for e in result.errors] == ["ingest empty.pdf"]
        [record] = bank.stored_runs()
        restored = restore_run(record, [], follow_up=False).monitor.view().result
        assert restored is not None and restored.errors == result.errors
        assert restored.insight_doc == InsightDoc.model_validate(record.result["insight_doc"])
    finally:
        bank.clear()
        store.close()


def _empty_pdf(tmp_path: Path) -> Path:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    return path
