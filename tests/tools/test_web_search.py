from __future__ import annotations

import json

import pytest

from memory_bank.errors import ConfigError, ToolError
from memory_bank.tools.web_search import SearxngSearch, SerperSearch

from .local_server import LocalServer, Reply, Request

KEY = "test-serper-key"


def serper_api(request: Request) -> Reply:
    if request.method != "POST" or request.headers.get("X-API-KEY") != KEY:
        return Reply(403, b'{"message": "Unauthorized."}', {"Content-Type": "application/json"})
    query = json.loads(request.body)["q"]
    data = {
        "searchParameters": {"q": query},
        "answerBox": {"answer": f"42 ({query})"} if "answer" in query else None,
        "organic": [
            {"title": f"{query} result {i}", "link": f"https://example.org/{i}", "snippet": f"About  {query}\n{i}"}
            for i in range(1, 13)
        ],
    }
    return Reply(200, json.dumps(data).encode(), {"Content-Type": "application/json"})


def searxng_api(request: Request) -> Reply:
    if request.query.get("format") != ["json"]:
        return Reply(403, b"Forbidden", {"Content-Type": "text/html"})
    query = request.query["q"][0]
    data = {
        "query": query,
        "results": [{"title": f"SearX {query}", "url": "https://searx.example/a", "content": "snippet a"}],
        "answers": ["an answer"],
    }
    return Reply(200, json.dumps(data).encode(), {"Content-Type": "application/json"})


@pytest.fixture()
def serper(server: LocalServer) -> SerperSearch:
    server.routes["/search"] = serper_api
    return SerperSearch(KEY, timeout=2, endpoint=server.url + "/search", max_results=3)


def test_serper_returns_titles_urls_and_snippets(serper: SerperSearch) -> None:
    assert serper.spec.name == "search"
    result = serper.call({"query": "zero trust"})
    assert result.text == (
        'Results for "zero trust":\n'
        "1. zero trust result 1\n   URL: https://example.org/1\n   About zero trust 1\n"
        "2. zero trust result 2\n   URL: https://example.org/2\n   About zero trust 2\n"
        "3. zero trust result 3\n   URL: https://example.org/3\n   About zero trust 3"
    )
    assert [hit.url for hit in result.hits] == [f"https://example.org/{i}" for i in (1, 2, 3)]


def test_serper_sends_the_key_and_the_query(serper: SerperSearch, server: LocalServer) -> None:
    serper.call({"query": "policy engine"})
    request = server.requests[-1]
    assert request.headers["X-API-KEY"] == KEY
    assert json.loads(request.body) == {"q": "policy engine", "num": 3}


def test_serper_answer_box_and_several_queries(serper: SerperSearch) -> None:
    result = serper.call({"query": ["the answer", "  ", "second"]})
    text = result.text
    assert text.startswith('Results for "the answer":\nAnswer: 42 (the answer)\n1. the answer result 1')
    assert '\n\nResults for "second":\n1. second result 1' in text
    assert [hit.title for hit in result.hits][2:4] == ["the answer result 3", "second result 1"]


def test_serper_with_a_wrong_key_is_a_tool_error(server: LocalServer) -> None:
    server.routes["/search"] = serper_api
    search = SerperSearch("wrong", timeout=2, endpoint=server.url + "/search")
    with pytest.raises(ToolError, match=r"Serper refused the request \(HTTP 403; check SERPER_API_KEY\)"):
        search.call({"query": "x"})


def test_an_error_body_that_echoes_the_key_does_not_carry_it(server: LocalServer) -> None:
    server.routes["/search"] = lambda r: Reply(403, f"bad key {r.headers.get('X-API-KEY')}".encode())
    search = SerperSearch("serper-secret-key", timeout=2, endpoint=server.url + "/search")
    with pytest.raises(ToolError) as error:
        search.call({"query": "x"})
    assert "serper-secret-key" not in str(error.value) and "bad key ***" in str(error.value)


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply(500, b"upstream broke"), r"Serper answered HTTP 500: upstream broke"),
        (Reply(200, b"<html>not json</html>", {"Content-Type": "text/html"}), r"not JSON: <html>"),
        (Reply(200, b'["a list"]', {"Content-Type": "application/json"}), r"unexpected JSON"),
        (Reply(200, b'{"organic": {"a": 1}}', {"Content-Type": "application/json"}), r"'organic' is not a list"),
    ],
)
def test_serper_bad_answers_are_tool_errors(
    server: LocalServer, reply: Reply, message: str
) -> None:
    server.routes["/search"] = lambda request: reply
    search = SerperSearch(KEY, timeout=2, endpoint=server.url + "/search")
    with pytest.raises(ToolError, match=message):
        search.call({"query": "x"})


def test_serper_timeout_is_a_tool_error(server: LocalServer) -> None:
    server.routes["/search"] = lambda request: Reply(200, b"{}", delay=1.0)
    search = SerperSearch(KEY, timeout=0.2, endpoint=server.url + "/search")
    with pytest.raises(ToolError, match=r"Serper did not answer within 0\.2 s"):
        search.call({"query": "x"})


def test_no_results_is_said_plainly(server: LocalServer) -> None:
    server.routes["/search"] = lambda request: Reply(200, b'{"organic": []}', {"Content-Type": "application/json"})
    search = SerperSearch(KEY, timeout=2, endpoint=server.url + "/search")
    assert search.call({"query": "nothing"}).text == 'Results for "nothing":\nNo results.'


@pytest.mark.parametrize("arguments", [{}, {"query": ""}, {"query": ["", " "]}, {"query": 5}, {"query": ["a"] * 6}])
def test_bad_queries_are_tool_errors(serper: SerperSearch, arguments: dict) -> None:
    with pytest.raises(ToolError, match="'query'"):
        serper.call(arguments)


def test_serper_needs_a_key() -> None:
    with pytest.raises(ConfigError, match="SERPER_API_KEY"):
        SerperSearch(" ", timeout=1)


def test_searxng_results(server: LocalServer) -> None:
    server.routes["/searx/search"] = searxng_api
    search = SearxngSearch(server.url + "/searx/", timeout=2)
    assert search.spec.name == "search"
    assert search.call({"query": "zero trust"}).text == (
        'Results for "zero trust":\nAnswer: an answer\n'
        "1. SearX zero trust\n   URL: https://searx.example/a\n   snippet a"
    )
    assert server.requests[-1].query == {"q": ["zero trust"], "format": ["json"]}


def test_searxng_without_json_format_explains_the_fix(server: LocalServer) -> None:
    server.routes["/search"] = lambda request: Reply(403, b"Forbidden")
    search = SearxngSearch(server.url, timeout=2)
    with pytest.raises(ToolError, match=r"HTTP 403; the instance must enable the json format"):
        search.call({"query": "x"})


def test_searxng_unreachable_is_a_tool_error(server: LocalServer) -> None:
    url = server.url
    server.stop()
    search = SearxngSearch(url, timeout=2)
    with pytest.raises(ToolError, match="request to SearXNG failed"):
        search.call({"query": "x"})
