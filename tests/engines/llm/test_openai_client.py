"""OpenAIClient through the real `openai` SDK against the scripted server: retries, faults, JSON mode, usage."""

from __future__ import annotations

import email.utils
import json
import threading
import time

import pytest

from memory_bank.control import CancelToken
from memory_bank.engines.llm.client import MeteredClient, ResponseSchema, UsageMeter
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.retry_after import parse_retry_after
from memory_bank.errors import BudgetExceeded, ConfigError, LLMError, RunCancelled
from memory_bank.events import EventBus, LLMUsage
from memory_bank.limits import MAX_RETRY_WAIT
from memory_bank.settings import Settings
from memory_bank.wiring import metered
from tests.support.fake_openai import FakeOpenAI, dropped, error, garbage, ok, slow

USER = [{"role": "user", "content": "hello"}]


def ask(client: OpenAIClient, agent: str = "structure", **kw: object) -> str:
    return client.complete(USER, agent=agent, temperature=0.3, top_p=0.7, **kw).text


def recording_client(fake: FakeOpenAI, **overrides: object) -> tuple[OpenAIClient, list[float]]:
    sleeps: list[float] = []
    return OpenAIClient(fake.settings(**overrides), sleep=sleeps.append), sleeps


def test_sampling_model_and_agent_reach_the_server(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("hi"))
    assert ask(client, agent="planning") == "hi"
    (req,) = fake.chat_requests
    assert (req.temperature, req.top_p, req.model, req.agent) == (0.3, 0.7, "fake-model", "planning")
    assert req.messages == USER
    assert req.response_format is None
    assert req.headers["authorization"] == "Bearer sk-test-secret"


def test_500_then_ok_retries_with_exponential_backoff(fake: FakeOpenAI) -> None:
    client, sleeps = recording_client(fake, llm_max_retries=3, llm_backoff_base=0.5, llm_backoff_max=10)
    fake.push(error(500), error(503), ok("recovered"))
    assert ask(client) == "recovered"
    assert len(fake.chat_requests) == 3
    assert 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0  # doubling, with jitter down to half


def test_backoff_is_capped(fake: FakeOpenAI) -> None:
    client, sleeps = recording_client(fake, llm_max_retries=4, llm_backoff_base=1.0, llm_backoff_max=2.5)
    fake.push(error(502), error(502), error(502), error(502), ok("x"))
    assert ask(client) == "x"
    assert len(sleeps) == 4
    assert all(cap / 2 <= s <= cap for s, cap in zip(sleeps, [1.0, 2.0, 2.5, 2.5]))


def test_cancel_cuts_a_long_backoff_short(fake: FakeOpenAI) -> None:
    """The wiring the bank uses: the OpenAI client's backoff sleeps on the metered client's cancel token."""
    cancel = CancelToken()
    client = metered(fake.settings(llm_backoff_base=MAX_RETRY_WAIT, llm_backoff_max=MAX_RETRY_WAIT), None,
                     EventBus(), cancel, UsageMeter(max_calls=100, max_tokens=10_000))
    fake.push(error(503), ok("too late"))
    outcome: list[BaseException] = []

    def call() -> None:
        try:
            client.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    # cancelled once the first request has been answered, not after a fixed delay: on a loaded machine a timer
    # fired before the first request was made, and the call then ended without making it
    deadline = time.monotonic() + 60
    while not fake.chat_requests and time.monotonic() < deadline:
        time.sleep(0.01)
    cancel.cancel()
    worker.join(60)  # a hang guard, not a timing: the backoff is 5 minutes, so returning at all shows the cut
    assert not worker.is_alive(), "cancel did not cut the backoff short"
    assert len(outcome) == 1 and isinstance(outcome[0], RunCancelled)
    assert len(fake.chat_requests) == 1


def test_429_retry_after_is_honoured(fake: FakeOpenAI) -> None:
    """The wait the server asks for is the wait taken (recorded, not timed: a timing flakes on a shared machine)."""
    client, sleeps = recording_client(fake, llm_backoff_base=0.01, llm_backoff_max=5.0)
    fake.push(error(429, "slow down", retry_after="1"), ok("after the wait"))
    assert ask(client) == "after the wait"
    assert sleeps == [1.0] and len(fake.chat_requests) == 2


