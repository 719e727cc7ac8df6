"""Batched analysis on a local model's small window: several new nodes a call, each call's schema naming its own ids.

A local model with two calls at once gives each agent a 3,072-token window, 1,536 tokens of it for the items of a
batch. Listed whole, the NIST PDF's candidates (~200 tokens each, five a node) filled that with one new node: 105
of 120 analysis calls carried one. A candidate is now listed by its opening; the new nodes stay whole. Counted
on the scripted server, never timed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines import compose
from memory_bank.engines.llm import analysis
from memory_bank.engines.llm.analysis import AnalysisAgent
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.models import AnalysisInput, NodeInfo
from memory_bank.loaders import load_file
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.fake_openai import FakeOpenAI, ok
from tests.support.scripted_llm import ScriptedLLM, batch_items

NIST = Path(__file__).resolve().parents[4] / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"
LOCAL_LIMITS = {"agent_window": 3_072, "llm_concurrency": 2}  # what the local server gives with two slots


def nist_pages(first: int, last: int) -> str:
    if not NIST.is_file():
        pytest.skip("the NIST PDF is not in ../shared/data/pdf")
    settings = Settings()
    doc = load_file(NIST, max_bytes=settings.max_file_mb << 20, max_image_pixels=settings.max_image_pixels)
    return "\n\n".join(text for _, text in doc.page_texts[first - 1:last])


def analysis_calls(text: str, embedder: CachedEmbedder, tmp_path: Path) -> tuple[list[list[dict]], dict, FakeOpenAI]:
    """The new nodes each analysis call carried, and the graph's counts."""
    with FakeOpenAI(handler=ScriptedLLM()) as fake:
        bank = MemoryBank(fake.settings(llm_timeout=30.0, **LOCAL_LIMITS), embedder=embedder, workdir=tmp_path)
        bank.ingest_text(text, source="NIST.SP.800-207.pdf")
        counts = bank.snapshot().counts
        bank.clear()
    calls = [batch_items(r.messages[-1]["content"].partition("New nodes (")[2])
             for r in fake.chat_requests if r.agent == "analysis"]
    return calls, counts, fake


def test_the_nist_body_pages_carry_several_new_nodes_an_analysis_call(embedder: CachedEmbedder, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = nist_pages(9, 20)
    # one file's passages are related without a call now (`rules_first.analysis_rule`); the batching is measured
    # with every node asked, as when the finding was made
    monkeypatch.setattr(compose, "analysis_rule", lambda inp: None)
    with monkeypatch.context() as whole:
        whole.setattr(analysis, "CANDIDATE_SHARE", 1)  # every candidate listed whole: how it was
        before, before_counts, _ = analysis_calls(text, embedder, tmp_path / "before")
    after, after_counts, fake = analysis_calls(text, embedder, tmp_path / "after")
    single_before = sum(len(c) == 1 for c in before)
    print(f"analysis calls {len(before)} -> {len(after)}; one new node a call {single_before} -> "
          f"{sum(len(c) == 1 for c in after)}")
    assert single_before > len(before) // 2  # the finding: most calls carried one node
    assert len(after) < 0.7 * len(before)
    assert sum(len(c) >= 2 for c in after) > len(after) // 2
    assert sum(map(len, after)) == sum(map(len, before))  # every new node with candidates judged, once
    assert after_counts["nodes"] == before_counts["nodes"]
    for request in (r for r in fake.chat_requests if r.agent == "analysis"):
        prompt = request.messages[-1]["content"]
        items = batch_items(prompt.partition("New nodes (")[2])
        listed = {c["id"] for c in batch_items(prompt.partition("New nodes (")[0])}
        schema = request.schema
        assert schema is not None
        assert schema["properties"]["items"]["minItems"] == schema["properties"]["items"]["maxItems"] == len(items)
        entries = schema["properties"]["items"]["prefixItems"]
        assert [e["properties"]["id"]["enum"] for e in entries] == [[i["id"]] for i in items]
        judged = [[p["anyOf"][0]["properties"]["existing_node_id"]["enum"][0]
                   for p in e["properties"]["relationships"]["prefixItems"]] for e in entries]
        assert judged == [i["candidates"] for i in items]  # each node's candidates, in the order shown
        assert {c for i in items for c in i["candidates"]} == listed


def test_a_candidate_is_listed_by_its_opening_and_a_short_one_whole() -> None:
    text = ("Zero trust assumes no implicit trust. Access is granted per session by the policy engine. "
            "The policy administrator executes the decision.")
    node = NodeInfo(id="a" * 12, summary=text, context="access decisions", keywords=["zero trust"])
    cut = analysis.shown(node, 100)
    assert cut.summary == "Zero trust assumes no implicit trust. Access is granted per session by the policy engine. …"
    assert cut.context == node.context and cut.keywords == node.keywords and cut.id == node.id
    assert analysis.shown(node, len(text)) == node


def _node(i: str, sentences: int) -> NodeInfo:
    text = " ".join(f"Sentence {k} of node {i} says the ALPHA pump moves water to the BETA tank."
                    for k in range(sentences))
    return NodeInfo(id=i, summary=text, context=f"topic {i}", keywords=[f"k{i}"])


def _judged(ids: list[tuple[str, list[str]]]) -> str:
    return json.dumps({"items": [{"id": item, "relationships": [
        {"existing_node_id": cand, "reasoning": "r", "relationship": "unrelated"} for cand in cands]}
        for item, cands in ids]})


def test_candidates_are_cut_only_in_a_call_they_would_not_fit_whole(fake: FakeOpenAI) -> None:
    """A call that fits lists every candidate whole (the notes sample's: a duplicate is judged on its whole
    text); one that holds several new nodes only thanks to the cut lists each by its opening."""
    client = OpenAIClient(fake.settings())
    agent = AnalysisAgent(client, fake.settings(**LOCAL_LIMITS))
    short = [AnalysisInput(new_node=_node(f"new{i}", 2), candidates=[_node(f"old{i}", 3)]) for i in range(2)]
    long = [AnalysisInput(new_node=_node(f"new{i}", 4), candidates=[_node(f"old{i}{k}", 12) for k in range(3)])
            for i in range(2)]
    assert agent.plan_batches(short) == [[0, 1]] and agent.plan_batches(long) == [[0, 1]]
    fake.push(ok(_judged([(f"n{i + 1}", [c.id for c in inp.candidates]) for i, inp in enumerate(short)])),
              ok(_judged([(f"n{i + 1}", [c.id for c in inp.candidates]) for i, inp in enumerate(long)])))
    agent.run_batch(short)
    agent.run_batch(long)
    whole, cut = (r.messages[-1]["content"] for r in fake.chat_requests)  # no re-ask: every candidate judged
    assert all(c.summary in whole for i in short for c in i.candidates) and " …" not in whole
    assert all(i.new_node.summary in cut for i in long), "the new nodes are always whole"
    assert not any(c.summary in cut for i in long for c in i.candidates) and cut.count(" …") == 6
