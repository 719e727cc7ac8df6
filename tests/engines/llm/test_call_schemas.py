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
    AnalysisOutput,
    ConflictNotice,
    ImageNotice,
    IntegrationInput,
    NodeInfo,
    NodeWithNeighbors,
    PlanningInput,
    StructureInput,
)
from memory_bank.errors import AgentOutputError
from memory_bank.memory.insight_doc import InsightDoc, TaskType
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, ok


def node(i: str) -> NodeInfo:
    return NodeInfo(id=i, summary=f"summary {i}", context=f"topic {i}", keywords=[f"k{i}"])


def sent(request: RecordedRequest) -> dict[str, Any]:
    assert request.schema is not None
    return request.schema


def field(schema: dict[str, Any], model: str, name: str) -> dict[str, Any]:
    return schema["$defs"][model]["properties"][name]


def positions(relationships: dict[str, Any]) -> list[list[str]]:
    """The candidate each position of a node's judgements may name, per position (one list per relation kind)."""
    assert "items" not in relationships, "llama.cpp's converter reads `items` before `prefixItems`"
    return [sorted({v["properties"]["existing_node_id"]["enum"][0] for v in p["anyOf"]})
            for p in relationships["prefixItems"]]


def batch_positions(schema: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Each entry of a batch schema: the item id it names, and its judgements' candidates in order."""
    entries = schema["properties"]["items"]["prefixItems"]
    return [(e["properties"]["id"]["enum"][0], [p[0] for p in positions(e["properties"]["relationships"])])
            for e in entries]


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


def test_the_analysis_schema_gives_one_judgement_to_each_candidate_in_order(fake: FakeOpenAI,
                                                                            client: OpenAIClient) -> None:
    fake.push(ok(json.dumps({"relationships": [  # ignores the schema: c unjudged, an id it was never shown
        {"existing_node_id": "b", "relationship": "related", "reasoning": "same topic"},
        {"existing_node_id": "zz", "relationship": "merge", "reasoning": "an id it was never shown"}]})),
              ok(json.dumps({"relationships": [
                  {"existing_node_id": "b", "relationship": "related", "reasoning": "same topic"},
                  {"existing_node_id": "c", "relationship": "unrelated", "reasoning": "other topic"}]})))
    out = AnalysisAgent(client, fake.settings()).run(AnalysisInput(new_node=node("n"), candidates=[node("b"),
                                                                                                     node("c")]))
    first, again = fake.chat_requests
    schema = sent(first)
    relationships = schema["properties"]["relationships"]
    assert positions(relationships) == [["b"], ["c"]]
    assert relationships["minItems"] == relationships["maxItems"] == 2
    kinds = relationships["prefixItems"][0]["anyOf"]
    assert [k["properties"]["relationship"]["enum"] for k in kinds] == [["conflict"], ["merge"], ["related"],
                                                                          ["unrelated"]]
    merge = kinds[1]
    assert merge["additionalProperties"] is False and "context_update_new" not in merge["properties"], \
        "a merge writes no rewrite of either side"
    assert schema["$defs"]["Context"]["maxLength"] == 80
    assert "no judgement for candidate c" in again.messages[-1]["content"]
    assert [j.existing_node_id for j in out.relationships] == ["b", "c"], "an id outside the schema is never used"


def test_a_batch_schema_lists_each_nodes_candidates_in_order_and_a_re_ask_only_the_missing_items(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    inputs = [AnalysisInput(new_node=node("new1"), candidates=[node("x"), node("y"), node("z")]),
              AnalysisInput(new_node=node("new2"), candidates=[node("y"), node("w")])]
    judged = {"relationship": "unrelated", "reasoning": "different"}
    fake.push(ok(json.dumps({"items": [{"id": "n1", "relationships": [{"existing_node_id": c, **judged}
                                                                      for c in ("x", "y", "z")]},
                                       {"id": "n7", "relationships": [{"existing_node_id": "y", **judged}]}]})),
              ok(json.dumps({"items": [{"id": "n2", "relationships": [{"existing_node_id": c, **judged}
                                                                      for c in ("y", "w")]}]})))
    outs = AnalysisAgent(client, fake.settings()).run_batch(inputs)
    assert [[j.existing_node_id for j in o.relationships] for o in outs] == [["x", "y", "z"], ["y", "w"]]
    first, again = (sent(r) for r in fake.chat_requests)
    assert batch_positions(first) == [("n1", ["x", "y", "z"]), ("n2", ["y", "w"])]
    items = first["properties"]["items"]
    assert "items" not in items and items["minItems"] == items["maxItems"] == 2
    assert list(items["prefixItems"][0]["properties"])[0] == "id", "the grammar writes the id first"
    assert batch_positions(again) == [("n2", ["y", "w"])], "the invented n7 was refused; n2 asked again"


def test_a_batched_reply_missing_a_candidate_is_asked_again_for_that_node_then_falls_back(
        fake: FakeOpenAI, client: OpenAIClient) -> None:
    """An endpoint that ignores the schema judges n1 against its first candidate only (what the local model
    did under the old schema): n2 is kept, n1 is asked again with what was missing, and after the re-asks it
    is an error of its own, so the offline agent stands in for that node alone."""
    inputs = [AnalysisInput(new_node=node("new1"), candidates=[node("x"), node("y")]),
              AnalysisInput(new_node=node("new2"), candidates=[node("y")])]
    judged = {"relationship": "unrelated", "reasoning": "different"}
    first_only = {"id": "n1", "relationships": [{"existing_node_id": "x", **judged}]}
    fake.push(ok(json.dumps({"items": [first_only, {"id": "n2", "relationships": [
        {"existing_node_id": "y", **judged}]}]})), ok(json.dumps({"items": [first_only]})),
        ok(json.dumps({"items": [first_only]})))
    settings = fake.settings()
    outs = AnalysisAgent(client, settings).run_batch(inputs)
    assert isinstance(outs[0], AgentOutputError) and "no judgement for candidate y" in str(outs[0])
    assert isinstance(outs[1], AnalysisOutput) and [j.existing_node_id for j in outs[1].relationships] == ["y"]
    requests = fake.chat_requests
    assert len(requests) == 1 + settings.structured_retries
    assert all(batch_positions(sent(r)) == [("n1", ["x", "y"])] for r in requests[1:])
    assert "item n1: no judgement for candidate y" in requests[1].messages[-1]["content"]


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
