"""A run the user can follow (issue 29 item 4): the call in flight with its agent, item and growing reply, the
measured speeds once calls end, and the time left from the calls still planned. Through a real HTTP server on
127.0.0.1 that streams its reply in chunks and holds the stream between them, so the test looks at a call while
it is in flight without any timing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from memory_bank import MemoryBank
from memory_bank.control import CancelToken
from memory_bank.engines.llm.client import MeteredClient, ResponseSchema, UsageMeter
from memory_bank.engines.llm.live import LiveCalls, PlanRules, planned_calls, time_left
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import LLMError
from memory_bank.events import ErrorRaised, EventBus, Progress, TaskCompleted, TaskPlanned
from memory_bank.memory.snapshot import LiveCall
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.settings import Settings
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply, error
from tests.support.scripted_llm import ScriptedLLM

T = TypeVar("T")
REPLY = '{"summary": "the budget is five million euros"}'
SCHEMA = ResponseSchema("summary", {"type": "object", "properties": {"summary": {"type": "string"}}})
USER = [{"role": "user", "content": "Summarise: the budget is 5 million euros, approved by the board."}]


def waited_for(find: Callable[[], T | None], what: str) -> T:
    """What `find` returns once it returns something: the server and the client run on their own threads."""
    for _ in range(400):
        found = find()
        if found:
            return found
        time.sleep(0.025)
    raise AssertionError(f"never saw {what}")


def metered(fake: FakeOpenAI, **overrides: object) -> MeteredClient:
    return MeteredClient(OpenAIClient(fake.settings(**overrides)), UsageMeter(10, 100_000), EventBus(), CancelToken())


def call_in_thread(client: MeteredClient, item: str, agent: str = "structure") -> threading.Thread:
    def call() -> None:
        with client.meter.live.working_on(item):
            client.complete(USER, agent=agent, temperature=0.1, top_p=0.9, json_mode=True, schema=SCHEMA)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    return thread


def test_a_streamed_call_shows_its_agent_item_and_growing_tokens_then_the_speed_the_server_measured(
        fake: FakeOpenAI) -> None:
    steps, held = threading.Semaphore(0), threading.Event()

    def pause(_chunk: int) -> None:
        held.set()
        steps.acquire(timeout=20)

    fake.push(Reply(text=REPLY, piece=5, pause=pause, usage=(120, 9),
                    timings={"prompt_per_second": 61.5, "predicted_per_second": 11.8}))
    client = metered(fake, llm_provider="local")
    thread = call_in_thread(client, "node 'Budget'")
    counts: list[int] = []
    for want in (1, 2, 3):  # the server sends one more chunk each time the test lets it
        (call,) = waited_for(lambda w=want: [c for c in client.meter.live.view().calls if c.tokens_so_far >= w],
                             f"{want} tokens of the call in flight")
        assert isinstance(call, LiveCall) and (call.agent, call.item) == ("structure", "node 'Budget'")
        assert call.prompt_tokens > 0 and call.elapsed_s >= 0
        counts.append(call.tokens_so_far)
        steps.release()
    assert counts == [1, 2, 3] and held.is_set()
    steps.release(100)
    thread.join(20)
    assert not thread.is_alive()
    live = client.meter.live.view()
    assert live.calls == ()
    (speed,) = live.speeds
    assert (speed.agent, speed.calls, speed.prompt_per_s, speed.gen_per_s) == ("structure", 1, 61.5, 11.8)
    (request,) = fake.chat_requests  # the local model streams a structured call, its schema kept
    assert request.body["stream"] is True and request.schema is not None


def test_without_the_servers_timings_the_speeds_are_computed_from_the_call(fake: FakeOpenAI) -> None:
    fake.push(Reply(text=REPLY, piece=5, usage=(120, 9)))
    client = metered(fake, llm_provider="local")
    call_in_thread(client, "cluster 'Budget'").join(20)
    (speed,) = client.meter.live.view().speeds
    assert speed.calls == 1 and speed.seconds_per_call > 0
    assert speed.gen_per_s is not None and speed.gen_per_s > 0
    assert speed.prompt_per_s is not None and speed.prompt_per_s > 0  # prompt tokens up to the first reply token


def test_a_remote_endpoints_structured_call_is_not_streamed_but_still_measured(fake: FakeOpenAI) -> None:
    fake.push(Reply(text=REPLY, usage=(120, 9)))
    client = metered(fake)
    call_in_thread(client, "cluster 'Budget'").join(20)
    (request,) = fake.chat_requests
    assert "stream" not in request.body
    (speed,) = client.meter.live.view().speeds
    assert speed.gen_per_s is not None and speed.gen_per_s > 0 and speed.prompt_per_s is None


def test_a_failed_call_leaves_nothing_in_flight_and_no_speed(fake: FakeOpenAI) -> None:
    fake.push(error(400, "bad request"), error(400, "bad request"), error(400, "bad request"))
    client = metered(fake, llm_provider="local")
    with pytest.raises(LLMError):
        client.complete(USER, agent="planning", temperature=0.1, top_p=0.9)
    live = client.meter.live.view()
    assert live.calls == () and live.speeds == () and live.time_left is None


def test_time_left_is_the_planned_calls_at_each_agents_measured_seconds() -> None:
    assert time_left({"classification": 4}, {}) is None, "nothing measured: no estimate"
    left = time_left({"classification": 4, "analysis": 2, "react": 1}, {"classification": 10.0, "analysis": 20.0},
                     in_flight=[("analysis", 5.0), ("classification", 30.0)])
    # react is not measured yet: the mean of the measured agents (15 s); the call in flight has 20 - 5 s left,
    # the one past its agent's mean none
    assert left is not None and left.calls == 7
    assert left.seconds == pytest.approx(4 * 10 + 2 * 20 + 15 + 15)
    assert left.seconds_per_call == pytest.approx(95 / 7)
    nothing = time_left({}, {"react": 12.0}, in_flight=[("react", 2.0)])
    assert nothing is not None and (nothing.calls, nothing.seconds) == (0, 10.0)


def test_the_planned_calls_come_from_the_stages_left_the_conflicts_and_the_answer() -> None:
    rules = PlanRules({"classify": ("classification", 1), "link": ("analysis", 4)}, "react", validates=True)
    remaining = {("a.md", "classify"): 3, ("b.md", "classify"): 2, ("a.md", "link"): 5, ("a.md", "structure"): 9}
    assert planned_calls(rules, remaining, pending_conflicts=2, answered=False) == {
        "classification": 5, "analysis": 2, "react": 3}  # structure runs offline here: no calls of it
    assert planned_calls(rules, {}, pending_conflicts=2, answered=True) == {"react": 2}
    one_call = PlanRules({}, "answer", validates=False)  # the one-call answerer validates offline
    assert planned_calls(one_call, {}, pending_conflicts=2, answered=False) == {"answer": 1}


def test_the_rules_follow_the_settings() -> None:
    everything = PlanRules.of(Settings(engine="llm", llm_model="m", llm_batch_items=6, answer_mode="react"))
    assert everything.stages == {"classify": ("classification", 1), "structure": ("structure", 6),
                                 "link": ("analysis", 6)}
    assert (everything.executor, everything.validates) == ("react", True)
    answers = PlanRules.of(Settings(engine="offline", agent_engines={"react": "llm"}, llm_model="m",
                                    answer_mode="one_call"))
    assert (answers.stages, answers.executor, answers.validates) == ({}, "answer", False)
    assert PlanRules.of(Settings(engine="offline")) == PlanRules()


def test_the_work_left_is_heard_from_the_runs_events() -> None:
    live = LiveCalls(PlanRules({"classify": ("classification", 1)}, "react", validates=True))
    assert live.view().planned == {}, "no run going on"
    live.begin_run(documents=3)
    assert live.view().planned == {"classification": 3, "react": 1}, "a document not begun: one chunk, at least"
    live.hear(Progress(stage="classify", done=1, total=4, message="notes.md"))
    assert live.view(pending_conflicts=1).planned == {"classification": 2 + 3, "react": 2}
    live.hear(ErrorRaised(where="ingest broken.pdf", message="not a PDF"))  # the second input failed to load
    live.hear(Progress(stage="classify", done=4, total=4, message="notes.md"))
    assert live.view().planned == {"classification": 1, "react": 1}
    live.hear(TaskPlanned(task_type="NORMAL", description="answer"))  # the loop began: every input was read
    assert live.view().planned == {"react": 1}
    live.hear(TaskCompleted(task_type="NORMAL", description="answer", status="success"))
    assert live.view(pending_conflicts=0).planned == {}


def test_a_whole_run_shows_each_call_in_flight_with_what_it_is_for(tmp_path: Path) -> None:
    seen: list[tuple[str, ...]] = []
    holder: dict[str, MemoryBank] = {}
    scripted = ScriptedLLM(per_cluster=1)

    def handler(request: RecordedRequest) -> Reply | str:
        bank = holder.get("bank")
        if bank is not None:  # the call is in flight while the server answers it
            seen.extend((c.agent, c.item) for c in bank.snapshot().live.calls)
        return scripted(request)

    with FakeOpenAI(handler=handler) as fake:
        settings = fake.settings(llm_concurrency=1, analysis_min_similarity=0.0, answer_mode="react")
        bank = holder["bank"] = MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")
        # a cluster of more than `tiny_words` (40) words, so the structure agent is asked (a shorter one is its
        # own summary, with no call)
        alpha = ("The ALPHA budget is FACT:budget=5 million. The ALPHA programme covers the northern depots and "
                 "their delivery vans for the whole of the coming fiscal year. The steering board reviews the "
                 "ALPHA spending every quarter and reports its findings to the regional directors in writing.")
        bank.run("What is the ALPHA budget?", text=f"{alpha}\n\nThe BETA protocol is about postal codes.")
    agents = {agent for agent, _ in seen}
    assert {"classification", "structure", "react"} <= agents, seen
    assert ("classification", "pasted text") in seen, seen  # the document the chunk is from
    assert ("react", "the answer") in seen, seen
    assert any(agent == "structure" and item.startswith("cluster '") for agent, item in seen), seen
    after = bank.snapshot().live
    assert after.calls == () and after.planned == {}, "the run is over"
    assert {"classification", "structure", "react"} <= {s.agent for s in after.speeds}
