"""The new node's rewrite (context and keywords) is asked once a node, after its judgements, not once a related
candidate: the local 1.5B model copied the same rewrite into every related judgement (1,370 reply tokens instead of
318 on a NIST 2-node call) and the linker applied one of them. Replies of the older shape, the rewrite inside each
related judgement (an endpoint that ignores schemas, an older prompt), still apply; the node-level value wins.
Through the real OpenAIClient and the whole ingestion against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_bank import MemoryBank
from memory_bank.engines.llm.analysis import AnalysisAgent
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.models import AnalysisInput, NodeInfo
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, ok
from tests.support.scripted_llm import ScriptedLLM

TEXT = """The ALPHA maintenance crews were trained by the OMEGA institute in the northern district.

ALPHA systems were first deployed by the ministry of transport after a long survey."""
NEW_SIDE = "ALPHA: new side"  # what ScriptedLLM writes in each related judgement (the older shape)


def node(i: str) -> NodeInfo:
    return NodeInfo(id=i, summary=f"summary {i}", context=f"topic {i}", keywords=[f"k{i}"])


class NodeLevel(ScriptedLLM):
    """Writes the new node's rewrite once per node (`always`: even with nothing related); `old_too` keeps the
    per-judgement copies beside it, as an endpoint mixing both shapes would."""

    def __init__(self, *, old_too: bool = False, always: bool = False) -> None:
        super().__init__(per_cluster=1)
        self.old_too, self.always = old_too, always

    def _analysis(self, text: str, request: RecordedRequest) -> str:
        reply = json.loads(super()._analysis(text, request))
        for entry in reply.get("items", [reply]):
            judged = entry["relationships"]
            if not self.old_too:
                for j in judged:
                    j.pop("context_update_new", None)
                    j.pop("keywords_update_new", None)
            if self.always or any(j["relationship"] == "related" for j in judged):
                entry.update(context_update_new="ALPHA deployment, node level", keywords_update_new=["node-level"])
            if self.always:
                for j in judged:
                    j.update(relationship="unrelated", context_update_existing=None, keywords_update_existing=None)
        return json.dumps(reply)


def ingest(handler: ScriptedLLM, tmp_path: Path) -> tuple[dict[str, tuple[str, list[str]]], list[RecordedRequest]]:
    """Each node's (context, keywords) after ingesting TEXT (two nodes, the second judged against the first). Its
    paragraphs come as two files: passages of one file are related without a call (`rules_first.analysis_rule`)."""
    with FakeOpenAI(handler=handler) as fake:
        bank = MemoryBank(fake.settings(analysis_min_similarity=0.0), embedder=HashingEmbedder(), workdir=tmp_path)
        ids = [i for n, paragraph in enumerate(TEXT.split("\n\n"))
               for i in bank.ingest_text(paragraph, source=f"alpha-{n}.txt")]
        with bank.memory.read():
            nodes = {i: (bank.memory.graph.get(i).context, list(bank.memory.graph.get(i).keywords)) for i in ids}
        return nodes, [r for r in fake.chat_requests if r.agent == "analysis"]


def test_the_schema_asks_the_new_nodes_rewrite_once_after_its_judgements(fake: FakeOpenAI,
                                                                          client: OpenAIClient) -> None:
    fake.push(ok(json.dumps({"relationships": [
        {"existing_node_id": c, "reasoning": "same deployment", "relationship": "related",
         "context_update_existing": f"{c} side"} for c in ("b", "c")],
        "context_update_new": "the new node, once", "keywords_update_new": ["once"]})))
    out = AnalysisAgent(client, fake.settings()).run(AnalysisInput(new_node=node("n"),
                                                                   candidates=[node("b"), node("c")]))
    schema: dict[str, Any] = fake.chat_requests[0].schema
    assert list(schema["properties"]) == ["relationships", "context_update_new", "keywords_update_new"], \
        "the node's rewrite comes after its judgements, once"
    assert schema["required"] == ["relationships"], "a node with nothing related leaves it out"
    related = [v for p in schema["properties"]["relationships"]["prefixItems"] for v in p["anyOf"]
               if v["properties"]["relationship"]["enum"] == ["related"]]
    assert len(related) == 2
    assert all(set(v["properties"]) == {"existing_node_id", "reasoning", "relationship", "context_update_existing",
                                        "keywords_update_existing"} for v in related), \
        "a related judgement rewrites the candidate only"
    assert "context_update_new" not in json.dumps(schema["properties"]["relationships"])
    assert (out.context_update_new, out.keywords_update_new) == ("the new node, once", ["once"])
    assert [j.context_update_existing for j in out.relationships] == ["b side", "c side"]


def test_a_batch_entry_carries_its_nodes_rewrite_once(tmp_path: Path) -> None:
    nodes, requests = ingest(NodeLevel(), tmp_path)
    entries = requests[0].schema["properties"]["items"]["prefixItems"]
    assert all(list(e["properties"]) == ["id", "relationships", "context_update_new", "keywords_update_new"]
               for e in entries)
    assert "context_update_new" not in json.dumps([e["properties"]["relationships"] for e in entries])
    assert sorted(nodes.values()) == [("ALPHA deployment, node level", ["node-level"]),
                                      ("ALPHA: old side", ["ALPHA", "linked"])], \
        "the node-level rewrite went to the new node, the judgement's to the candidate"


def test_a_reply_of_the_older_shape_still_rewrites_the_new_node(tmp_path: Path) -> None:
    nodes, _ = ingest(ScriptedLLM(per_cluster=1), tmp_path)
    assert sorted(nodes.values()) == [(NEW_SIDE, ["ALPHA"]), ("ALPHA: old side", ["ALPHA", "linked"])]


def test_the_node_level_rewrite_wins_over_the_older_per_judgement_one(tmp_path: Path) -> None:
    nodes, _ = ingest(NodeLevel(old_too=True), tmp_path)
    contexts = {c for c, _ in nodes.values()}
    assert "ALPHA deployment, node level" in contexts and NEW_SIDE not in contexts


def test_a_node_with_nothing_related_keeps_its_own_context(tmp_path: Path) -> None:
    """The rewrite states the node's topic in the light of a link: with no link it is not applied."""
    nodes, requests = ingest(NodeLevel(always=True), tmp_path)
    assert requests, "the pair was judged"
    assert all(c != "ALPHA deployment, node level" and "node-level" not in k for c, k in nodes.values())
