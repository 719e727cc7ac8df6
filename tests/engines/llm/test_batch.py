"""Batched agents: several items a call, each item kept, re-asked or handed to the offline agent on its own.

Every reply here is a bad batch reply of one kind (out of order, twice, invented ids, one invalid item, cut at
max_tokens mid-list): the valid items are kept by their own id, the rest re-asked, and what stays invalid falls
back alone. Counted in calls and in what each request carried, never in time.
"""

from __future__ import annotations

import json

from memory_bank.engines.compose import FallbackAgent, GuardedAnalysis
from memory_bank.engines.llm.analysis import AnalysisAgent
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.models import AnalysisInput, NodeInfo, StructureInput, StructureOutput
from memory_bank.engines.offline.structure import OfflineStructurer
from memory_bank.errors import AgentOutputError
from memory_bank.events import AgentFellBack
from memory_bank.memory.query_graph import Relation
from tests.support.fake_openai import FakeOpenAI, Reply, ok
from tests.support.scripted_llm import batch_items

CLUSTERS = [StructureInput(content=f"Cluster {n} text about topic {n}. " * 5, context=f"topic {n}", keywords=[n])
            for n in ("alpha", "beta", "gamma")]


def items(*pairs: tuple[str, str]) -> str:
    return json.dumps({"items": [{"id": i, "summary": s} for i, s in pairs]})


def asked_ids(fake: FakeOpenAI, call: int) -> list[str]:
    return [item["id"] for item in batch_items(fake.chat_requests[call].messages[-1]["content"])]


def test_three_clusters_take_one_call_answered_out_of_order_twice_and_with_an_invented_id(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(items(("c3", "gamma sum"), ("c9", "invented"), ("c1", "alpha sum"), ("c3", "gamma again"),
                       ("c2", "beta sum"))))
    agent = StructureAgent(client, fake.settings())
    assert agent.plan_batches(CLUSTERS) == [[0, 1, 2]]
    out = agent.run_batch(CLUSTERS)
    assert [o.summary for o in out] == ["alpha sum", "beta sum", "gamma sum"]  # by id; the first answer kept
    assert len(fake.chat_requests) == 1 and asked_ids(fake, 0) == ["c1", "c2", "c3"]
    system = fake.chat_requests[0].messages[0]["content"]
    assert "topic alpha" not in system  # the fixed prefix holds no item: it is the same for every call


def test_only_the_invalid_item_is_asked_again_with_its_problem(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(items(("c1", "alpha sum"), ("c2", ""), ("c3", "gamma sum"))), ok(items(("c2", "beta sum"))))
    out = StructureAgent(client, fake.settings()).run_batch(CLUSTERS)
    assert [o.summary for o in out] == ["alpha sum", "beta sum", "gamma sum"]
    assert len(fake.chat_requests) == 2 and asked_ids(fake, 1) == ["c2"]  # only beta is asked again, by its id
    again = fake.chat_requests[1].messages[-1]["content"]
    assert "topic beta" in again and "topic alpha" not in again and "at least 1 character" in again


def test_a_reply_cut_mid_list_keeps_its_complete_items(fake: FakeOpenAI, client: OpenAIClient) -> None:
    whole = items(("c1", "alpha sum"), ("c2", "beta sum"), ("c3", "gamma sum"))
    cut = whole[: whole.index('"c3"') + 8]  # the third item starts, then the token limit
    fake.push(Reply(text=cut, finish_reason="length"), ok(items(("c3", "gamma sum"))))
    out = StructureAgent(client, fake.settings()).run_batch(CLUSTERS)
    assert [o.summary for o in out] == ["alpha sum", "beta sum", "gamma sum"]
    assert asked_ids(fake, 1) == ["c3"] and "topic gamma" in fake.chat_requests[1].messages[-1]["content"]
    assert "cut at the token limit" in fake.chat_requests[1].messages[-1]["content"]


def test_an_item_that_stays_invalid_falls_back_alone(fake: FakeOpenAI, client: OpenAIClient) -> None:
    settings = fake.settings(structured_retries=1)
    fake.push(ok(items(("c1", "alpha sum"), ("c3", "gamma sum"))), ok('{"items": []}'))
    llm = StructureAgent(client, settings)
    out = llm.run_batch(CLUSTERS)
    assert isinstance(out[1], AgentOutputError) and "item c2" in str(out[1])
    assert [o.summary for o in (out[0], out[2])] == ["alpha sum", "gamma sum"]

    fake.push(ok(items(("c1", "alpha sum"), ("c3", "gamma sum"))), ok('{"items": []}'))
    heard: list[AgentFellBack] = []
    offline = OfflineStructurer()
    guarded = FallbackAgent(llm, offline, "structure", heard.append)
    out = guarded.run_batch(CLUSTERS)
    assert [o.summary for o in (out[0], out[2])] == ["alpha sum", "gamma sum"]
    assert out[1] == offline.run(CLUSTERS[1]) and isinstance(out[1], StructureOutput)
    assert len(heard) == 1 and "item c2" in heard[0].message
    assert len(fake.chat_requests) == 4  # two per batch: the call and one re-ask for beta


