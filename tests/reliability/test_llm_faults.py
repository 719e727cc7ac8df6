"""Fault corpus for the LLM endpoint: a scripted OpenAI-compatible server on 127.0.0.1 that fails in many ways.

A bank first builds its memory against a healthy scripted model; then the server turns hostile and a run (or an
ingestion) meets the fault. Every case asserts the same things: a clear `MemoryBankError` or a recorded error,
no hang (the work runs in a thread joined with a guard far above its deadline), memory and export intact, the
API key in no output (export, events, run result, captured logs), and a bounded number of requests, counted
on the server.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.errors import EndpointDown
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.run.results import RunResult
from tests.support.fake_openai import (
    FakeOpenAI,
    RecordedRequest,
    Reply,
    drip,
    dropped,
    error,
    garbage,
    ok,
    slow,
)
from tests.support.guard import outcome_within
from tests.support.scripted_llm import ScriptedLLM

SECRET = "sk-fault-corpus-5ecret-key-000111"
TEXT = ("ALPHA reactors were first deployed in FACT:year=1990 at the northern site.\n\n"
        "The BRAVO pump moves cooling water through the ALPHA core every hour.\n\n"
        "Operators of BRAVO check pressure gauges at each shift change.")
QUESTION = "When were ALPHA reactors first deployed?"
GUARD = 30.0  # seconds: far above any deadline here; reaching it means a hang
RETRIES = 1  # each call makes at most 2 attempts
FAILURES = 2  # the breaker's limit: the run stops after 2 failed calls in a row


@dataclass
class Hostile:
    """The scripted server's handler: the healthy model until `fault` is set, then the fault for every call."""

    model: ScriptedLLM = field(default_factory=lambda: ScriptedLLM(per_cluster=1))
    fault: Callable[[RecordedRequest], Reply] | None = None
    seen: list[str] = field(default_factory=list)  # agents of the requests met by the fault
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: RecordedRequest) -> Reply:
        if self.fault is None:
            return self.model(request)
        with self.lock:
            self.seen.append(request.agent or "")
        return self.fault(request)


@dataclass
class Case:
    fake: FakeOpenAI
    hostile: Hostile
    bank: MemoryBank
    nodes_before: set[str]

    def turn(self, fault: Callable[[RecordedRequest], Reply]) -> None:
        self.hostile.fault = fault

    @property
    def faulted_requests(self) -> int:
        return len(self.hostile.seen)


