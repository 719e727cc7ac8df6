"""What the local 1.5B model did on the notes sample (issue 29 item 5, issue 25 item 4), replayed by a scripted
model over HTTP, and what the pipeline makes of it: the memory and the answer of a faithful model's run, and no
call whose answer cannot change what happens. Calls are counted, never timed.

The faults, from the recorded replies of a real run (51 calls, 15 conflicts, the answer "9 million"):
- analysis wrote the prompt's definition of a conflict as its reason and then chose "conflict" for pairs of the
  same text, while the 5 vs 9 million budgets were "unrelated";
- structure, given several clusters in one call, wrote the first one's summary for all of them;
- cross-validation (ReAct) said whichever node it read first was right, and integration named no rejected side.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from memory_bank import MemoryBank
from memory_bank.engines.compose import GuardedAnalysis
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.models import AnalysisInput, AnalysisOutput, NodeInfo, RelationJudgement, StructureInput
from memory_bank.engines.offline.analysis import OfflineAnalyzer
from memory_bank.memory.query_graph import Relation
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder
from tests.engines.contract.scripted_model import ContractLLM
from tests.support.fake_openai import FakeOpenAI, RecordedRequest
from tests.support.scripted_llm import batch_items

NORTHWIND = sorted((Path(__file__).resolve().parents[3] / "samples" / "northwind").glob("*.md"))
QUESTION = "What is the Northwind project budget, and who approved it?"
TEMPLATE = "The two nodes make claims about the same subject that cannot both be true"
FIGURE = re.compile(r"\d[\d.,]*")


class LocalModelLike(ContractLLM):
    """The contract's scripted model with the local model's faults: analysis inverted (a conflict for the same
    figures, 'unrelated' for different ones, the reason copied from the prompt), and a cross-validation that
    backs the 9 million (the side the third document refutes)."""

    def __init__(self) -> None:
        super().__init__(winner="9 million")

    def _analysis(self, text: str, request: RecordedRequest) -> str:
        reply = json.loads(super()._analysis(text, request))
        for item in reply.get("items", [reply]):
            for j in item["relationships"]:
                was = j["relationship"]
                j["relationship"] = "unrelated" if was == "conflict" else "conflict"
                j["reasoning"] = TEMPLATE
                j["conflict_description"] = TEMPLATE if j["relationship"] == "conflict" else None
        return json.dumps(reply)


def _memory_block(request: RecordedRequest) -> str:
    found = re.search(r"<memory>(.*?)</memory>", request.messages[1]["content"], re.S)
    assert found, "the answering prompt carries a <memory> block"
    return found.group(1)


def run_notes(embedder: CachedEmbedder, tmp_path: Path, model: ContractLLM) -> tuple[MemoryBank, object, list]:
    with FakeOpenAI(handler=model) as fake:
        bank = MemoryBank(fake.settings(max_rounds=5).with_preset("llm"), embedder=embedder, workdir=tmp_path)
        result = bank.run(QUESTION, files=NORTHWIND)
        requests = fake.chat_requests
    return bank, result, requests


def test_the_local_models_judgements_still_build_the_faithful_memory_and_answer(embedder: CachedEmbedder,
                                                                                tmp_path: Path) -> None:
    bank, result, requests = run_notes(embedder, tmp_path, LocalModelLike())
    conflicts = list(bank.memory.conflicts.values())
    # the budgets only (the minutes' 5 million against the review's 9, the overview's against it), never the
    # pairs of one text the model called conflicts; every one settled
    assert 1 <= len(conflicts) <= 2 and all(c.status == "resolved" for c in conflicts), \
        [c.description for c in conflicts]
    lost = [bank.memory.tree.entries[e].text for e in bank.memory.rejected_entries()]
    assert lost and all("9 million" in text for text in lost), "only the figure the minutes refute lost"
    assert "5 million" in result.answer and "9 million" not in result.answer  # type: ignore[attr-defined]
    answering = [r for r in requests if r.agent == "react"]
    # the task history may say which claim lost and why (the settled conflict's description quotes both); the
    # evidence must not offer it
    assert answering and all("9 million" not in _memory_block(r) for r in answering), \
        "the claim that lost is shown to the answer neither as evidence nor as a related node"
    bank.clear()


def test_calls_are_made_only_where_the_answer_can_change_what_happens(embedder: CachedEmbedder,
                                                                      tmp_path: Path) -> None:
    bank, _, requests = run_notes(embedder, tmp_path, ContractLLM())
    per_agent: dict[str, int] = {}
    for r in requests:
        per_agent[r.agent or ""] = per_agent.get(r.agent or "", 0) + 1
    # the documents decide the conflict (2 passages for 5 million, none other for 9): no ReAct step for it, and
    # the decided merge and the duplicate merge need no integration call; the one ReAct call answers the goal
    assert per_agent.get("integration", 0) == 0 and per_agent["react"] == 2, per_agent
    decided = [e for e in bank.events.log() if e.kind == "rule_decided"]
    assert {e.agent for e in decided} >= {"react", "integration", "structure"}
    assert bank.snapshot().counts["merges"] >= 2
    # each structure request carries only clusters longer than a sentence or two
    for r in requests:
        if r.agent == "structure":
            assert all(len(item["text"].split()) > 40 for item in batch_items(r.messages[-1]["content"]))
    bank.clear()


def node(node_id: str, text: str) -> NodeInfo:
    return NodeInfo(id=node_id, summary=text, context="Northwind budget", keywords=["Northwind"])


class JudgesFirstOnly:
    """A batch reply judging one candidate of several (the schema asks for at least one): 'unrelated'."""

    name = "analysis"

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        from memory_bank.engines.models import RelationJudgement
        return AnalysisOutput(relationships=[RelationJudgement(existing_node_id=inp.candidates[0].id,
                                                               relationship=Relation.UNRELATED)])


def test_a_pair_the_llm_left_unjudged_is_still_checked_for_a_contradiction() -> None:
    new = node("n1", "The Northwind project budget is 5 million dollars for the fiscal year 2021.")
    other = node("n2", "The pilot covers the Bergen plant from April to September 2021.")
    nine = node("n3", "The Northwind project budget is 9 million dollars for the fiscal year 2021.")
    guarded = GuardedAnalysis(JudgesFirstOnly(), OfflineAnalyzer(HashingEmbedder()))
    out = guarded.run(AnalysisInput(new_node=new, candidates=[other, nine]))
    relation = {j.existing_node_id: j for j in out.relationships}
    assert relation["n2"].relationship is Relation.UNRELATED
    assert relation["n3"].relationship is Relation.CONFLICT and "unjudged" in relation["n3"].reasoning


def test_a_batch_summary_stating_another_items_figures_is_asked_again() -> None:
    budget = "The Northwind project budget is 9 million dollars for the fiscal year 2021. " * 3
    spending = "By the end of June 2021 the project had spent 1.2 million dollars on licences and sensors. " * 3
    copied = json.dumps({"items": [{"id": "c1", "summary": budget.strip()}, {"id": "c2", "summary": budget.strip()}]})
    fixed = json.dumps({"items": [{"id": "c2", "summary": "By June 2021 the project had spent 1.2 million."}]})
    with FakeOpenAI(copied, fixed) as fake:
        agent = StructureAgent_for(fake)
        outs = agent.run_batch([StructureInput(content=budget, context="Budget"),
                                StructureInput(content=spending, context="Spending")])
        second = fake.chat_requests[1].messages[-1]["content"]
    assert [getattr(o, "summary", o) for o in outs][1] == "By June 2021 the project had spent 1.2 million."
    assert "item c2: the summary states 9" in second and "c1" not in second.split("could not be used")[1]


def StructureAgent_for(fake: FakeOpenAI) -> StructureAgent:  # noqa: N802 - reads as the agent it builds
    from memory_bank.engines.llm.openai_client import OpenAIClient
    settings = fake.settings()
    return StructureAgent(OpenAIClient(settings), settings)


class SaysMergeForBoth:
    """The local model's run at 8bdb343: the minutes' 5 million and the review's 9 million budgets 'merge'."""

    name = "analysis"

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        from memory_bank.engines.models import RelationJudgement
        return AnalysisOutput(relationships=[RelationJudgement(existing_node_id=c.id, relationship=Relation.MERGE,
                                                               reasoning="both mention the budget")
                                             for c in inp.candidates])