def node(i: str, summary: str) -> NodeInfo:
    return NodeInfo(id=i, summary=summary, context=f"context {i}", keywords=[i])


def test_new_nodes_share_one_call_their_shared_candidate_listed_once(fake: FakeOpenAI,
                                                                     client: OpenAIClient) -> None:
    shared, only_b = node("aaaaaaaaaaaa", "The budget is 5 million."), node("bbbbbbbbbbbb", "The team has 9 people.")
    first = AnalysisInput(new_node=node("nnnnnnnnnnn1", "The budget is 9 million."), candidates=[shared])
    second = AnalysisInput(new_node=node("nnnnnnnnnnn2", "The team grew."), candidates=[shared, only_b])
    fake.push(ok(json.dumps({"items": [
        {"id": "n2", "relationships": [{"existing_node_id": "aaaaaaaaaaaa", "relationship": "unrelated"},
                                       {"existing_node_id": "bbbbbbbbbbbb", "relationship": "Related"}]},
        {"id": "n1", "relationships": [{"existing_node_id": "aaaaaaaaaaaa", "relationship": "conflict",
                                        "reasoning": "5 vs 9"},
                                       {"existing_node_id": "bbbbbbbbbbbb", "relationship": "merge"}]},
    ]})))
    agent = AnalysisAgent(client, fake.settings())
    out = agent.run_batch([first, second])
    assert len(fake.chat_requests) == 1
    prompt = fake.chat_requests[0].messages[-1]["content"]
    assert prompt.count('"id":"aaaaaaaaaaaa"') == 1 and "embedding" not in prompt
    # n1 never had b as a candidate: that judgement is dropped, not moved to n2
    assert [(j.existing_node_id, j.relationship) for j in out[0].relationships] == [
        ("aaaaaaaaaaaa", Relation.CONFLICT)]
    assert out[0].relationships[0].conflict_description == "5 vs 9"
    assert [(j.existing_node_id, j.relationship) for j in out[1].relationships] == [
        ("aaaaaaaaaaaa", Relation.UNRELATED), ("bbbbbbbbbbbb", Relation.RELATED)]


def test_a_node_without_candidates_makes_no_call_in_a_batch(fake: FakeOpenAI, client: OpenAIClient) -> None:
    lonely = AnalysisInput(new_node=node("nnnnnnnnnnn1", "x"), candidates=[])
    agent = AnalysisAgent(client, fake.settings())
    assert agent.plan_batches([lonely, lonely]) == [[0], [1]]
    assert [o.relationships for o in agent.run_batch([lonely])] == [[]]
    assert fake.chat_requests == []


def test_the_offline_check_still_guards_a_batched_merge(fake: FakeOpenAI, client: OpenAIClient, embedder) -> None:  # noqa: ANN001
    from memory_bank.engines.offline.analysis import OfflineAnalyzer

    old = node("aaaaaaaaaaaa", "The Northwind project budget is 5 million dollars for the fiscal year 2021.")
    new = node("nnnnnnnnnnn1", "The Northwind project budget is 9 million dollars for the fiscal year 2021.")
    other = node("nnnnnnnnnnn2", "Unrelated text about the weather.")
    fake.push(ok(json.dumps({"items": [
        {"id": "n1", "relationships": [{"existing_node_id": "aaaaaaaaaaaa", "relationship": "merge"}]},
        {"id": "n2", "relationships": [{"existing_node_id": "aaaaaaaaaaaa", "relationship": "unrelated"}]}]})))
    guarded = GuardedAnalysis(AnalysisAgent(client, fake.settings()), OfflineAnalyzer(embedder))
    out = guarded.run_batch([AnalysisInput(new_node=new, candidates=[old]),
                             AnalysisInput(new_node=other, candidates=[old])])
    assert out[0].relationships[0].relationship is Relation.CONFLICT  # the LLM said merge; the figures differ
    assert out[1].relationships[0].relationship is Relation.UNRELATED
    assert len(fake.chat_requests) == 1
