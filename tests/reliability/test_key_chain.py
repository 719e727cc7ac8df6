"""A key echoed back by a server reaches no error a user or a log could see (issue 23, part 5).

Real HTTP servers on 127.0.0.1 echo the request's key in their error bodies (as some proxies and misconfigured
gateways do). The message was redacted before; the SDK's exception, chained to ours, still held the raw body, so
any rendered traceback (a log's `exception()`, a crash report) printed the key. Each case checks the error's str
and repr, its attributes, the whole `traceback.format_exception` output and every exception chained to it.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterator

import pytest

from memory_bank.control import CancelToken
from memory_bank.engines.llm.breaker import EndpointBreaker
from memory_bank.engines.llm.client import MeteredClient, ResponseSchema, UsageMeter
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.errors import EndpointDown, LLMError, LLMRejected, LLMUnavailable, ToolError
from memory_bank.events import EventBus
from memory_bank.tools.visit import VisitTool
from memory_bank.tools.web_search import SerperSearch
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply
from tests.tools.local_server import LocalServer, Request
from tests.tools.local_server import Reply as ToolReply

KEY = "sk-chain-SECRET-7f3a9c1e5b2d4680"
MESSAGES = [{"role": "user", "content": "Say OK."}]
SCHEMA = ResponseSchema("answer", {"type": "object", "properties": {"ok": {"type": "string"}}})


def everything_about(error: BaseException) -> str:
    """All a user, a log or a crash report could be shown of `error`: the rendered traceback, and str, repr,
    args and attributes of it and of every exception chained to it."""
    parts = ["".join(traceback.format_exception(error))]
    seen: set[int] = set()
    todo: list[BaseException] = [error]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        parts += [str(current), repr(current), repr(current.args), repr(vars(current))]
        todo += [e for e in (current.__cause__, current.__context__) if e is not None]
    return "\n".join(parts)


def assert_key_nowhere(error: BaseException) -> None:
    assert KEY not in everything_about(error)
    assert error.__context__ is None or error.__context__ is error.__cause__, "no hidden chained exception"


def echo(status: int, content_type: str = "application/json") -> Callable[[RecordedRequest], Reply]:
    """A server that quotes the Authorization header it got in its answer."""
    def answer(request: RecordedRequest) -> Reply:
        said = request.headers.get("authorization", "")
        if content_type != "application/json":
            return Reply(status=status, body=f"<h1>denied</h1><p>you sent {said}</p>".encode(),
                         content_type=content_type)
        body = {"error": {"message": f"Incorrect API key provided: {said}", "type": "auth", "code": status}}
        return Reply(status=status, body=json.dumps(body).encode())
    return answer


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def client_for(fake: FakeOpenAI, **overrides: object) -> OpenAIClient:
    return OpenAIClient(fake.settings(llm_api_key=KEY, llm_max_retries=1, **overrides), sleep=lambda s: None)


@pytest.mark.parametrize(("status", "raised"), [(401, LLMRejected), (403, LLMRejected), (404, LLMRejected),
                                                (400, LLMError), (500, LLMUnavailable), (503, LLMUnavailable)])
def test_an_echoed_key_is_in_no_part_of_a_completion_error(fake: FakeOpenAI, status: int,
                                                           raised: type[LLMError]) -> None:
    fake.handler = echo(status)
    with pytest.raises(raised) as info:
        client_for(fake).complete(MESSAGES, agent="react", temperature=0.2, top_p=0.9)
    assert fake.chat_requests[0].headers["authorization"] == f"Bearer {KEY}", "the server did get the key"
    assert_key_nowhere(info.value)
    assert f"HTTP {status}" in str(info.value) and info.value.status == status


def test_nor_of_a_streamed_one(fake: FakeOpenAI) -> None:
    fake.handler = echo(401)
    pieces: list[str] = []
    with pytest.raises(LLMRejected) as info:
        client_for(fake).complete(MESSAGES, agent="react", temperature=0.2, top_p=0.9, on_text=pieces.append)
    assert pieces == []
    assert_key_nowhere(info.value)


def test_nor_after_the_schema_and_json_mode_fallbacks(fake: FakeOpenAI) -> None:
    """A 400 to a schema, then to JSON mode, then to the plain request: each is read by its status alone."""
    fake.handler = echo(400)
    client = client_for(fake)
    with pytest.raises(LLMError) as info:
        client.complete(MESSAGES, agent="structure", temperature=0.2, top_p=0.9, schema=SCHEMA)
    formats = [(r.response_format or {}).get("type") for r in fake.chat_requests]
    assert formats == ["json_schema", "json_object", None], "both fallbacks still happen"
    assert not client.schema_supported
    assert_key_nowhere(info.value)


@pytest.mark.parametrize("content_type", ["application/json", "text/html"])
def test_nor_of_a_body_that_is_not_a_completion(fake: FakeOpenAI, content_type: str) -> None:
    """A 200 that is not JSON at all (the decoder's error holds the whole body), or an HTML page."""
    if content_type == "application/json":
        fake.handler = lambda r: Reply(body=f"not json {r.headers.get('authorization')}".encode())
    else:
        fake.handler = echo(200, content_type)
    with pytest.raises(LLMUnavailable) as info:
        client_for(fake).complete(MESSAGES, agent="react", temperature=0.2, top_p=0.9)
    assert_key_nowhere(info.value)


def test_nor_of_the_connection_check_and_its_model_list(fake: FakeOpenAI) -> None:
    fake.handler = echo(404)
    fake.models_reply = Reply(status=401, body=json.dumps({"error": {"message": f"bad key Bearer {KEY}"}}).encode())
    with pytest.raises(LLMRejected) as info:
        client_for(fake).check_connection()
    assert "model list is unavailable" in str(info.value)
    assert_key_nowhere(info.value)
    fake.handler = echo(401)
    with pytest.raises(LLMRejected) as again:
        client_for(fake).check_connection()
    assert_key_nowhere(again.value)


def test_nor_of_the_run_stopping_error_the_breaker_raises(fake: FakeOpenAI) -> None:
    """Through the metered client a refused key stops the run with `EndpointDown`, chained to our own error."""
    fake.handler = echo(401)
    breaker = EndpointBreaker(2)
    metered = MeteredClient(client_for(fake), UsageMeter(10, 10_000), EventBus(), CancelToken(), breaker=breaker,
                            secrets=(KEY,))
    with pytest.raises(EndpointDown) as info:
        metered.complete(MESSAGES, agent="react", temperature=0.2, top_p=0.9)
    assert isinstance(info.value.__cause__, LLMRejected)
    assert KEY not in everything_about(info.value)


# --- the tools that hold keys: Serper search, Jina Reader ----------------------------------------------------

@pytest.fixture
def web() -> Iterator[LocalServer]:
    local = LocalServer().start()
    yield local
    local.stop()


def echo_header(name: str, status: int, content_type: str) -> Callable[[Request], ToolReply]:
    def answer(request: Request) -> ToolReply:
        said = request.headers.get(name) or request.headers.get(name.lower()) or ""
        return ToolReply(status, f"denied, you sent {said}".encode(), {"Content-Type": content_type})
    return answer


@pytest.mark.parametrize("status", [401, 403, 200])
def test_a_search_service_that_echoes_the_key(web: LocalServer, status: int) -> None:
    """401/403 quote it in an error page; the 200 is not JSON, so the decoder's error holds it."""
    web.routes["/search"] = echo_header("X-API-KEY", status, "text/plain")
    search = SerperSearch(KEY, timeout=2, endpoint=web.url + "/search")
    with pytest.raises(ToolError) as info:
        search.call({"query": "pumps"})
    assert web.requests[0].headers.get("X-API-KEY") == KEY
    assert_key_nowhere(info.value)


def test_a_reader_that_echoes_the_key_in_a_broken_answer(web: LocalServer) -> None:
    web.routes["/jina/"] = echo_header("Authorization", 200, "application/json")
    tool = VisitTool(timeout=2.0, max_bytes=100_000, allow_private=True, extractor=None, jina_api_key=KEY,
                     jina_endpoint=web.url + "/jina/")
    with pytest.raises(ToolError, match="unexpected answer") as info:
        tool.call({"url": "https://docs.example/guide", "goal": "pumps"})
    assert_key_nowhere(info.value)