MINUTES = ("The board approved the Northwind project with a budget of 5 million dollars for the fiscal year 2021. "
           "Jonas Berg asked that the pilot report be presented to the board.")


def merged_by_the_llm(other: str) -> dict[str, RelationJudgement]:
    """The guarded judgements of the minutes against `other` (n2) and a copy of themselves (n3), where the LLM
    called both a merge."""
    guarded = GuardedAnalysis(SaysMergeForBoth(), OfflineAnalyzer(HashingEmbedder()))
    out = guarded.run(AnalysisInput(new_node=node("n1", MINUTES), candidates=[node("n2", other),
                                                                               node("n3", MINUTES)]))
    relation = {j.existing_node_id: j for j in out.relationships}
    assert relation["n3"].relationship is Relation.MERGE, "the same text merges as the LLM said"
    return relation


def test_an_llm_merge_of_two_phrasings_of_one_figure_that_differ_is_the_conflict_it_hid() -> None:
    relation = merged_by_the_llm("This review was prepared by the finance office. The Northwind project budget is "
                                 "9 million dollars for the fiscal year 2021. The budget was approved by the "
                                 "steering board.")
    assert relation["n2"].relationship is Relation.CONFLICT
    described = relation["n2"].conflict_description or ""
    assert "5" in described and "9" in described and relation["n2"].reasoning.startswith("the LLM said merge")


