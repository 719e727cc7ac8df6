"""Per-call schemas (issue 29 §2): the JSON schema sent with a call lists what that call may name (the task
type the rules allow now, the conflict, image, node and item ids it was shown) as enums, so llama.cpp's grammar
cannot produce a reply naming anything else. The validation stays: an endpoint that ignores the schema and names
an id outside it is refused and asked again. Through the real OpenAIClient against the scripted server."""

from __future__ import annotations

import json
from typing import Any

from memory_bank.engines.llm.analysis import AnalysisAgent
from memory_bank.engines.llm.integration import IntegrationAgent
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.planning import PlanningAgent
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.models import (
    AnalysisInput,
    ConflictNotice,
    ImageNotice,
    IntegrationInput,
    NodeInfo,
    NodeWithNeighbors,
    PlanningInput,
    StructureInput,
)
from memory_bank.memory.insight_doc import InsightDoc, TaskType
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, ok


def node(i: str) -> NodeInfo:
    return NodeInfo(id=i, summary=f"summary {i}", context=f"topic {i}", keywords=[f"k{i}"])


def sent(request: RecordedRequest) -> dict[str, Any]:
    return request.response_format["json_schema"]["schema"]


def field(schema: dict[str, Any], model: str, name: str) -> dict[str, Any]:
    return schema["$defs"][model]["properties"][name]


def judged_ids(schema: dict[str, Any]) -> list[list[str]]:
    """The candidate ids each kind of judgement may name (one alternative per relation)."""
    return [v["properties"]["existing_node_id"]["enum"] for v in schema["$defs"]["LenientJudgement"]["anyOf"]]


def plan(**task: object) -> str:
    return json.dumps({"reasoning": "r", "pending_tasks": [task] if task else []})


def planning_input(**kw: object) -> PlanningInput:
    return PlanningInput(insight_doc=InsightDoc(task_goal="When was ALPHA deployed?"), new_nodes=[node("a")], **kw)


