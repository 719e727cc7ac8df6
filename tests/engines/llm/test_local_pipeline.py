"""*LLM for everything* on the notes sample, call by call (issue 29), through the real `openai` client against the
contract suite's scripted model on 127.0.0.1: a decision the rules already make costs no call. Calls are
counted, never timed."""

from __future__ import annotations

import json
from pathlib import Path

from memory_bank import AgentFellBack, MemoryBank, RunResult, TaskPlanned
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.events import RuleDecided
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI, RecordedRequest

NORTHWIND = sorted((Path(__file__).resolve().parents[3] / "samples" / "northwind").glob("*.md"))
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
    # the first answering step is the goal itself (a rule too), and its answer, nothing pending, ends the run
    assert [e.by for e in planned[1:]] == ["rule"] and "no step has worked on the goal" in planned[1].reason
    assert planning == [], "no planning call at all: the rules left no choice"
    ended = [e for e in bank.events.log() if isinstance(e, RuleDecided) and e.agent == "planning"]
    assert [e.reason for e in ended] == ["the step just done answered the goal and nothing is pending: the run ends"]
    assert [t.type.value for t in result.insight_doc.completed_tasks] == ["CROSS_VALIDATE", "NORMAL"]
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
    assert by_agent.keys() >= {"structure", "analysis", "react"}
    for agent, u in usage["per_agent"].items():
        assert u["processed_tokens"] == u["prompt_tokens"] - u["cached_tokens"], agent
    assert usage["processed_tokens"] < usage["prompt_tokens"]
    assert usage["per_agent"]["analysis"]["cached_tokens"] > 0, "the next call reuses the instructions"


class Unanswering(ContractLLM):
    """ReAct's first `misses` answering steps find nothing ("not found"), so what to do next is a real choice: the
    planning model is asked, and this one plans a second look."""

    def __init__(self, misses: int = 1) -> None:
        super().__init__()
        self.misses = misses

    def _react(self, text: str, request: RecordedRequest) -> str:
        first_turn = len(request.messages) == 2 and "([NORMAL])" in str(request.messages[1]["content"])
        if first_turn and self.misses > 0:
            self.misses -= 1
            return f"<answer>{NOT_FOUND}</answer>"
        return super()._react(text, request)

    def _planning(self, text: str, request: RecordedRequest) -> str:
        if NOT_FOUND not in text.split("Answer so far:", 1)[-1]:
            return super()._planning(text, request)
        return json.dumps({"reasoning": "look again", "pending_tasks": [
            {"type": "NORMAL", "description": "look for the budget in the minutes", "conflict_id": None,
             "image_id": None}]})


def test_a_step_that_found_no_answer_leaves_the_next_step_to_the_planning_model(embedder: CachedEmbedder,
                                                                               tmp_path: Path) -> None:
    bank, result = run_notes(Unanswering(), embedder, tmp_path)
    planned = [(e.task_type, e.by) for e in bank.events.log() if isinstance(e, TaskPlanned)]
    assert planned == [("CROSS_VALIDATE", "rule"), ("NORMAL", "rule"), ("NORMAL", "planning agent")]
    ended = [e.reason for e in bank.events.log() if isinstance(e, RuleDecided) and e.agent == "planning"]
    assert len(ended) == 1 and "answered the goal" in ended[0], "the planned step answered: no second plan"
    assert "5 million" in result.answer and result.termination == "done"


class EmptyPlanner(Unanswering):
    """A planning model that replies with an empty object, every time."""

    def _planning(self, text: str, request: RecordedRequest) -> str:
        return "{}"


class LoopingPlanner(Unanswering):
    """A planning model that plans the same NORMAL task again and again."""

    def _planning(self, text: str, request: RecordedRequest) -> str:
        return json.dumps({"reasoning": "again", "pending_tasks": [{"type": "NORMAL", "description": "answer it",
                                                                    "conflict_id": None, "image_id": None}]})


def run_notes(model: ContractLLM, embedder: CachedEmbedder, tmp_path: Path) -> tuple[MemoryBank, RunResult]:
    with FakeOpenAI(handler=model) as fake:
        bank = MemoryBank(fake.settings().with_preset("llm"), embedder=embedder, workdir=tmp_path / "w")
        result = bank.run(QUESTION, files=NORTHWIND)
    bank.clear()
    return bank, result