def test_an_llm_merge_of_two_texts_the_offline_check_finds_unrelated_is_no_merge() -> None:
    relation = merged_by_the_llm("The lease of the Stavanger office is extended by two years. Aisha Khan will "
                                 "negotiate the parking contract.")
    assert relation["n2"].relationship is Relation.UNRELATED
    assert relation["n2"].reasoning.startswith("the LLM said merge (both mention the budget)")


def test_a_merged_summary_that_drops_the_merged_nodes_figures_keeps_them_with_no_second_call() -> None:
    from memory_bank.engines.llm.integration import IntegrationAgent
    from memory_bank.engines.llm.openai_client import OpenAIClient
    from memory_bank.engines.models import IntegrationInput, NodeWithNeighbors

    minutes = node("n1", "The board approved the Northwind project with a budget of 5 million dollars for 2021. "
                         "Jonas Berg asked for the pilot report.")
    review = node("n2", "This review was prepared by the finance office. By June the project had spent 1.2 million "
                        "dollars. It covers the autumn round.")
    reply = {"context": "Northwind budget", "keywords": ["Northwind"], "neighbor_updates": {},
             "interaction_tree_description": "merged", "rejected_node_id": None}
    # the local model's merge of these: one node's text, the other's figure gone
    lossy = json.dumps({**reply, "summary": "The board approved the Northwind project with a budget of 5 million "
                                            "dollars for 2021."})
    with FakeOpenAI(lossy, lossy) as fake:
        settings = fake.settings()
        out = IntegrationAgent(OpenAIClient(settings), settings).run(IntegrationInput(
            nodes_to_merge=[NodeWithNeighbors(node=minutes), NodeWithNeighbors(node=review)]))
        calls = len(fake.chat_requests)
        shown = fake.chat_requests[0].messages[-1]["content"]
    assert calls == 1, "a dropped figure is mended, not asked again"
    assert "\n " not in shown, "the nodes are shown as compact JSON, the layout the reply should take"
    assert out.summary == ("The board approved the Northwind project with a budget of 5 million dollars for 2021. "
                           "By June the project had spent 1.2 million dollars.")
    assert "stating 1.2 were added" in out.interaction_tree_description


def test_a_merged_summary_that_keeps_every_figure_is_the_models_own() -> None:
    from memory_bank.engines.llm.integration import IntegrationAgent
    from memory_bank.engines.llm.openai_client import OpenAIClient
    from memory_bank.engines.models import IntegrationInput, NodeWithNeighbors

    minutes = node("n1", "Item 1: the board approved a budget of 5 million dollars.")
    review = node("n2", "The finance office spent 1.2 million dollars by June.")
    summary = "A 5 million dollar budget was approved; 1.2 million dollars were spent by June."
    reply = json.dumps({"summary": summary, "context": "Northwind budget", "keywords": [], "neighbor_updates": {},
                        "interaction_tree_description": "merged", "rejected_node_id": None})
    with FakeOpenAI(reply) as fake:
        settings = fake.settings()
        out = IntegrationAgent(OpenAIClient(settings), settings).run(IntegrationInput(
            nodes_to_merge=[NodeWithNeighbors(node=minutes), NodeWithNeighbors(node=review)]))
    assert out.summary == summary and out.interaction_tree_description == "merged"
