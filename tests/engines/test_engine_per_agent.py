"""Each agent on either engine: presets, the composed engine talking to a scripted server only for its LLM agents,
and the offline contradiction check overruling an LLM `merge` where a number disagrees."""

from __future__ import annotations

import pytest

from memory_bank import AnswerDelta, AnswerDraft, MemoryBank
from memory_bank.engines.compose import GuardedAnalysis
from memory_bank.engines.models import AnalysisInput, AnalysisOutput, NodeInfo, RelationJudgement
from memory_bank.engines.offline.analysis import OfflineAnalyzer
from memory_bank.errors import ConfigError
from memory_bank.memory.query_graph import Relation
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder
from memory_bank.settings import AGENT_SLOTS, Settings
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import ScriptedLLM

TEXT = """ALPHA systems were first deployed FACT:year=1990 according to the archive of the ministry.

The ALPHA maintenance crews were trained by the OMEGA institute.

ALPHA systems were first deployed FACT:year=1995 according to a later survey of the ministry.

The BETA protocol is a separate matter about postal codes."""


def test_presets_choose_the_engine_per_agent() -> None:
    answers = Settings().with_preset("answers")
    assert answers.engine == "llm" and answers.needs_llm and answers.preset_name() == "answers"
    assert [a for a in AGENT_SLOTS if answers.engine_for(a) == "llm"] == ["react"]
    assert Settings().with_preset("offline").needs_llm is False
    everything = Settings(engine="llm", llm_model="m")
    assert everything.preset_name() == "llm"
    custom = everything.model_copy(update={"agent_engines": {"classification": "offline"}})
    assert custom.preset_name() is None and custom.engine_for("structure") == "llm"
    assert Settings.from_env({"MEMORY_BANK_PRESET": "answers", "LLM_MODEL": "m"}, env_file=None).preset_name() \
        == "answers"
    with pytest.raises(ConfigError, match="unknown preset"):
        Settings().with_preset("cheap")
    with pytest.raises(ValueError, match="unknown agents"):
        Settings(agent_engines={"summariser": "llm"})


def test_local_model_for_answers_asks_the_llm_only_to_answer_and_validate(tmp_path) -> None:
    with FakeOpenAI(handler=ScriptedLLM(per_cluster=1)) as fake:
        settings = fake.settings(llm_concurrency=2).with_preset("answers")
        bank = MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")
        assert bank.engine.name == "mixed" and "for react; offline for the rest" in bank.engine.label
        drafts: list[AnswerDelta] = []
        bank.subscribe(lambda e: drafts.append(e) if isinstance(e, AnswerDelta) else None)
        result = bank.run("When were ALPHA systems first deployed?", text=TEXT)
        agents = {r.agent for r in fake.chat_requests}
    assert agents == {"react"}, "ingestion, linking, planning and merging stayed offline"
    assert result.answer and result.termination == "done"
    draft = AnswerDraft()
    for delta in drafts:
        draft.add(delta)
    assert drafts and draft.text.strip() in result.answer, "the answer streamed as it was written"
    assert draft.llm_calls >= 1 and drafts[-1].tokens > drafts[0].tokens
    assert not any(e.kind == "answer_delta" for e in bank.events.log()), "heard as they come, not logged"


def node(node_id: str, text: str) -> NodeInfo:
    return NodeInfo(id=node_id, summary=text, context="ALPHA deployment", keywords=["ALPHA"])


class SaysMerge:
    name = "analysis"

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        return AnalysisOutput(relationships=[
            RelationJudgement(existing_node_id=c.id, relationship=Relation.MERGE, reasoning="same topic")
            for c in inp.candidates])


def test_an_llm_merge_of_two_claims_that_disagree_on_a_year_becomes_a_conflict() -> None:
    new = node("n1", "The ALPHA system of the ministry was first deployed in 1990 across the northern region.")
    same_year = node("n2", "The ALPHA system of the ministry was first deployed in 1990 across the northern region.")
    other_year = node("n3", "The ALPHA system of the ministry was first deployed in 1995 across the northern region.")
    guarded = GuardedAnalysis(SaysMerge(), OfflineAnalyzer(HashingEmbedder()))
    out = guarded.run(AnalysisInput(new_node=new, candidates=[same_year, other_year]))
    relation = {j.existing_node_id: j for j in out.relationships}
    assert relation["n2"].relationship is Relation.MERGE
    assert relation["n3"].relationship is Relation.CONFLICT
    assert "1990" in relation["n3"].conflict_description and "1995" in relation["n3"].conflict_description
    assert relation["n3"].reasoning.startswith("the LLM said merge")


def test_an_llm_merge_of_two_texts_that_share_few_words_is_only_related(embedder: CachedEmbedder) -> None:
    """DESIGN: a merge is "same or heavily overlapping content". The local model merged the finance review's
    opening into the minutes' budget approval (one topic word, "budget", in common); each such merge cost an
    integration call and made a node of two topics."""
    new = node("n1", "This review was prepared by the finance office for the autumn planning round. It summarises "
                     "the project budget and the spending to date.")
    minutes = node("n2", "The board approved the Northwind project with a budget of 5 million dollars for the fiscal "
                         "year 2021. Jonas Berg asked that the pilot report be presented to the board.")
    copy = node("n3", "This review was prepared by the finance office for the autumn planning round, and it "
                      "summarises the project budget and the spending to date.")
    guarded = GuardedAnalysis(SaysMerge(), OfflineAnalyzer(embedder))  # MiniLM: the offline check says related
    relation = {j.existing_node_id: j for j in guarded.run(
        AnalysisInput(new_node=new, candidates=[minutes, copy])).relationships}
    assert relation["n2"].relationship is Relation.RELATED and "share too little" in relation["n2"].reasoning
    assert relation["n3"].relationship is Relation.MERGE  # a copy is still merged


class RewritesWithFigures:
    """Relates every candidate and rewrites its topic line with the new node's figure, as the local model did."""

    name = "analysis"

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        return AnalysisOutput(relationships=[
            RelationJudgement(existing_node_id=c.id, relationship=Relation.RELATED, reasoning="budget",
                              context_update_existing="Northwind project budget is 9 million dollars for 2021")
            for c in inp.candidates], context_update_new="Budget of 7 million dollars for 2021")


def test_a_rewritten_topic_line_never_states_a_figure_its_node_does_not(embedder: CachedEmbedder) -> None:
    """On the notes sample the minutes' topic line became "Northwind project budget is 9 million dollars" (the
    review's claim, which later lost a cross-validation), and the answering model read the 9 million there."""
    new = node("n1", "The Northwind project budget is 9 million dollars for the fiscal year 2021.")
    minutes = node("n2", "The board approved the Northwind project with a budget of 5 million dollars for 2021.")
    review = node("n3", "The finance review gives the Northwind budget as 9 million dollars for the year 2021.")
    out = GuardedAnalysis(RewritesWithFigures(), OfflineAnalyzer(embedder)).run(
        AnalysisInput(new_node=new, candidates=[minutes, review]))
    rewrites = {j.existing_node_id: j.context_update_existing for j in out.relationships}
    assert rewrites["n2"] is None, "the minutes never say 9"
    assert rewrites["n3"] == "Northwind project budget is 9 million dollars for 2021"  # its own figures
    assert out.context_update_new is None  # "7 million": not the new node's figure either
