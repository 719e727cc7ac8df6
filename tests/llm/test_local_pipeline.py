"""*LLM for everything* on the notes sample, call by call (issue 29), through the real `openai` client against the
contract suite's scripted model on 127.0.0.1: a decision the rules already make costs no call. Calls are
counted, never timed."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, TaskPlanned
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI

NORTHWIND = sorted((Path(__file__).resolve().parents[2] / "samples" / "northwind").glob("*.md"))
QUESTION = "What is the Northwind project budget, and who approved it?"


def test_a_pending_conflict_is_cross_validated_without_a_planning_call(embedder: CachedEmbedder,
                                                                      tmp_path: Path) -> None:
    with FakeOpenAI(handler=ContractLLM()) as fake:
        bank = MemoryBank(fake.settings().with_preset("llm"), embedder=embedder, workdir=tmp_path / "w")
        for path in NORTHWIND:
            bank.ingest_file(path)
        (pending,) = bank.memory.pending_conflicts()
        result = bank.run(QUESTION)
        planning = [r for r in fake.chat_requests if r.agent == "planning"]
    planned = [e for e in bank.events.log() if isinstance(e, TaskPlanned)]
    first = planned[0]
    assert (first.task_type, first.by) == ("CROSS_VALIDATE", "rule") and "conflict pending" in first.reason
    assert all(pending.id not in r.text() for r in planning), "no planning call while the conflict was pending"
    # the next step (what to ask for the answer) and whether the answer is enough are real choices: asked
    assert len(planning) == 2 and [e.by for e in planned[1:]] == ["planning agent"]
    assert result.insight_doc.completed_tasks[0].type.value == "CROSS_VALIDATE"
    assert "5 million" in result.answer and result.errors == [] and result.termination == "done"
    bank.clear()


def test_each_agent_sends_one_stable_prefix_and_the_cache_serves_it(embedder: CachedEmbedder,
                                                                    tmp_path: Path) -> None:
    """Instructions and schema first, the call's own part last: every call of an agent starts with the same
    system message (nothing of the document in it), so a server's prompt cache reads it once; the meter reports
    the prompt tokens sent and those the model had to process."""
    with FakeOpenAI(handler=ContractLLM(), prefix_cache=True) as fake:
        bank = MemoryBank(fake.settings().with_preset("llm"), embedder=embedder, workdir=tmp_path / "w")
        bank.run(QUESTION, files=NORTHWIND)
        requests = fake.chat_requests
        usage = bank.usage()
        bank.clear()
    by_agent: dict[str, set[str]] = {}
    for r in requests:
        by_agent.setdefault(r.agent or "", set()).add(r.messages[0]["content"])
    assert {a for a, systems in by_agent.items() if len(systems) > 1} == set(), "one system message an agent"
    assert by_agent.keys() >= {"classification", "structure", "analysis", "planning", "react"}
    for agent, u in usage["per_agent"].items():
        assert u["processed_tokens"] == u["prompt_tokens"] - u["cached_tokens"], agent
    assert usage["processed_tokens"] < usage["prompt_tokens"]
    assert usage["per_agent"]["classification"]["cached_tokens"] > 0, "the second file reuses the instructions"
