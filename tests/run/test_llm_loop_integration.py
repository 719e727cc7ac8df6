"""The whole loop on the LLM engine through the real `openai` client and a scripted server on 127.0.0.1:
ingest -> conflict -> cross-validation -> merge with inherited edges and rewritten neighbours -> answer.
Then faults mid-run: the run records the failure, goes on, and loses nothing already in memory."""

from __future__ import annotations

import re

import pytest

from memory_bank import MemoryBank
from memory_bank.errors import EndpointDown
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.settings import DEFAULT_SAMPLING
from memory_bank.tools.local_search import LocalSearchTool
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply, dropped, garbage
from tests.support.scripted_llm import ScriptedLLM

TEXT = """ALPHA systems were first deployed FACT:year=1990 according to the archive of the ministry.

The ALPHA maintenance crews were trained by the OMEGA institute.

ALPHA systems were first deployed FACT:year=1995 according to a later survey of the ministry.

The BETA protocol is a separate matter about postal codes."""


@pytest.fixture()
def server():
    with FakeOpenAI(handler=ScriptedLLM(per_cluster=1)) as fake:
        yield fake


def make_bank(fake: FakeOpenAI, tmp_path, **overrides) -> MemoryBank:
    # the hashing embedder's cosine is not semantic: the scripted model judges every candidate here
    settings = fake.settings(llm_concurrency=2, **{"analysis_min_similarity": 0.0, **overrides})
    return MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")


def test_conflict_is_validated_merged_and_answered(server: FakeOpenAI, tmp_path) -> None:
    bank = make_bank(server, tmp_path)
    # one file a paragraph: passages of one document are related by the offline analysis without a call
    # (`rules_first.analysis_rule`); across files the model judges them
    for i, paragraph in enumerate(TEXT.split("\n\n")):
        bank.ingest_text(paragraph, source=f"history-{i}.txt")
    snap = bank.snapshot()
    assert snap.counts["pending_conflicts"] == 1
    conflict = snap.conflicts[0]
    sides = {conflict.node_a, conflict.node_b}
    neighbours_before = {n for s in sides for n in bank.memory.graph.neighbors(s)} - sides
    assert neighbours_before, "the crew node is related to a side of the conflict"

    result = bank.run("When were ALPHA systems first deployed?")

    snap = bank.snapshot()
    resolved = next(c for c in snap.conflicts if c.id == conflict.id)
    assert resolved.status == "resolved" and resolved.merged_into and "1990" in resolved.resolution
    merged = bank.node(resolved.merged_into)
    assert "1990" in merged.summary and "1995" not in merged.summary
    assert set(merged.merged_from) == sides
    assert neighbours_before <= set(bank.memory.graph.neighbors(merged.id)), "edges are inherited"
    for n in neighbours_before:
        assert bank.node(n).context.startswith("rewritten after merge"), "neighbours are rewritten"
    assert not any(merged.id == n for n in bank.memory.graph.neighbors(merged.id))
    deep = bank.deep_retrieve(merged.id)
    assert len(deep.entries) == 2, "both raw entries stay reachable"
    (rejected,) = [e for e in deep.entries if e.rejected]  # the integration agent named the losing side
    assert "1995" in rejected.entry.text and "[rejected by cross-validation] " + rejected.entry.text in deep.text()
    assert resolved.rejected_node in sides
    searched = LocalSearchTool(bank).call({"query": "ALPHA systems first deployed"})
    found = searched.text
    assert searched.passages and all(p.text in found for p in searched.passages)  # the same hits, typed
    assert "[rejected by cross-validation] ALPHA systems were first deployed FACT:year=1995" in found
    assert "[rejected by cross-validation] ALPHA systems were first deployed FACT:year=1990" not in found

    assert "1990" in result.answer and result.citations
    assert [t.type.value for t in result.insight_doc.completed_tasks] == ["CROSS_VALIDATE", "NORMAL"]
    agents = {r.agent for r in server.chat_requests}
    assert {"classification", "analysis", "integration", "react"} <= agents
    assert "planning" not in agents, "cross-validation, the first answer and the end were the rules' decisions"
    # each cluster is one sentence, its own summary: the structure agent is not asked (a rule's decision, logged)
    assert "structure" not in agents
    assert {e.agent for e in bank.events.log() if e.kind == "rule_decided"} >= {"structure"}
    for r in server.chat_requests:
        if r.agent in DEFAULT_SAMPLING:
            assert (r.temperature, r.top_p) == (DEFAULT_SAMPLING[r.agent].temperature,
                                                DEFAULT_SAMPLING[r.agent].top_p)
    usage = bank.usage()
    assert usage["calls"] == len(server.chat_requests) and usage["prompt_tokens"] > 0
    assert "sk-test-secret" not in str(bank.export())


def _failing(agent: str, reply: Reply, inner: ScriptedLLM):
    def handler(request: RecordedRequest) -> Reply:
        return reply if request.agent == agent else inner(request)

    return handler


# each paragraph longer than a sentence or two, so the structure agent is asked to summarise it
LONG = "\n\n".join(
    f"{paragraph} {filler}" for paragraph, filler in zip(TEXT.split("\n\n"), (
        "the record lists every site where the first units were put to work and how long each one ran before "
        "it was replaced by a newer model with a larger memory and a faster processor",
        "the training covered repairs of the cooling units and the replacement of worn cables and fans as well "
        "as the safe handling of the spare parts kept in the regional depots",
        "the survey was carried out by interviewing the staff who had worked with the machines in their first "
        "years and by reading the letters and reports they had kept",
        "it defines how letters and parcels are sorted by region and district and how a new code is given to a "
        "street when a town grows beyond its old limits and needs more of them")))


