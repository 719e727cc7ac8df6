"""The LLM seam's transport rules, one by one: the deadline of an attempt, cancel in flight, the breaker's scope,
redaction of every configured secret."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from memory_bank.control import Cancellation, CancelToken
from memory_bank.engines.llm.breaker import EndpointBreaker
from memory_bank.engines.llm.client import Completion, MeteredClient, UsageMeter
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import EndpointDown, LLMRejected, LLMUnavailable, RunCancelled
from memory_bank.events import EventBus
from memory_bank.settings import Settings
from tests.support.fake_openai import FakeOpenAI, drip, error, ok, slow
from tests.support.guard import outcome_within

USER = [{"role": "user", "content": "hello"}]


def call_in_thread(work: Any) -> Any:
    return outcome_within(work, 30.0)


def test_a_dripping_answer_is_cut_at_the_deadline_of_the_attempt() -> None:
    with FakeOpenAI(drip(0.05, "y" * 1000)) as fake:
        client = OpenAIClient(fake.settings(llm_timeout=0.5, llm_max_retries=0))
        raised = call_in_thread(lambda: client.complete(USER, agent="structure", temperature=0.1, top_p=0.8))
        assert isinstance(raised, LLMUnavailable) and "timed out (0.5 s)" in str(raised)
        assert len(fake.chat_requests) == 1


def test_cancel_interrupts_the_request_in_flight_and_is_not_retried() -> None:
    token = CancelToken()
    with FakeOpenAI(slow(60)) as fake:
        client = OpenAIClient(fake.settings(llm_timeout=120, llm_max_retries=3), cancel=token)
        threading.Timer(0.3, token.cancel).start()
        raised = call_in_thread(lambda: client.complete(USER, agent="react", temperature=0.1, top_p=0.8))
        assert isinstance(raised, RunCancelled)
        assert len(fake.chat_requests) == 1


def test_a_rejected_key_is_not_retried() -> None:
    with FakeOpenAI(error(401, "invalid key"), ok("never asked")) as fake:
        client = OpenAIClient(fake.settings(llm_max_retries=3))
        with pytest.raises(LLMRejected, match="HTTP 401 after 1 attempt"):
            client.complete(USER, agent="planning", temperature=0.1, top_p=0.8)
        assert len(fake.chat_requests) == 1


class Failing:
    """An inner client that fails every call the way a dead endpoint does, and counts the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages: list, **kwargs: Any) -> Completion:
        self.calls += 1
        raise LLMUnavailable("could not connect")


def test_the_breaker_stops_a_piece_of_work_and_the_next_one_starts_closed() -> None:
    inner, cancellation = Failing(), Cancellation()
    metered = MeteredClient(inner, UsageMeter(100, 1_000_000), EventBus(), cancellation,
                            breaker=EndpointBreaker(2))
    ask = lambda: metered.complete(USER, agent="analysis", temperature=0.1, top_p=0.8)  # noqa: E731
    with pytest.raises(LLMUnavailable):
        ask()
    with pytest.raises(EndpointDown, match="2 calls in a row failed"):
        ask()
    with pytest.raises(EndpointDown):
        ask()  # open: no call is made
    assert inner.calls == 2
    cancellation.begin()  # the next run or ingestion
    with pytest.raises(LLMUnavailable):
        ask()
    assert inner.calls == 3


class Echo:
    def complete(self, messages: list, **kwargs: Any) -> Completion:
        return Completion("keys: sk-llm-123456 and serper-abcdef, jina-zzzzzz", 1, 1, model="m-sk-llm-123456")


def test_every_configured_secret_is_redacted_from_completions() -> None:
    settings = Settings(llm_api_key="sk-llm-123456", serper_api_key="serper-abcdef", jina_api_key="jina-zzzzzz")
    metered = MeteredClient(Echo(), UsageMeter(10, 10_000), EventBus(), CancelToken(),
                            secrets=settings.secret_values())
    completion = metered.complete(USER, agent="react", temperature=0.1, top_p=0.8)
    assert completion.text == "keys: *** and ***, ***" and completion.model == "m-***"


def test_on_cancel_runs_at_once_when_already_cancelled_and_can_be_removed() -> None:
    token, heard = CancelToken(), []
    remove = token.on_cancel(lambda: heard.append("first"))
    remove()
    token.cancel()
    token.on_cancel(lambda: heard.append("late"))
    assert heard == ["late"]
