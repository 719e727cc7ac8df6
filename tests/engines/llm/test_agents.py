"""Each LLM agent through the real OpenAIClient against the scripted server."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from PIL import Image

from memory_bank.engines.llm.analysis import AnalysisAgent
from memory_bank.engines.llm.classification import ClassificationAgent, passage_spans
from memory_bank.engines.llm.engine import build_llm_engine
from memory_bank.engines.llm.integration import IntegrationAgent
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.planning import PlanningAgent
from memory_bank.engines.llm.react import ReactAgent
from memory_bank.engines.llm.recognizer import MAX_SIDE, ImageRecognizer
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.llm.visit_extractor import LLMExtractor
from memory_bank.engines.models import (
    AnalysisInput,
    ClassificationInput,
    ConflictNotice,
    ImageInput,
    ImageNotice,
    IntegrationInput,
    NodeInfo,
    NodeWithNeighbors,
    PlanningInput,
    StructureInput,
)
from memory_bank.errors import AgentOutputError
from memory_bank.memory.insight_doc import CompletedTask, InsightDoc, TaskStatus, TaskType
from memory_bank.memory.query_graph import Relation
from memory_bank.settings import DEFAULT_SAMPLING
from memory_bank.tools.base import ToolBox
from tests.support.fake_openai import FakeOpenAI, ok


def reply(data: object) -> str:
    return json.dumps(data)


def node(i: str, context: str = "topic", summary: str = "summary") -> NodeInfo:
    return NodeInfo(id=i, summary=f"{summary} {i}", context=f"{context} {i}", keywords=[f"k{i}"])


def assert_sampling(fake: FakeOpenAI, agent: str) -> None:
    expected = DEFAULT_SAMPLING[agent]
    for req in fake.chat_requests:
        assert (req.temperature, req.top_p, req.agent) == (expected.temperature, expected.top_p, agent)


# -- classification --------------------------------------------------------------------------------------------

TEXT = ("1 Introduction\n\nZero trust assumes no implicit trust.\nIt is granted per session.\n\n"
        "Figure 2: the policy engine.\n\nThe budget for 2024 is $3M, approved in March.")


def test_passages_are_paragraphs_and_long_ones_are_cut_at_sentences() -> None:
    spans = passage_spans(TEXT)
    assert [s.text for s in spans][:2] == ["1 Introduction",
                                                 "Zero trust assumes no implicit trust.\nIt is granted per session."]
    long = "A sentence of some length here. " * 120
    pieces = [s.text for s in passage_spans(long)]
    assert len(pieces) > 2 and all(len(p) <= 1_200 and p.endswith(".") for p in pieces)


def test_a_markdown_heading_is_one_passage_with_the_paragraph_it_heads() -> None:
    text = ("# Minutes\n\n## Item 1: Northwind\n\nThe board approved 5 million dollars.\n\n"
            "Jonas Berg asked for the report.\n\n## Item 2\n\nThe lease is extended.\n\n## Closing")
    spans = passage_spans(text)
    assert [s.text for s in spans] == [
        "# Minutes\n\n## Item 1: Northwind\n\nThe board approved 5 million dollars.",
        "Jonas Berg asked for the report.", "## Item 2\n\nThe lease is extended.", "## Closing"]
    assert all(text[s.start:s.end] == s.text for s in spans)


def test_classification_keeps_content_verbatim_and_loses_nothing(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(reply({"topics": [
        {"context": "Zero trust basics", "keywords": ["zero trust", "session"]},
        {"context": "2024 budget", "keywords": ["budget", "$3M"]},
    ], "labels": [0, 0, 0, 1]})))
    out = ClassificationAgent(client, fake.settings()).run(
        ClassificationInput(context=TEXT, task_goal="What is zero trust?", source="nist.pdf"))
    assert [c.cluster_id for c in out.clusters] == ["c1", "c2"] and out.should_cluster
    first, second = out.clusters
    assert first.content == TEXT[: TEXT.index("\n\nThe budget")]
    assert second.content == "The budget for 2024 is $3M, approved in March."
    assert second.keywords == ["budget", "$3M"]
    prompt = fake.chat_requests[0].text()
    assert "[P3] The budget for 2024 is $3M" in prompt and "What is zero trust?" in prompt
    assert_sampling(fake, "classification")
    schema = fake.chat_requests[0].schema["properties"]["labels"]
    assert schema["minItems"] == schema["maxItems"] == 4, "the schema asks for exactly one label per passage"
    assert schema["items"]["maximum"] == 3


def test_classification_non_consecutive_passages_are_joined_verbatim(fake: FakeOpenAI,
                                                                     client: OpenAIClient) -> None:
    fake.push(ok(reply({"topics": [{"context": "Headings and figures"}, {"context": "Everything else"},
                                   {"context": "A topic no passage has"}], "labels": [0, 1, 0, 1]})))
    out = ClassificationAgent(client, fake.settings()).run(ClassificationInput(context=TEXT))
    assert out.clusters[0].content == "1 Introduction\n\nFigure 2: the policy engine."
    assert [c.context for c in out.clusters] == ["Headings and figures", "Everything else"]
    assert all(part in TEXT for c in out.clusters for part in c.content.split("\n\n"))


def test_classification_re_asks_for_labels_that_miss_passages_or_topics(fake: FakeOpenAI,
                                                                        client: OpenAIClient) -> None:
    fake.push(ok(reply({"topics": [{"context": "t"}], "labels": [0, 0]})),
              ok(reply({"topics": [{"context": "t"}], "labels": [0, 0, -1, 0]})),
              ok(reply({"topics": [{"context": "t"}], "labels": [0, 0, 0, 0]})))
    out = ClassificationAgent(client, fake.settings()).run(ClassificationInput(context=TEXT))
    assert out.clusters[0].content == TEXT and not out.should_cluster
    assert "labels has 2 entries; it needs exactly 4" in fake.chat_requests[1].messages[-1]["content"]
    assert "a negative label names no topic" in fake.chat_requests[2].messages[-1]["content"]


def test_labels_beyond_the_listed_topics_keep_their_grouping(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(reply({"topics": [{"context": "Zero trust", "keywords": ["zero trust"]}],
                        "labels": [0, 0, 0, 3]})))
    out = ClassificationAgent(client, fake.settings()).run(ClassificationInput(context=TEXT))
    assert len(fake.chat_requests) == 1, "no re-ask: the grouping is usable"
    assert [c.context for c in out.clusters] == ["Zero trust", "The budget for 2024 is $3M, approved in March."]
    budget = out.clusters[1]
    assert budget.content == "The budget for 2024 is $3M, approved in March." and budget.keywords == []


def test_classification_reads_topics_numbered_from_one_without_a_re_ask(fake: FakeOpenAI,
                                                                        client: OpenAIClient) -> None:
    fake.push(ok(reply({"topics": [{"context": "Zero trust"}, {"context": "Budget"}], "labels": [1, 1, 1, 2]})))
    out = ClassificationAgent(client, fake.settings()).run(ClassificationInput(context=TEXT))
    assert [c.context for c in out.clusters] == ["Zero trust", "Budget"] and len(fake.chat_requests) == 1
    assert out.clusters[1].content == "The budget for 2024 is $3M, approved in March."


def test_classification_of_blank_text_makes_no_call(fake: FakeOpenAI, client: OpenAIClient) -> None:
    assert ClassificationAgent(client, fake.settings()).run(ClassificationInput(context=" \n\n ")).clusters == []
    assert fake.chat_requests == []


# -- structure -------------------------------------------------------------------------------------------------

def test_structure_summarises_with_length_targets(fake: FakeOpenAI, client: OpenAIClient) -> None:
    content = "word " * 200
    fake.push(ok(reply({"summary": "A compact summary."})))
    out = StructureAgent(client, fake.settings()).run(StructureInput(content=content, context="c", keywords=["k"]))
    assert out.summary == "A compact summary."
    assert "aim for 60 to 100 words" in fake.chat_requests[0].messages[1]["content"]
    assert_sampling(fake, "structure")


def test_structure_fails_clearly_after_re_asks(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok('{"summary": ""}'), ok('{"summary": ""}'), ok('{"summary": ""}'))
    with pytest.raises(AgentOutputError, match="(?s)structure agent.*summary: String should have at least 1 character"):
        StructureAgent(client, fake.settings()).run(StructureInput(content="text", context="c"))


# -- analysis --------------------------------------------------------------------------------------------------

def test_analysis_judges_all_candidates_in_one_call_and_drops_unknown_ids(fake: FakeOpenAI,
                                                                          client: OpenAIClient) -> None:
    fake.push(ok(reply({"relationships": [
        {"existing_node_id": "a", "relationship": "Conflict", "reasoning": "1990 vs 1995"},
        {"existing_node_id": "ghost", "relationship": "merge"},
        {"existing_node_id": "b", "relationship": "related", "context_update_new": "new ctx",
         "context_update_existing": "b ctx", "keywords_update_new": ["x"], "keywords_update_existing": ["y"]},
        {"existing_node_id": "a", "relationship": "unrelated"},
        {"existing_node_id": "c", "relationship": "unrelated"},
    ]})))
    out = AnalysisAgent(client, fake.settings()).run(
        AnalysisInput(new_node=node("n"), candidates=[node("a"), node("b"), node("c")]))
    assert [(j.existing_node_id, j.relationship) for j in out.relationships] == [
        ("a", Relation.CONFLICT), ("b", Relation.RELATED), ("c", Relation.UNRELATED)]
    assert out.relationships[0].conflict_description == "1990 vs 1995"
    assert out.relationships[1].keywords_update_existing == ["y"]
    assert len(fake.chat_requests) == 1
    prompt = fake.chat_requests[0].text()
    assert '"id": "c"' in prompt and "embedding" not in prompt
    assert_sampling(fake, "analysis")


def test_analysis_without_candidates_makes_no_call(fake: FakeOpenAI, client: OpenAIClient) -> None:
    assert AnalysisAgent(client, fake.settings()).run(AnalysisInput(new_node=node("n"), candidates=[])) \
        .relationships == []
    assert fake.chat_requests == []


# -- integration -----------------------------------------------------------------------------------------------

def test_integration_uses_the_validation_result_and_keeps_real_neighbours(fake: FakeOpenAI,
                                                                          client: OpenAIClient) -> None:
    fake.push(ok(reply({"summary": "Deployed in 1995 (1990 was wrong).", "context": "Deployment year",
                        "keywords": ["1995"], "neighbor_updates": {
                            "x": {"context": "linked to deployment", "keywords": ["x"]},
                            "a": {"context": "a merged node is not a neighbour"},
                            "nobody": {"context": "invented"}},
                        "interaction_tree_description": "Merged a and b; the survey's 1995 won."})))
    inp = IntegrationInput(
        nodes_to_merge=[NodeWithNeighbors(node=node("a"), neighbors=[node("x"), node("b")]),
                        NodeWithNeighbors(node=node("b"), neighbors=[node("a")])],
        validation_result="The 1995 survey is the authoritative source.",
        conflict_description="1990 vs 1995")
    out = IntegrationAgent(client, fake.settings()).run(inp)
    assert list(out.neighbor_updates) == ["x"]
    assert out.context == "Deployment year"
    prompt = fake.chat_requests[0].text()
    assert "The 1995 survey is the authoritative source." in prompt and "cross-validated" in prompt
    assert "the claim supported by the validation result wins" in prompt
    assert_sampling(fake, "integration")


# -- planning --------------------------------------------------------------------------------------------------

def planning_input(**kw: object) -> PlanningInput:
    done = CompletedTask(type=TaskType.NORMAL, description="read the report", status=TaskStatus.SUCCESS,
                         context="found the deployment dates")
    doc = InsightDoc(task_goal="When was ALPHA deployed?", completed_tasks=[done])
    return PlanningInput(insight_doc=doc, new_nodes=[node("a")], **kw)


def task_reply(**task: object) -> str:
    return reply({"reasoning": "r", "pending_tasks": [task] if task else []})


def test_planning_puts_cross_validation_first_and_keeps_the_history(fake: FakeOpenAI,
                                                                    client: OpenAIClient) -> None:
    conflict = ConflictNotice(conflict_id="cf1", node_a=node("a"), node_b=node("b"), description="1990 vs 1995")
    fake.push(ok(task_reply(type="NORMAL", description="answer now")),
              ok(task_reply(type="cross-validate", description="check the year", conflict_id="cf1")))
    inp = planning_input(conflicts=[conflict], round=1)
    out = PlanningAgent(client, fake.settings()).run(inp)
    (task,) = out.pending_tasks
    assert (task.type, task.conflict_id) == (TaskType.CROSS_VALIDATE, "cf1")
    assert out.completed_tasks == inp.insight_doc.completed_tasks and out.task_goal == "When was ALPHA deployed?"
    assert "must be CROSS_VALIDATE" in fake.chat_requests[1].messages[-1]["content"]
    assert "conflict_id cf1: 1990 vs 1995" in fake.chat_requests[0].text()
    assert_sampling(fake, "planning")


def test_planning_recognises_waiting_images(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(task_reply(type="IMAGE_RECOGNITION", description="describe", image_id="img9")),
              ok(task_reply(type="IMAGE_RECOGNITION", description="describe", image_id="img1")))
    out = PlanningAgent(client, fake.settings()).run(
        planning_input(pending_images=[ImageNotice(image_id="img1", name="chart.png")]))
    assert out.pending_tasks[0].image_id == "img1"
    assert "'img9' is not a waiting image" in fake.chat_requests[1].messages[-1]["content"]


def test_planning_ends_with_an_empty_pending_list(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(task_reply()))
    out = PlanningAgent(client, fake.settings()).run(planning_input(answer_so_far="In 1995 [node:a]."))
    assert out.pending_tasks == []
    assert "In 1995 [node:a]." in fake.chat_requests[0].text()


def test_planning_never_returns_two_tasks(fake: FakeOpenAI, client: OpenAIClient) -> None:
    two = reply({"pending_tasks": [{"description": "a"}, {"description": "b"}]})
    fake.push(ok(two), ok(two), ok(two))
    with pytest.raises(AgentOutputError, match="pending_tasks"):
        PlanningAgent(client, fake.settings()).run(planning_input())


# -- image recognition and page extraction ----------------------------------------------------------------------

def test_recognizer_sends_the_image_to_the_vision_model(fake: FakeOpenAI, tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    Image.new("RGB", (40, 30), "red").save(path)
    client = OpenAIClient(fake.settings(llm_vision_model="fake-vision"))
    fake.push(ok(reply({"description": "A red square.", "keywords": ["red"]})))
    out = ImageRecognizer(client, fake.settings()).run(ImageInput(path=str(path), name="chart.png", task_goal="g"))
    assert (out.description, out.method) == ("A red square.", "vision-llm")
    req = fake.chat_requests[0]
    assert req.model == "fake-vision" and req.agent == "image"
    part = req.messages[1]["content"][1]
    assert part["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()


def test_recognizer_shrinks_large_images(fake: FakeOpenAI, client: OpenAIClient, tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    Image.new("RGB", (4000, 1000), "blue").save(path)
    fake.push(ok(reply({"description": "A blue band."})))
    ImageRecognizer(client, fake.settings()).run(ImageInput(path=str(path), name="big.png"))
    url = fake.chat_requests[0].messages[1]["content"][1]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    shrunk = tmp_path / "sent.jpg"
    shrunk.write_bytes(base64.b64decode(url.split(",", 1)[1]))
    with Image.open(shrunk) as sent:
        assert max(sent.size) == MAX_SIDE


def test_visit_extractor_keeps_evidence_for_the_goal(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(reply({"relevant": True, "evidence": "Released on 3 May 2021.", "summary": "Gives the date."})),
              ok(reply({"relevant": False, "evidence": "", "summary": "About cooking."})))
    extract = LLMExtractor(client, fake.settings())
    text = extract("When was it released?", "nav nav Released on 3 May 2021. footer")
    assert text == "Summary: Gives the date.\n\nEvidence:\nReleased on 3 May 2021."
    assert extract("When was it released?", "recipes") == ""  # the visit tool reports "nothing matches"
    req = fake.chat_requests[0]
    assert "nav nav Released on 3 May 2021. footer" in req.text()
    expected = DEFAULT_SAMPLING["structure"]
    assert (req.agent, req.temperature, req.top_p) == ("visit", expected.temperature, expected.top_p)


# -- the engine ------------------------------------------------------------------------------------------------

def test_build_llm_engine(fake: FakeOpenAI, client: OpenAIClient) -> None:
    engine = build_llm_engine(fake.settings(), client, ToolBox([]))
    assert engine.name == "llm" and engine.uses_llm
    assert engine.label == f"LLM engine (fake-model at {client.host})"
    assert isinstance(engine.executor, ReactAgent)
    assert {engine.classification.name, engine.structure.name, engine.analysis.name, engine.integration.name,
            engine.planning.name, engine.executor.name} == set(DEFAULT_SAMPLING)