def test_garbage_from_one_agent_falls_back_to_offline_for_that_input_only(tmp_path) -> None:
    inner = ScriptedLLM(per_cluster=1)
    with FakeOpenAI(handler=_failing("structure", Reply(text="I cannot do that."), inner)) as fake:
        bank = make_bank(fake, tmp_path, structured_retries=1)
        result = bank.run("When were ALPHA systems first deployed?", text=LONG)
        structure_calls = sum(r.agent == "structure" for r in fake.chat_requests)
    nodes = bank.snapshot().nodes
    assert len(result.new_node_ids) >= 4 and nodes, "no cluster was dropped: offline summaries stand in"
    fell = [e for e in bank.events.log() if e.kind == "agent_fell_back"]
    assert len(fell) == 4 and {e.agent for e in fell} == {"structure"}
    assert structure_calls == 2, "the four clusters were asked in one call and re-asked once before falling back"
    # a batched call's items fall back one by one: four distinct errors, each naming its item (kept once each)
    fallbacks = [e for e in result.errors if e.where == "structure agent" and "offline agent did this one" in e.message]
    assert len(fallbacks) == len(set(fallbacks)) == 4
    assert all(f"item c{i}:" in e.message for i, e in enumerate(fallbacks, start=1))
    assert result.answer and result.termination == "done"


def test_dropped_connection_mid_run_keeps_memory(tmp_path) -> None:
    inner = ScriptedLLM(per_cluster=1)
    state = {"broken": False}

    def handler(request: RecordedRequest) -> Reply:
        if state["broken"] and request.agent in ("react", "integration"):
            return dropped()
        return inner(request)

    with FakeOpenAI(handler=handler) as fake:
        # below the breaker's limit: sub-tasks fail one by one and the run goes on (test_llm_faults covers the stop)
        bank = make_bank(fake, tmp_path, llm_max_consecutive_failures=10)
        bank.ingest_text(TEXT, source="history.txt")
        before = bank.snapshot()
        state["broken"] = True
        result = bank.run("When were ALPHA systems first deployed?")
        after = bank.snapshot()
    assert after.counts["nodes"] == before.counts["nodes"]
    assert {n.id for n in after.nodes} == {n.id for n in before.nodes}
    failed = [t for t in result.insight_doc.completed_tasks if t.status.value == "failed"]
    assert failed and result.errors
    assert result.termination in ("done", "max_rounds")


def test_proxy_error_page_gets_a_clear_message_and_keeps_memory(tmp_path) -> None:
    inner = ScriptedLLM(per_cluster=1)
    state = {"proxy_broken": False}

    def handler(request: RecordedRequest) -> Reply:
        return garbage() if state["proxy_broken"] else inner(request)

    with FakeOpenAI(handler=handler) as fake:
        bank = make_bank(fake, tmp_path)
        ids = bank.ingest_text(TEXT, source="history.txt")
        state["proxy_broken"] = True
        # the first failed call degrades (that agent's input goes to the offline agent); the endpoint failing
        # again in a row is judged down and stops the ingestion with one clear message, keeping the memory
        with pytest.raises(EndpointDown, match="non-completion body.*OpenAI-compatible"):
            bank.ingest_text("GAMMA notes that arrive through the offline agents.", source="more.txt")
    assert {n.id for n in bank.snapshot().nodes} >= set(ids) - set(bank.memory.merged_into)
    fell = [e for e in bank.events.log() if e.kind == "agent_fell_back"]
    assert fell[0].agent == "classification" and "more.txt" in fell[0].where
    assert re.search("non-completion body.*OpenAI-compatible", fell[0].message)


def test_visited_page_becomes_memory_with_its_url(tmp_path) -> None:
    """A NORMAL task's tool output (a visited page) goes through classification -> ... -> linking."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    page = (b"<html><head><title>Deployment history</title></head><body><nav>menu</nav>"
            b"<p>The ALPHA rollout reached the DELTA region in 1990.</p><p>cookie banner</p></body></html>")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    web = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{web.server_address[1]}/history"
    try:
        with FakeOpenAI(handler=ScriptedLLM(per_cluster=1, visit_url=url)) as fake:
            bank = make_bank(fake, tmp_path, visit_allow_private=True)
            result = bank.run("Where did the ALPHA rollout go?")
    finally:
        web.shutdown()
    web_nodes = [n for n in bank.snapshot().nodes if any(url in s for s in n.source_labels)]
    assert web_nodes, "the visited page is in memory, named by its URL"
    text = "\n".join(bank.deep_retrieve(n.id).text() for n in web_nodes)
    assert "DELTA region in 1990" in text and "cookie banner" not in text
    assert any(t.type.value == "NORMAL" and t.status.value == "success"
               for t in result.insight_doc.completed_tasks)


def test_react_tool_calls_are_reported_as_they_happen_and_once(server: FakeOpenAI, tmp_path) -> None:
    from memory_bank.events import LLMUsage, ToolCalled

    bank = make_bank(server, tmp_path)
    bank.ingest_text(TEXT, source="history.txt")
    seen: list[object] = []
    bank.subscribe(seen.append)
    bank.run("When were ALPHA systems first deployed?")
    order = [("tool", e.tool) if isinstance(e, ToolCalled) else ("react",) for e in seen
             if isinstance(e, ToolCalled) or (isinstance(e, LLMUsage) and e.agent == "react")]
    tools = [o for o in order if o[0] == "tool"]
    react_calls = [r for r in server.chat_requests if r.agent == "react"]
    assert tools and len(order) - len(tools) == len(react_calls)
    second_react = [i for i, o in enumerate(order) if o == ("react",)][1]
    assert order.index(tools[0]) < second_react, "the first tool call was not reported before the model's next turn"
    assert tools == [("tool", "search"), ("tool", "deep_retrieval")], "each call is reported once"
