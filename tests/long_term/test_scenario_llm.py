"""The same scenario on the LLM engine, through the real `openai` client against the scripted model on 127.0.0.1.

Task 1: the ReAct agent searches with an empty query; no strategy is remembered, so the error-analysis agent
(its prompt file, typed output) proposes the task goal; the retry works and the strategy is recorded. The
distiller agent turns the finished task into a lesson. Task 2: the same error is fixed from memory at the first
retry with no analysis call (counted at the server), and the lesson is in the <long_term> block of the prompt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from memory_bank import Category, LongTermMemory, MemoryBank, RecoveryMetadata
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.long_term.conftest import Clock
from tests.support.fake_openai import FakeOpenAI, RecordedRequest
from tests.support.scripted_llm import ScriptedLLM

QUESTION = "When was the Northwind budget approved?"
LESSON = "The Northwind budget approval is recorded in the board minutes"


class LongTermLLM(ScriptedLLM):
    """Searches with an empty query first (a tool error), then answers citing what it read."""

    def _react(self, text: str, request: RecordedRequest) -> str:
        if len(request.messages) <= 2:
            return '<think>search</think>\n<tool_call>{"name": "search", "arguments": {"query": ""}}</tool_call>'
        cited = re.findall(r"node:([0-9a-f]{12})", request.messages[-1]["content"])
        return f"<answer>It was approved in March.{f' [node:{cited[0]}]' if cited else ''}</answer>"

    def _error_analysis(self, text: str, _: RecordedRequest) -> str:
        goal = text.split("Task goal:", 1)[1].split("\n", 1)[0].strip()
        return json.dumps({"reasoning": "the query was empty: search for the goal", "recoverable": True,
                           "fixed_arguments": {"query": goal}})

    def _distill(self, text: str, _: RecordedRequest) -> str:
        assert "search" in text and QUESTION in text  # the digest carries the task's calls and question
        return json.dumps({"lessons": [{"category": "work", "subcategory": "where_to_look", "tags": ["budget"],
                                        "content": LESSON, "confidence": 0.7}]})


def _agents(fake: FakeOpenAI, since: int) -> list[str]:
    return [r.agent or "" for r in fake.chat_requests[since:]]


def test_llm_engine_remembers_a_recovery_and_a_lesson(tmp_path: Path, embedder: CachedEmbedder, storage: Path,
                                                      northwind_text: str) -> None:
    with FakeOpenAI(handler=LongTermLLM()) as fake:
        settings = fake.settings(data_dir=tmp_path / "data", max_rounds=3)
        ltm = LongTermMemory(storage, "alice", embedder=embedder, clock=Clock())
        bank = MemoryBank(settings, embedder=embedder, workdir=tmp_path / "t1", long_term=ltm)
        bank.ingest_text(northwind_text, source="northwind")
        start = len(fake.chat_requests)
        first = bank.run(QUESTION)
        task1 = _agents(fake, start)
        assert task1.count("error_analysis") == 1 and task1.count("distill") == 1
        assert first.long_term is not None and first.long_term.strategies_applied == []
        [strategy] = ltm.records(Category.STRATEGY, tags=["tool:search", "error:MissingArgument"])
        meta = RecoveryMetadata.model_validate(strategy.metadata)
        assert meta.fix_pattern.original == {"query": ""} and meta.fix_pattern.fixed == {"query": "{task_goal}"}
        [lesson] = [ltm.get(i) for i in first.long_term.distilled]
        assert lesson.content == LESSON and (ltm.reflection(lesson.memory_id) or "").startswith("---\n")
        summary = ltm.reflect("strategy")
        assert summary is not None and "1 success(es)" in (ltm.reflection(summary.memory_id) or "")

        bank2 = MemoryBank(settings, embedder=embedder, workdir=tmp_path / "t2",
                           long_term=LongTermMemory(storage, "alice", embedder=embedder, clock=Clock()))
        bank2.ingest_text(northwind_text, source="northwind")
        start = len(fake.chat_requests)
        second = bank2.run(QUESTION)
        task2 = _agents(fake, start)
        assert task2.count("error_analysis") == 0  # fixed from memory at the first retry
        assert len(task2) == len(task1) - 1
        assert second.long_term is not None and second.long_term.strategies_applied == [strategy.memory_id]
        assert second.long_term.injection is not None and lesson.memory_id in second.long_term.injection.memory_ids
        react = [r for r in fake.chat_requests[start:] if r.agent == "react"][0]
        block = react.text().split("<long_term>", 1)[1].split("</long_term>", 1)[0]
        assert LESSON in block
        # the strategy's L3 summary was rewritten at the end of task 2, with the second success
        assert "2 success(es)" in (bank2.long_term.reflection(summary.memory_id) or "")
        again = [r for r in bank2.long_term.records(Category.WORK) if r.content == LESSON]
        assert len(again) == 1 and again[0].confidence > lesson.confidence  # learnt again: reinforced, not copied
        observation = [r for r in fake.chat_requests[start:] if r.agent == "react"][-1].messages[-1]["content"]
        assert "Recovered" in observation and f"Local documents for '{QUESTION}'" in observation
        bank.clear()
        bank2.clear()