def build(fake: FakeOpenAI, hostile: Hostile, tmp_path: Any, **overrides: Any) -> Case:
    settings = fake.settings(**{"llm_api_key": SECRET, "llm_max_retries": RETRIES, "llm_timeout": 2.0,
                                "llm_max_consecutive_failures": FAILURES, "llm_concurrency": 2, **overrides})
    bank = MemoryBank(settings, embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_text(TEXT, source="reactors.txt")
    nodes = {n.id for n in bank.snapshot().nodes}
    assert nodes, "the healthy model built no memory"
    return Case(fake, hostile, bank, nodes)


@contextmanager
def hostile_bank(tmp_path: Any, **overrides: Any) -> Iterator[Case]:
    hostile = Hostile()
    with FakeOpenAI(handler=hostile) as fake:
        yield build(fake, hostile, tmp_path, **overrides)


@pytest.fixture()
def case(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Iterator[Case]:
    caplog.set_level(logging.DEBUG)  # the SDK and httpx log requests at debug level: the key must not be there
    with hostile_bank(tmp_path) as made:
        yield made


def guarded(work: Callable[[], Any]) -> Any:
    return outcome_within(work, GUARD)


def assert_intact(case: Case, caplog: pytest.LogCaptureFixture, *extra: Any) -> None:
    """Memory kept, export whole and valid JSON, the key nowhere."""
    snapshot = case.bank.snapshot()
    assert case.nodes_before <= {n.id for n in snapshot.nodes} | merged_away(case)
    exported = json.dumps(case.bank.export(), allow_nan=False)
    for node_id in {n.id for n in snapshot.nodes}:
        assert node_id in exported
    events = json.dumps([e.to_dict() for e in case.bank.events.log()], default=str)
    outputs = [exported, events, caplog.text, *(_text(x) for x in extra)]
    for output in outputs:
        assert SECRET not in output


def merged_away(case: Case) -> set[str]:
    """Nodes legitimately replaced by a merge (their entries live on in the merged node)."""
    return {old for event in case.bank.memory.tree.merge_events for old in event.merged_node_ids}


def _text(value: Any) -> str:
    if isinstance(value, RunResult):
        return value.model_dump_json()
    return f"{type(value).__name__}: {value}"


def run(case: Case) -> RunResult:
    result = guarded(lambda: case.bank.run(QUESTION))
    assert isinstance(result, RunResult), f"the run raised instead of recording: {result!r}"
    return result


def assert_stopped(result: RunResult, *words: str) -> None:
    """The run stopped on the endpoint, with ONE message that says so."""
    assert result.termination == "endpoint_down"
    assert "LLM endpoint is not usable" in result.stop_reason
    for word in words:
        assert word in result.stop_reason
    assert sum("LLM endpoint is not usable" in str(e) for e in result.errors) == 1


# --- faults that stop the run ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403, 404])
def test_a_rejected_request_is_not_retried_and_stops_the_run(case: Case, caplog: pytest.LogCaptureFixture,
                                                             status: int) -> None:
    case.turn(lambda r: error(status, f"bad key {SECRET}"))  # the server even echoes the key
    result = run(case)
    assert_stopped(result, f"HTTP {status}", "refused")
    assert case.faulted_requests == 1
    assert_intact(case, caplog, result)


def test_rate_limited_with_retry_after_is_retried_then_stops(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    case.turn(lambda r: error(429, "slow down", retry_after="0.01"))
    result = run(case)
    assert_stopped(result, "HTTP 429", "2 calls in a row")
    assert case.faulted_requests <= FAILURES * (RETRIES + 1) + 2  # + the calls in flight beside them
    assert_intact(case, caplog, result)


def test_a_rate_limit_that_clears_lets_the_run_finish(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    limited = iter([error(429, "slow down", retry_after="0.01")])
    case.turn(lambda r: next(limited, None) or case.hostile.model(r))
    result = run(case)
    assert result.termination != "endpoint_down" and not result.stop_reason
    assert_intact(case, caplog, result)


def test_server_errors_stop_the_run_after_the_failure_limit(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    case.turn(lambda r: error(500, "internal error"))
    result = run(case)
    assert_stopped(result, "HTTP 500")
    assert case.faulted_requests <= FAILURES * (RETRIES + 1) + 2
    assert_intact(case, caplog, result)


def test_a_connection_dropped_mid_body_stops_the_run(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    case.turn(lambda r: dropped('{"summary": "never arrives whole"}'))
    result = run(case)
    assert_stopped(result, "could not connect")
    assert case.faulted_requests <= FAILURES * (RETRIES + 1) + 2
    assert_intact(case, caplog, result)


def test_a_garbage_body_is_named_and_stops_the_run(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    case.turn(lambda r: garbage())
    result = run(case)
    assert_stopped(result, "non-completion body", "OpenAI-compatible")
    assert case.faulted_requests <= FAILURES + 2  # not retried: the same proxy answers the same page
    assert_intact(case, caplog, result)


def test_a_truncated_json_body_stops_the_run(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    body = b'{"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assis'
    case.turn(lambda r: Reply(body=body))
    result = run(case)
    assert_stopped(result)
    assert case.faulted_requests <= FAILURES * (RETRIES + 1) + 2
    assert_intact(case, caplog, result)


def test_the_endpoint_going_down_mid_run_stops_it(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    answered = []

    def fault(request: RecordedRequest) -> Reply:
        answered.append(request.agent)
        if len(answered) <= 1:  # the run is under way: its first ReAct step answered (no planning call comes first)
            return case.hostile.model(request)
        threading.Thread(target=case.fake.stop, daemon=True).start()  # the process dies: connections refused
        return dropped()

    case.turn(fault)
    result = run(case)
    assert_stopped(result)
    assert case.faulted_requests <= 3 + 1
    assert_intact(case, caplog, result)


def test_a_drip_fed_body_cannot_hold_a_call_past_its_deadline(tmp_path: Any,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    with hostile_bank(tmp_path, llm_timeout=0.5) as case:
        case.turn(lambda r: drip(0.05, "x" * 2000))  # ~100 s of body, one byte every 50 ms; the deadline: 0.5 s
        result = run(case)
        assert_stopped(result, "timed out (0.5 s)")
        assert case.faulted_requests <= FAILURES * (RETRIES + 1) + 2
        assert_intact(case, caplog, result)


def test_a_server_that_never_answers_meets_the_deadline(tmp_path: Any,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    with hostile_bank(tmp_path, llm_timeout=0.5) as case:
        case.turn(lambda r: slow(60))
        result = run(case)
        assert_stopped(result, "timed out")
        assert_intact(case, caplog, result)


def test_ingestion_against_a_dead_endpoint_raises_one_clear_error(case: Case,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    case.turn(lambda r: error(401, "invalid api key"))
    raised = guarded(lambda: case.bank.ingest_text("More about BRAVO pumps and their FACT:flow=300 litres.", "more"))
    assert isinstance(raised, EndpointDown) and "HTTP 401" in str(raised)
    assert case.faulted_requests == 1
    assert_intact(case, caplog, raised)


# --- faults that fail one sub-task, or none -------------------------------------------------------------------


def test_invalid_json_from_the_model_fails_sub_tasks_not_the_run(case: Case,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    # the answering step finds nothing, so what to do next is a real choice: the planning agent is asked
    case.turn(lambda r: ok("Sure! Here is what I think, in prose, no JSON at all.")
              if r.agent != "react" else ok(f"<answer>{NOT_FOUND}</answer>"))
    result = run(case)
    assert result.termination != "endpoint_down"  # the endpoint works; the model's output is what fails
    assert any("invalid output" in str(e) for e in result.errors)
    structured = [a for a in case.hostile.seen if a != "react"]
    calls = len(structured) / (case.bank.settings.structured_retries + 1)
    assert calls <= case.bank.settings.max_rounds * 4  # re-asked a bounded number of times per call
    assert_intact(case, caplog, result)


def test_cancel_interrupts_a_call_in_flight(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    arrived = threading.Event()

    def fault(request: RecordedRequest) -> Reply:
        arrived.set()
        return slow(60)  # the model "thinks" for a minute, within its deadline: only an interrupt ends it

    with hostile_bank(tmp_path, llm_timeout=120.0) as case:
        case.turn(fault)
        _cancel_mid_call(case, arrived, caplog)


def _cancel_mid_call(case: Case, arrived: threading.Event, caplog: pytest.LogCaptureFixture) -> None:
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(case.bank.run(QUESTION)), daemon=True)
    worker.start()
    assert arrived.wait(GUARD)
    case.bank.cancel()
    worker.join(GUARD)
    assert not worker.is_alive()
    result = outcome[0]
    assert result.termination == "cancelled"
    assert case.faulted_requests == 1  # cancelled, not retried
    assert_intact(case, caplog, result)


def test_a_key_echoed_in_completions_is_redacted_everywhere(case: Case, caplog: pytest.LogCaptureFixture) -> None:
    def echo(request: RecordedRequest) -> Reply:
        reply = case.hostile.model(request)
        # the key lands in a topic, so in a node's context, in memory and the export (these one-sentence clusters
        # are their own summaries: the structure agent is not asked)
        if request.agent == "classification":
            data = json.loads(reply.text)
            for topic in data["topics"]:
                topic["context"] = f"{topic['context']} (debug: key={SECRET})"
            return ok(json.dumps(data))
        if request.agent == "react":
            return ok(f"<answer>Deployed in 1990. Your key is {SECRET}.</answer>")
        return reply

    case.turn(echo)
    result = run(case)
    case.bank.ingest_text("Later notes on BRAVO pumps FACT:flow=300 for the ALPHA core.", "notes")
    assert "***" in result.answer
    assert any("***" in n.context for n in case.bank.snapshot().nodes)
    assert_intact(case, caplog, result)


def test_a_transient_server_error_is_retried_and_the_run_finishes(case: Case,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    failures = iter([error(503, "warming up")])
    case.turn(lambda r: next(failures, None) or case.hostile.model(r))
    result = run(case)
    assert result.termination != "endpoint_down"
    assert result.answer and "No answer" not in result.answer
    assert_intact(case, caplog, result)