def test_a_retry_after_longer_than_backoff_max_fails_the_call_at_once(fake: FakeOpenAI) -> None:
    """The server said it will not answer within any wait the client takes: no blind retries, and the error
    says what the server asked for."""
    client, sleeps = recording_client(fake, llm_backoff_max=0.2)
    fake.push(error(429, retry_after="120"), ok("x"))
    with pytest.raises(LLMError, match=r"asks to retry after 120 s, longer than the 0.2 s"):
        ask(client)
    assert sleeps == [] and len(fake.chat_requests) == 1


def test_retry_after_as_http_date(fake: FakeOpenAI) -> None:
    client, sleeps = recording_client(fake, llm_backoff_max=30)
    when = email.utils.formatdate(time.time() + 6, usegmt=True)
    fake.push(error(429, retry_after=when), ok("x"))
    assert ask(client) == "x"
    assert 4.0 <= sleeps[0] <= 6.0


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470.0) == 10.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_timeout_retries_then_raises_llm_error(fake: FakeOpenAI) -> None:
    client = OpenAIClient(fake.settings(llm_timeout=0.3, llm_max_retries=1))
    fake.push(slow(1.5), slow(1.5))
    with pytest.raises(LLMError, match=r"timed out \(0.3 s\) after 2 attempts") as info:
        ask(client)
    assert "fake-model" in str(info.value) and fake.base_url in str(info.value)
    assert len(fake.chat_requests) == 2


def test_timeout_then_success(fake: FakeOpenAI) -> None:
    """The deadline is wide enough for the second reply on a stalled machine (a 0.3 s one was not): only the
    first, held far past it, may time out."""
    client = OpenAIClient(fake.settings(llm_timeout=2.0))
    fake.push(slow(8), ok("in time"))
    assert ask(client) == "in time"


