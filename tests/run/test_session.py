"""A run's sequence (`run/session.py`): ingest → long-term before → the task loop → long-term after → record, in
that order, and the long-term block an argument of one run, never left on the adapter for the next."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from memory_bank import (
    AnswerReady,
    Category,
    InsightDoc,
    LongTermInjected,
    LongTermMemory,
    MemoryBank,
    NodeAdded,
    Settings,
    Source,
    TaskPlanned,
    wiring,
)
from memory_bank.control import Cancellation, CancelToken
from memory_bank.engines.models import ExecutionInput, ExecutionResult
from memory_bank.engines.offline.engine import build_offline_engine
from memory_bank.events import Event, EventBus
from memory_bank.loaders import Document
from memory_bank.memory.bank_files import BankFiles
from memory_bank.memory.pending_images import PendingImages
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore

BUDGET = ("The Northwind project budget is 5 million dollars for the fiscal year 2021. The board approved it in "
          "March. The policy engine decides whether to grant access to a resource.")
QUESTION = "When did the board approve the Northwind budget?"
BLOCK = "<long_term>\nA lesson: budgets are approved by the board.\n</long_term>"


class HeardExecutor:
    """The offline executor, with every prompt it is handed kept for the test."""

    def __init__(self, inner) -> None:  # noqa: ANN001 - an Agent[ExecutionInput, ExecutionResult]
        self.inner, self.prompts = inner, []

    def run(self, data: ExecutionInput) -> ExecutionResult:
        self.prompts.append(data.prompt)
        return self.inner.run(data)


def test_the_long_term_block_is_in_the_prompts_of_its_run_only(tmp_path: Path) -> None:
    settings, embedder, events = Settings(engine="offline"), HashingEmbedder(), EventBus()
    core = wiring.build_core(settings, embedder, events)
    offline = build_offline_engine(settings, embedder, core.reader)
    heard = HeardExecutor(offline.executor)
    engine = dataclasses.replace(offline, executor=heard)
    loop = wiring.build_loop(settings, core, engine, embedder, events, PendingImages(BankFiles(tmp_path, owned=True)),
                             Cancellation())
    loop.pipeline.run(Document.from_text(BUDGET, "notes"), QUESTION)

    first = loop.runner.run(QUESTION, CancelToken(), long_term_block=BLOCK)
    assert "March" in first.answer
    assert heard.prompts and all(BLOCK in p for p in heard.prompts)
    heard.prompts.clear()
    loop.runner.run(QUESTION, CancelToken())
    assert heard.prompts and not any("<long_term>" in p for p in heard.prompts)
    assert "<long_term>" not in loop.adapter.enhance(InsightDoc(task_goal=QUESTION)).prompt


def test_a_stored_run_ingests_then_injects_then_plans_then_answers_then_is_recorded(tmp_path: Path) -> None:
    ltm = LongTermMemory(tmp_path / "long_term", "alice", embedder=HashingEmbedder())
    ltm.add("The Northwind board approves budgets in March meetings.", Category.WORK, source=Source.USER_INPUT,
            tags=["northwind"])
    store = SqlTaskStore(tmp_path / "store")
    bank = MemoryBank(Settings(engine="offline", data_dir=tmp_path / "data"), embedder=HashingEmbedder(),
                      long_term=ltm, store=store, owner="alice")
    seen: list[Event] = []
    bank.subscribe(seen.append)
    try:
        result = bank.run(QUESTION, text=BUDGET)
        kinds = [type(e) for e in seen if isinstance(e, NodeAdded | LongTermInjected | TaskPlanned | AnswerReady)]
        order = [kinds.index(k) for k in (NodeAdded, LongTermInjected, TaskPlanned, AnswerReady)]
        assert order == sorted(order), kinds
        assert result.long_term is not None and result.long_term.injection is not None
        assert result.long_term.injection.memory_ids, "the lesson on the Northwind board reached the run"
        [run] = bank.stored_runs()
        assert run.status == "done" and run.result is not None and run.result["answer"] == result.answer
        assert run.inputs["text"] == BUDGET
    finally:
        bank.close()


class HeardInputs(HeardExecutor):
    """The offline executor, with every input it is handed kept (its prompt is what an LLM executor reads)."""

    def __init__(self, inner) -> None:  # noqa: ANN001 - an Agent[ExecutionInput, ExecutionResult]
        super().__init__(inner)
        self.inputs: list[ExecutionInput] = []

    def run(self, data: ExecutionInput) -> ExecutionResult:
        self.inputs.append(data)
        return super().run(data)


def test_a_follow_up_reaches_the_executor_as_it_was_read(tmp_path: Path) -> None:
    """Any executor, the LLM's included, gets the question as read ("What does the policy engine do?") as its
    goal and in its prompt, not the bare "What does it do?"."""
    settings, embedder, events = Settings(engine="offline"), HashingEmbedder(), EventBus()
    core = wiring.build_core(settings, embedder, events)
    offline = build_offline_engine(settings, embedder, core.reader)
    heard = HeardInputs(offline.executor)
    loop = wiring.build_loop(settings, core, dataclasses.replace(offline, executor=heard), embedder, events,
                             PendingImages(BankFiles(tmp_path, owned=True)), Cancellation())
    loop.pipeline.run(Document.from_text(BUDGET, "notes"), "")
    loop.runner.run("What does the policy engine decide?", CancelToken())
    heard.inputs.clear()
    result = loop.runner.run("What does it do?", CancelToken())
    assert result.follow_up is not None and result.follow_up.subject == "the policy engine"
    assert heard.inputs and all(i.task_goal == "What does the policy engine do?" for i in heard.inputs)
    assert all("What does the policy engine do?" in i.prompt for i in heard.inputs)
    assert "grant access" in result.answer, result.answer


def test_the_last_question_of_a_task_travels_with_its_export(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "w")
    bank.ingest_text(BUDGET, "notes")
    bank.run("What does the policy engine decide?")
    restored = MemoryBank.from_export(bank.export(), Settings(engine="offline"), embedder=HashingEmbedder())
    again = restored.run("Why did it change?")
    assert again.follow_up is not None and again.follow_up.subject == "the policy engine", again.answer