def test_an_empty_plan_is_asked_again_then_the_offline_planner_stands_in_for_that_step(
        embedder: CachedEmbedder, tmp_path: Path) -> None:
    bank, result = run_notes(EmptyPlanner(), embedder, tmp_path)
    planned = [e for e in bank.events.log() if isinstance(e, TaskPlanned)]
    assert [(e.task_type, e.by) for e in planned] == [("CROSS_VALIDATE", "rule"), ("NORMAL", "rule")]
    fell_back = [e for e in bank.events.log() if isinstance(e, AgentFellBack)]
    assert [e.agent for e in fell_back] == ["planning"], "the one plan asked, after its re-asks, alone"
    assert "pending_tasks: Field required (after 3 attempts)" in fell_back[0].message
    assert [e.where for e in result.errors] == ["planning agent"], "the same failure said once"
    assert result.answer.startswith(NOT_FOUND) and result.termination == "done", "the rules end it, answered"


def test_a_planner_looping_on_one_task_is_stopped_by_the_rules(embedder: CachedEmbedder, tmp_path: Path) -> None:
    bank, result = run_notes(LoopingPlanner(misses=2), embedder, tmp_path)
    assert [t.description for t in result.insight_doc.completed_tasks][2:] == ["answer it"], "run once"
    assert [e.where for e in result.errors] == ["planning"]
    assert "repeated a completed task" in result.errors[0].message
    assert result.answer.startswith(NOT_FOUND) and result.termination == "done"


def test_a_document_with_sections_is_clustered_along_them_without_a_classification_call(
        embedder: CachedEmbedder, tmp_path: Path) -> None:
    """The notes' headings already divide them: the model is not asked to redraw those lines (on the NIST PDF the
    local model labelled every passage of a chunk with its first topic). Plain text with no structure is still
    the model's to cluster."""
    plain = tmp_path / "memo.txt"
    plain.write_text("The Northwind pilot covers the Bergen plant from April to September 2021.\n\n"
                     "The remaining sites follow in 2022, one region at a time, after the pilot review.\n")
    with FakeOpenAI(handler=ContractLLM()) as fake:
        bank = MemoryBank(fake.settings().with_preset("llm"), embedder=embedder, workdir=tmp_path / "w")
        for path in NORTHWIND:
            bank.ingest_file(path)
        asked_for_notes = [r for r in fake.chat_requests if r.agent == "classification"]
        bank.ingest_file(plain)
        asked_for_plain = [r for r in fake.chat_requests if r.agent == "classification"][len(asked_for_notes):]
        ruled = [e.reason for e in bank.events.log() if isinstance(e, RuleDecided) and e.agent == "classification"]
        summaries = [n.summary for n in bank.memory.graph.nodes() if n.kind != "section"]
        bank.clear()
    assert asked_for_notes == [] and len(ruled) == len(NORTHWIND)
    assert all("structure divides the chunk" in r for r in ruled)
    assert len(asked_for_plain) == 1 and "Bergen plant" in asked_for_plain[0].text()
    # a section is a cluster: the minutes' budget item and their office lease item are two passage nodes
    assert not [s for s in summaries if "5 million" in s and "Stavanger" in s]
    assert [s for s in summaries if "Stavanger" in s]


def test_passages_of_one_file_are_related_without_an_analysis_call(embedder: CachedEmbedder,
                                                                   tmp_path: Path) -> None:
    """A new node whose candidates all come from its own file is judged by the offline analysis (the detector
    still finds a figure stated two ways); a candidate from another file is the model's to judge."""
    overview, review = (next(p for p in NORTHWIND if p.name == name)
                        for name in ("project-overview.md", "finance-review.md"))
    with FakeOpenAI(handler=ContractLLM()) as fake:
        bank = MemoryBank(fake.settings(analysis_min_similarity=0.0).with_preset("llm"), embedder=embedder,
                          workdir=tmp_path / "w")
        bank.ingest_file(overview)
        alone = [r for r in fake.chat_requests if r.agent == "analysis"]
        ruled = [e.reason for e in bank.events.log() if isinstance(e, RuleDecided) and e.agent == "analysis"]
        bank.ingest_file(review)
        across = [r for r in fake.chat_requests if r.agent == "analysis"]
        conflicts = bank.memory.pending_conflicts()
        bank.clear()
    assert alone == [] and ruled and all("passage of project-overview.md" in r for r in ruled)
    assert across, "the second file's nodes have the first file's as candidates: the model judges them"
    assert any("5 million" in r.text() and "9 million" in r.text() for r in across)
    assert len(conflicts) == 1, "the budgets of the two files, 5 against 9 million"