def test_the_planning_schema_lists_the_pending_conflicts_and_a_reply_outside_it_is_asked_again(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    conflicts = [ConflictNotice(conflict_id=c, node_a=node("a"), node_b=node("b"), description="1990 vs 1995")
                 for c in ("cf1", "cf2")]
    fake.push(ok(plan(type="CROSS_VALIDATE", description="check", conflict_id="cf9")),  # ignores the schema
              ok(plan(type="CROSS_VALIDATE", description="check", conflict_id="cf2")))
    out = PlanningAgent(client, fake.settings()).run(planning_input(conflicts=conflicts, round=1))
    assert (out.pending_tasks[0].type, out.pending_tasks[0].conflict_id) == (TaskType.CROSS_VALIDATE, "cf2")
    first, again = fake.chat_requests
    schema = sent(first)
    assert field(schema, "LenientTask", "conflict_id")["enum"] == ["cf1", "cf2"]
    assert field(schema, "LenientTask", "type")["enum"] == ["CROSS_VALIDATE"]
    assert field(schema, "LenientTask", "image_id") == {"type": "null"}
    assert schema["properties"]["pending_tasks"]["minItems"] == 1
    assert "conflict_id from ['cf1', 'cf2']" in again.messages[-1]["content"]


def test_the_planning_schema_without_conflicts_allows_images_then_only_a_normal_task(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(plan(type="IMAGE_RECOGNITION", description="describe", image_id="img1")), ok(plan()))
    agent = PlanningAgent(client, fake.settings())
    agent.run(planning_input(pending_images=[ImageNotice(image_id="img1", name="chart.png")]))
    agent.run(planning_input(answer_so_far="In 1995."))
    images, normal = (sent(r) for r in fake.chat_requests)
    assert field(images, "LenientTask", "image_id")["enum"] == ["img1"]
    assert field(images, "LenientTask", "conflict_id") == {"type": "null"}
    assert field(normal, "LenientTask", "type")["enum"] == ["NORMAL"]
    assert normal["properties"]["pending_tasks"]["minItems"] == 0, "finishing stays possible"


def test_the_analysis_schema_names_exactly_the_candidates_shown(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(json.dumps({"relationships": [
        {"existing_node_id": "b", "relationship": "related", "reasoning": "same topic"},
        {"existing_node_id": "zz", "relationship": "merge", "reasoning": "an id it was never shown"}]})))
    out = AnalysisAgent(client, fake.settings()).run(AnalysisInput(new_node=node("n"), candidates=[node("b"),
                                                                                                     node("c")]))
    schema = sent(fake.chat_requests[0])
    assert judged_ids(schema) == [["b", "c"]] * 4
    merge = schema["$defs"]["LenientJudgement"]["anyOf"][1]
    assert merge["properties"]["relationship"]["enum"] == ["merge"] and merge["additionalProperties"] is False
    assert "context_update_new" not in merge["properties"], "a merge writes no rewrite of either side"
    related = schema["$defs"]["LenientJudgement"]["anyOf"][2]["properties"]
    assert related["context_update_new"]["maxLength"] == related["context_update_existing"]["maxLength"] == 80
    assert schema["properties"]["relationships"]["minItems"] == 2
    assert [j.existing_node_id for j in out.relationships] == ["b"], "an id outside the enum is never used"


def test_a_batch_schema_lists_the_items_asked_and_a_re_ask_only_the_missing_ones(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    inputs = [AnalysisInput(new_node=node(f"new{i}"), candidates=[node(c)]) for i, c in ((1, "x"), (2, "y"))]
    judged = {"relationship": "unrelated", "reasoning": "different"}
    fake.push(ok(json.dumps({"items": [{"id": "n1", "relationships": [{"existing_node_id": "x", **judged}]},
                                       {"id": "n7", "relationships": [{"existing_node_id": "y", **judged}]}]})),
              ok(json.dumps({"items": [{"id": "n2", "relationships": [{"existing_node_id": "y", **judged}]}]})))
    agent = AnalysisAgent(client, fake.settings())
    outs = agent.run_batch(inputs)
    assert [[j.existing_node_id for j in o.relationships] for o in outs] == [["x"], ["y"]]
    first, again = (sent(r) for r in fake.chat_requests)
    assert field(first, "AnalysisItem", "id")["enum"] == ["n1", "n2"]
    assert list(first["$defs"]["AnalysisItem"]["properties"])[0] == "id", "the grammar writes the id first"
    assert judged_ids(first) == [["x", "y"]] * 4
    assert first["properties"]["items"]["minItems"] == first["properties"]["items"]["maxItems"] == 2
    assert field(again, "AnalysisItem", "id")["enum"] == ["n2"], "the invented n7 was refused; n2 asked again"
    assert judged_ids(again) == [["y"]] * 4


def test_a_structure_batch_schema_lists_its_cluster_ids(fake: FakeOpenAI, client: OpenAIClient) -> None:
    clusters = [StructureInput(content=f"Cluster {n} text about {n}. " * 5, context=n, keywords=[n])
                for n in ("alpha", "beta")]
    fake.push(ok(json.dumps({"items": [{"id": "c1", "summary": "a"}, {"id": "c2", "summary": "b"}]})))
    StructureAgent(client, fake.settings()).run_batch(clusters)
    assert field(sent(fake.chat_requests[0]), "StructureItem", "id")["enum"] == ["c1", "c2"]


def test_the_integration_schema_names_the_merged_nodes_and_their_neighbours(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    groups = [NodeWithNeighbors(node=node("a"), neighbors=[node("n1"), node("b")]),
              NodeWithNeighbors(node=node("b"), neighbors=[node("n2")])]
    merged = {"summary": "s", "context": "c", "keywords": [], "rejected_node_id": "b"}
    fake.push(ok(json.dumps(merged)), ok(json.dumps({**merged, "rejected_node_id": None})))
    agent = IntegrationAgent(client, fake.settings())
    agent.run(IntegrationInput(nodes_to_merge=groups, validation_result="b is wrong", conflict_description="x"))
    agent.run(IntegrationInput(nodes_to_merge=groups))
    conflict, duplicate = (sent(r) for r in fake.chat_requests)
    assert conflict["properties"]["rejected_node_id"]["anyOf"][0]["enum"] == ["a", "b"]
    assert set(conflict["properties"]["neighbor_updates"]["properties"]) == {"n1", "n2"}
    assert conflict["properties"]["neighbor_updates"]["additionalProperties"] is False
    assert duplicate["properties"]["rejected_node_id"] == {"type": "null"}, "a duplicate merge rejects nothing"