def test_dropped_connection_is_retried(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(dropped(), ok("second try"))
    assert ask(client) == "second try"
    assert len(fake.chat_requests) == 2


def test_connection_refused_becomes_llm_error() -> None:
    with FakeOpenAI() as server:
        settings = server.settings(llm_max_retries=1)
    client = OpenAIClient(settings, sleep=lambda s: None)
    with pytest.raises(LLMError, match="could not connect after 2 attempts"):
        ask(client)


def test_401_fails_at_once_and_never_shows_the_key(fake: FakeOpenAI) -> None:
    client, sleeps = recording_client(fake, llm_max_retries=4)
    fake.push(error(401, "Incorrect API key provided: sk-test-secret"))
    with pytest.raises(LLMError) as info:
        ask(client)
    message = str(info.value)
    assert "HTTP 401" in message and "after 1 attempt" in message and "fake-model" in message
    assert fake.base_url + "/chat/completions" in message
    assert "sk-test-secret" not in message
    assert sleeps == [] and len(fake.chat_requests) == 1


def test_non_completion_body_is_a_clear_error(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(garbage())
    with pytest.raises(LLMError, match="non-completion body.*base URL"):
        ask(client)


def test_json_mode_is_sent_when_the_server_accepts_it(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("{}"), ok("{}"))
    client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    assert [r.response_format for r in fake.chat_requests] == [{"type": "json_object"}] * 2
    assert client.json_mode_supported


def test_json_mode_rejected_falls_back_once_and_is_remembered(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(error(400, "response_format json_object is not supported"), ok('{"a": 1}'), ok('{"b": 2}'))
    first = client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    second = client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    assert (first.text, second.text) == ('{"a": 1}', '{"b": 2}')
    assert [r.response_format for r in fake.chat_requests] == [{"type": "json_object"}, None, None]
    assert not client.json_mode_supported


def test_json_mode_rejected_with_422_also_falls_back(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(error(422, "response_format: unknown field"), ok("{}"))
    client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    assert [r.response_format for r in fake.chat_requests] == [{"type": "json_object"}, None]


def test_a_400_unrelated_to_json_mode_still_fails(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(error(400, "context too long"), error(400, "context too long"))
    with pytest.raises(LLMError, match="HTTP 400.*context too long"):
        client.complete(USER, agent="analysis", temperature=0.4, top_p=0.9, json_mode=True)
    assert len(fake.chat_requests) == 2
    assert client.json_mode_supported


def test_usage_from_the_server_and_estimated_without_it(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("reported", usage=(11, 7)), ok("x" * 40, usage=None))
    reported = client.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    estimated = client.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    assert (reported.prompt_tokens, reported.completion_tokens) == (11, 7)
    assert (estimated.prompt_tokens, estimated.completion_tokens) == (2, 10)  # "hello" -> 2, 40 chars -> 10


def test_metered_client_counts_usage_per_agent_and_publishes_it(fake: FakeOpenAI, client: OpenAIClient) -> None:
    events = EventBus()
    meter = UsageMeter(max_calls=100, max_tokens=10_000)
    metered = MeteredClient(client, meter, events, CancelToken())
    fake.push(ok("a", usage=(10, 2)), ok("b", usage=(20, 3)), ok("c", usage=(5, 1)))
    for agent in ("structure", "structure", "planning"):
        metered.complete(USER, agent=agent, temperature=0.1, top_p=0.8)
    usage = meter.snapshot()
    assert usage["structure"]["calls"] == 2 and usage["structure"]["prompt_tokens"] == 30
    assert usage["structure"]["completion_tokens"] == 5
    assert usage["planning"]["calls"] == 1 and meter.totals().tokens == 41
    assert [e.agent for e in events.log() if isinstance(e, LLMUsage)] == ["structure", "structure", "planning"]


def test_budget_exceeded_stops_before_the_request(fake: FakeOpenAI, client: OpenAIClient) -> None:
    metered = MeteredClient(client, UsageMeter(max_calls=1, max_tokens=10_000), EventBus(), CancelToken())
    fake.push(ok("only one"), ok("never sent"))
    metered.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    with pytest.raises(BudgetExceeded, match="1/1 calls"):
        metered.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    assert len(fake.chat_requests) == 1


def test_cancellation_stops_before_the_request(fake: FakeOpenAI, client: OpenAIClient) -> None:
    cancel = CancelToken()
    metered = MeteredClient(client, UsageMeter(max_calls=10, max_tokens=10_000), EventBus(), cancel)
    cancel.cancel()
    with pytest.raises(RunCancelled):
        metered.complete(USER, agent="structure", temperature=0.1, top_p=0.8)
    assert fake.chat_requests == []


def test_image_messages_go_to_the_vision_model(fake: FakeOpenAI) -> None:
    client = OpenAIClient(fake.settings(llm_vision_model="fake-vision"))
    image = [{"role": "user", "content": [{"type": "text", "text": "what is this"},
                                          {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]
    fake.push(ok("a cat", usage=None), ok("text"))
    completion = client.complete(image, agent="image", temperature=0.2, top_p=0.9)
    ask(client)
    assert [r.model for r in fake.chat_requests] == ["fake-vision", "fake-model"]
    assert fake.chat_requests[0].messages == image
    assert completion.prompt_tokens == 3 + 765  # text estimate + the fixed image cost


def test_check_connection_reports_model_and_host(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok("OK"))
    message = client.check_connection()
    assert "fake-model" in message and client.host in message
    req = fake.chat_requests[0]
    assert (req.temperature, req.top_p) == (0.6, 0.95) and "max_tokens" not in req.body


def test_check_connection_names_the_models_on_404(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.models = ("llama3", "qwen2.5")
    fake.push(error(404, "model 'fake-model' not found"))
    with pytest.raises(LLMError, match="HTTP 404.*llama3, qwen2.5"):
        client.check_connection()


def test_no_base_url_means_openai_itself() -> None:
    client = OpenAIClient(Settings(engine="llm", llm_model="gpt-4o-mini"))
    assert client.endpoint == "https://api.openai.com/v1/chat/completions"


def test_a_model_name_is_required() -> None:
    with pytest.raises(ConfigError):
        OpenAIClient(Settings(engine="llm", llm_base_url="http://127.0.0.1:9/v1"))


def test_a_real_host_is_unreachable_from_tests() -> None:
    """The loopback guard in tests/conftest.py holds for the SDK's HTTP stack too."""
    settings = Settings(engine="llm", llm_base_url="https://api.openai.com/v1", llm_model="gpt-4o-mini",
                        llm_api_key="sk-not-real", llm_max_retries=0, llm_timeout=2)
    with pytest.raises(LLMError, match="could not connect") as info:
        ask(OpenAIClient(settings))
    assert "127.0.0.1" in str(info.value)


def test_the_local_model_is_asked_to_keep_its_prompt_cache_and_a_remote_one_gets_no_unknown_field(
        fake: FakeOpenAI) -> None:
    """llama.cpp keeps a prompt's KV for the next call sharing its prefix (`cache_prompt`); OpenAI rejects a
    request argument it does not know, so only the local server is sent it."""
    fake.push(ok("a"), ok("b"), ok("c"))
    ask(OpenAIClient(fake.settings(llm_provider="local")))
    OpenAIClient(fake.settings(llm_provider="local")).complete(USER, agent="react", temperature=0.3, top_p=0.7,
                                                              on_text=lambda text, at: None)
    ask(OpenAIClient(fake.settings()))
    local, streamed, remote = fake.chat_requests
    assert local.body["cache_prompt"] is True and streamed.body["cache_prompt"] is True
    assert "cache_prompt" not in remote.body


def test_every_react_step_on_the_local_server_goes_to_one_slot(fake: FakeOpenAI) -> None:
    """A ReAct step's stream is closed at its tool call while llama.cpp still writes: the next step must wait
    for that slot, whose cache holds its prompt, not go to another slot that reads it all again."""
    fake.push(ok("a"), ok("b"), ok("c"), ok("d"))
    local = OpenAIClient(fake.settings(llm_provider="local"))
    for _ in range(2):
        local.complete(USER, agent="react", temperature=0.3, top_p=0.7, on_text=lambda text, at: None)
    ask(local)
    OpenAIClient(fake.settings()).complete(USER, agent="react", temperature=0.3, top_p=0.7,
                                           on_text=lambda text, at: None)
    first, second, json_call, remote = fake.chat_requests
    assert first.body["id_slot"] == second.body["id_slot"] == 0 and first.body["cache_prompt"] is True
    assert "id_slot" not in json_call.body and "id_slot" not in remote.body


def test_the_local_server_is_held_to_compact_json_and_a_remote_schema_is_sent_as_given(fake: FakeOpenAI) -> None:
    """llama.cpp is sent the schema as an llguidance grammar whose `x-guidance` forbids whitespace between tokens
    (through `response_format` the 1.5B model indented every key); a remote endpoint gets the agent's schema
    untouched, as `response_format`."""
    schema = ResponseSchema("Reply", {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]})
    fake.push(ok('{"a":1}'), ok('{"a": 1}'))
    for settings in (fake.settings(llm_provider="local"), fake.settings()):
        OpenAIClient(settings).complete(USER, agent="structure", temperature=0.0, top_p=1.0, schema=schema)
    local, remote = fake.chat_requests
    assert local.response_format is None
    head, _, body = local.body["grammar"].partition("\nstart: %json ")
    assert head == "%llguidance {}"
    sent = json.loads(body)
    assert sent.pop("x-guidance") == {"whitespace_flexible": False} and sent == schema.schema
    assert "grammar" not in remote.body and remote.response_format["json_schema"]["schema"] == schema.schema


def test_a_local_server_without_llguidance_gets_the_schema_as_response_format(fake: FakeOpenAI) -> None:
    schema = ResponseSchema("Reply", {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]})
    fake.push(error(400, "failed to parse grammar"), ok('{"a": 1}'), ok('{"a": 2}'))
    client = OpenAIClient(fake.settings(llm_provider="local"))
    for _ in range(2):
        client.complete(USER, agent="structure", temperature=0.0, top_p=1.0, schema=schema)
    refused, first, second = fake.chat_requests
    assert "grammar" in refused.body and refused.response_format is None
    for request in (first, second):  # remembered: no grammar again
        assert "grammar" not in request.body and request.response_format["json_schema"]["schema"] == schema.schema
