from __future__ import annotations

import json

import pytest

from memory_bank.errors import ToolError
from memory_bank.tools.urlpolicy import UrlPolicy
from memory_bank.tools.visit import VisitTool, keyword_extract

from .local_server import LocalServer, Reply
from .test_netguard import resolver_for

PAGE = b"""<!doctype html><html><head><title>Reactor cooling</title>
<script>var tracking = "pump telemetry cookie";</script><style>.x{}</style></head>
<body><nav>Home | Pumps | Contact</nav>
<main><h1>Cooling loop</h1>
<p>The primary pump moves 300 litres per second through the core. Operators check it hourly.</p>
<p>The cafeteria opens at noon. Parking is free on weekends.</p>
<p>A backup pump starts automatically when pressure drops.</p></main>
<footer>Copyright ACME</footer></body></html>"""
HTML = {"Content-Type": "text/html; charset=utf-8"}


def html_page(request) -> Reply:  # noqa: ANN001
    return Reply(200, PAGE, HTML)


def make_tool(**overrides) -> VisitTool:
    options = {"timeout": 2.0, "max_bytes": 100_000, "allow_private": True, "extractor": None}
    return VisitTool(**{**options, **overrides})


# --- keyword_extract ----------------------------------------------------------------------------------------

TEXT = (
    "Zero trust removes implicit trust. The cafeteria serves lunch daily.\n\n"
    "Every request is authenticated by the policy engine. Encryption protects data in transit.\n\n"
    "Parking is free on weekends. The policy engine also logs each decision."
)


def test_keyword_extract_keeps_goal_sentences_in_document_order() -> None:
    assert keyword_extract("How does the policy engine authenticate requests?", TEXT) == (
        "Every request is authenticated by the policy engine.\n\nThe policy engine also logs each decision."
    )


def test_keyword_extract_matches_word_forms() -> None:
    assert keyword_extract("encrypted traffic", TEXT) == "Encryption protects data in transit."


def test_keyword_extract_respects_the_word_budget_preferring_the_best_sentences() -> None:
    kept = keyword_extract("policy engine authenticated request", TEXT, max_words=9)
    assert kept == "Every request is authenticated by the policy engine."


def test_keyword_extract_cuts_an_over_long_best_sentence() -> None:
    assert keyword_extract("policy engine", "The policy engine " + "decides " * 50 + "now.", max_words=5) == (
        "The policy engine decides decides"
    )


def test_keyword_extract_returns_nothing_when_nothing_matches() -> None:
    assert keyword_extract("quantum chromodynamics", TEXT) == ""


# --- visiting pages -----------------------------------------------------------------------------------------


def test_visit_extracts_main_text_for_the_goal(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    tool = make_tool()
    assert tool.spec.name == "visit"
    text = tool.call({"url": server.url + "/page", "goal": "how does the pump work"}).text
    assert text == (
        f"URL: {server.url}/page\nTitle: Reactor cooling\n\n"
        "The primary pump moves 300 litres per second through the core.\n\n"
        "A backup pump starts automatically when pressure drops."
    )


def test_visit_hands_goal_and_clean_text_to_the_extractor(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    seen: list[tuple[str, str]] = []

    def extractor(goal: str, text: str) -> str:
        seen.append((goal, text))
        return "EXTRACTED"

    result = make_tool(extractor=extractor).call({"url": server.url + "/page", "goal": " pumps "})
    assert result.text.endswith("\n\nEXTRACTED")
    goal, text = seen[0]
    assert goal == "pumps"
    assert text.startswith("Cooling loop\n\nThe primary pump")
    assert "tracking" not in text and "Home | Pumps" not in text and "Copyright" not in text


def test_visit_says_when_nothing_matches(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    text = make_tool().call({"url": server.url + "/page", "goal": "quantum chromodynamics"}).text
    assert text.endswith("\nNothing on this page matches the goal: quantum chromodynamics")


def test_visit_reads_plain_text_and_json(server: LocalServer) -> None:
    server.routes["/notes.txt"] = lambda r: Reply(200, "Pump speed: 300 rpm.".encode("latin-1"),
                                                  {"Content-Type": "text/plain; charset=latin-1"})
    server.routes["/api"] = lambda r: Reply(200, b'{"pump": "on", "speed": 300}', {"Content-Type": "application/json"})
    tool = make_tool(extractor=lambda goal, text: text)
    assert tool.call({"url": server.url + "/notes.txt", "goal": "pump"}).text.endswith("\n\nPump speed: 300 rpm.")
    json_text = tool.call({"url": server.url + "/api", "goal": "pump"}).text
    assert json_text.endswith('\n\n{\n "pump": "on",\n "speed": 300\n}')


def test_visit_of_several_urls_reports_failures_in_place(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    text = make_tool().call({"url": [server.url + "/page", server.url + "/missing"], "goal": "pump"}).text
    assert text.startswith(f"URL: {server.url}/page\n")
    assert text.endswith(f"Pages that could not be visited: {server.url}/missing answered HTTP 404 Not Found")


def test_visit_of_several_urls_all_failing_is_an_error(server: LocalServer) -> None:
    with pytest.raises(ToolError, match="no page could be visited: .*404.*404"):
        make_tool().call({"url": [server.url + "/a", server.url + "/b"], "goal": "x"})


@pytest.mark.parametrize("arguments", [{"goal": "x"}, {"url": "", "goal": "x"}, {"url": "http://a.example/"}])
def test_visit_needs_url_and_goal(arguments: dict) -> None:
    with pytest.raises(ToolError, match="'url'|'goal'"):
        make_tool().call(arguments)


# --- limits -------------------------------------------------------------------------------------------------


def test_binary_content_types_are_refused(server: LocalServer) -> None:
    server.routes["/doc.pdf"] = lambda r: Reply(200, b"%PDF-1.7 binary", {"Content-Type": "application/pdf"})
    with pytest.raises(ToolError, match=r"/doc\.pdf is application/pdf, not a readable page"):
        make_tool().call({"url": server.url + "/doc.pdf", "goal": "x"})


def test_a_missing_content_type_is_refused(server: LocalServer) -> None:
    server.routes["/blob"] = lambda r: Reply(200, b"\x00\x01\x02")
    with pytest.raises(ToolError, match="is of unknown type"):
        make_tool().call({"url": server.url + "/blob", "goal": "x"})


def test_a_declared_large_body_is_refused_before_reading(server: LocalServer) -> None:
    server.routes["/big"] = lambda r: Reply(200, b"a " * 100_000, {"Content-Type": "text/plain"})
    with pytest.raises(ToolError, match=r"is too large \(200,000 bytes; the limit is 50,000\)"):
        make_tool(max_bytes=50_000).call({"url": server.url + "/big", "goal": "x"})


def test_an_undeclared_large_body_is_cut_off(server: LocalServer) -> None:
    server.routes["/stream"] = lambda r: Reply(200, b"a " * 100_000, {"Content-Type": "text/plain"}, drip=0.0001)
    with pytest.raises(ToolError, match="is larger than the limit of 50,000 bytes"):
        make_tool(max_bytes=50_000).call({"url": server.url + "/stream", "goal": "x"})


def test_a_slow_server_times_out(server: LocalServer) -> None:
    server.routes["/slow"] = lambda r: Reply(200, PAGE, HTML, delay=1.5)
    with pytest.raises(ToolError, match=r"/slow did not answer within 0\.3 s"):
        make_tool(timeout=0.3).call({"url": server.url + "/slow", "goal": "x"})


def test_a_dripping_body_hits_the_overall_deadline(server: LocalServer) -> None:
    server.routes["/drip"] = lambda r: Reply(200, b"x" * 20_000, {"Content-Type": "text/plain"}, drip=0.1)
    with pytest.raises(ToolError, match=r"/drip took longer than 0\.5 s"):
        make_tool(timeout=0.5).call({"url": server.url + "/drip", "goal": "x"})


def test_http_errors_are_tool_errors(server: LocalServer) -> None:
    server.routes["/boom"] = lambda r: Reply(500, b"oops", {"Content-Type": "text/plain"})
    with pytest.raises(ToolError, match=r"/boom answered HTTP 500"):
        make_tool().call({"url": server.url + "/boom", "goal": "x"})


# --- redirects ----------------------------------------------------------------------------------------------


def redirect_chain(server: LocalServer, length: int) -> str:
    for hop in range(length, 0, -1):
        target = f"/hop{hop - 1}" if hop > 1 else "/page"
        server.routes[f"/hop{hop}"] = lambda r, target=target: Reply(302, b"", {"Location": target})
    server.routes["/page"] = html_page
    return f"{server.url}/hop{length}"


def test_a_redirect_chain_is_followed(server: LocalServer) -> None:
    start = redirect_chain(server, 5)
    text = make_tool().call({"url": start, "goal": "pump"}).text
    assert text.startswith(f"URL: {server.url}/page\n")
    assert server.paths() == ["/hop5", "/hop4", "/hop3", "/hop2", "/hop1", "/page"]


def test_too_many_redirects_are_refused(server: LocalServer) -> None:
    start = redirect_chain(server, 6)
    with pytest.raises(ToolError, match=r"too many redirects \(more than 5\)"):
        make_tool().call({"url": start, "goal": "pump"})
    assert "/page" not in server.paths()


def test_a_redirect_from_a_public_site_to_loopback_is_refused(server: LocalServer) -> None:
    """The local server plays a public site (its address counts as public here) that redirects to 127.0.0.2."""
    server.routes["/start"] = lambda r: Reply(302, b"", {"Location": "http://intranet.example/page"})
    server.routes["/page"] = html_page
    port = int(server.url.rsplit(":", 1)[1])
    resolver = resolver_for({"public.example": ["127.0.0.1"], "intranet.example": ["127.0.0.2"]})
    policy = UrlPolicy(allow_private=False, resolver=resolver, public=lambda a: str(a) == "127.0.0.1")
    tool = make_tool(allow_private=False, policy=policy)
    with pytest.raises(ToolError, match=r"refused http://intranet\.example/page: .*loopback"):
        tool.call({"url": f"http://public.example:{port}/start", "goal": "pump"})
    assert server.paths() == ["/start"]


# --- private addresses --------------------------------------------------------------------------------------


def test_visiting_loopback_is_refused_by_default(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    with pytest.raises(ToolError, match="private, loopback or reserved address"):
        make_tool(allow_private=False).call({"url": server.url + "/page", "goal": "pump"})
    assert server.paths() == []


def test_visiting_loopback_is_allowed_when_configured(server: LocalServer) -> None:
    server.routes["/page"] = html_page
    result = make_tool(allow_private=True).call({"url": server.url + "/page", "goal": "pump"})
    assert "primary pump" in result.text


# --- Jina Reader --------------------------------------------------------------------------------------------


def jina_reader(request) -> Reply:  # noqa: ANN001
    if request.headers.get("Authorization") != "Bearer jina-key":
        return Reply(401, b"bad key", {"Content-Type": "text/plain"})
    if request.headers.get("Accept") != "application/json":
        return Reply(406, b"this fake only answers JSON", {"Content-Type": "text/plain"})
    target = request.path.removeprefix("/jina/")
    data = {"code": 200, "status": 20000, "data": {
        "title": "Pump guide", "url": target, "content": "# Pumps\n\nThe pump guide says the pump is blue.",
    }}
    return Reply(200, json.dumps(data).encode(), {"Content-Type": "application/json; charset=utf-8"})


def test_jina_reader_is_used_with_a_key(server: LocalServer) -> None:
    server.routes["/jina/"] = jina_reader
    resolver = resolver_for({"docs.example": ["93.184.216.34"]})
    tool = make_tool(allow_private=False, resolver=resolver, jina_api_key="jina-key",
                     jina_endpoint=server.url + "/jina/")
    text = tool.call({"url": "https://docs.example/guide", "goal": "pump colour"}).text
    assert server.paths() == ["/jina/https://docs.example/guide"]
    assert text == (
        "URL: https://docs.example/guide\nTitle: Pump guide\n\n# Pumps\n\nThe pump guide says the pump is blue."
    )


def test_jina_reader_errors_are_tool_errors(server: LocalServer) -> None:
    server.routes["/jina/"] = jina_reader
    tool = make_tool(jina_api_key="wrong", jina_endpoint=server.url + "/jina/")
    with pytest.raises(ToolError, match="answered HTTP 401"):
        tool.call({"url": "https://docs.example/guide", "goal": "pump"})


def test_the_jina_key_never_comes_back_in_the_text_or_an_error(server: LocalServer) -> None:
    def echo(request) -> Reply:  # noqa: ANN001 - a reader that reflects the request, as echo services do
        auth = request.headers.get("Authorization", "")
        if "/broken/" in request.path:
            return Reply(200, f'{{"data": 7, "echo": "{auth}"}}'.encode(), {"Content-Type": "application/json"})
        data = {"data": {"title": f"Echo {auth}", "content": f"You sent: {auth}. The pump is blue."}}
        return Reply(200, json.dumps(data).encode(), {"Content-Type": "application/json"})

    server.routes["/jina/"] = echo
    resolver = resolver_for({"docs.example": ["93.184.216.34"]})
    tool = make_tool(allow_private=False, resolver=resolver, jina_api_key="jina-secret-key",
                     jina_endpoint=server.url + "/jina/")
    text = tool.call({"url": "https://docs.example/guide", "goal": "pump colour"}).text
    assert "jina-secret-key" not in text and "Bearer ***" in text and "The pump is blue." in text
    with pytest.raises(ToolError) as error:
        tool.call({"url": "https://docs.example/broken/page", "goal": "pump"})
    assert "jina-secret-key" not in str(error.value) and error.value.__cause__ is None


def test_an_unexpected_jina_answer_is_a_tool_error(server: LocalServer) -> None:
    server.routes["/jina/"] = lambda r: Reply(200, b'{"code": 200, "data": null}', {"Content-Type": "application/json"})
    tool = make_tool(jina_api_key="jina-key", jina_endpoint=server.url + "/jina/")
    with pytest.raises(ToolError, match="Jina Reader returned an unexpected answer"):
        tool.call({"url": "https://docs.example/guide", "goal": "pump"})


def test_private_targets_are_not_handed_to_jina(server: LocalServer) -> None:
    server.routes["/jina/"] = jina_reader
    resolver = resolver_for({"intranet.example": ["10.0.0.5"]})
    tool = make_tool(allow_private=False, resolver=resolver, jina_api_key="jina-key",
                     jina_endpoint=server.url + "/jina/")
    with pytest.raises(ToolError, match="refused"):
        tool.call({"url": "http://intranet.example/wiki", "goal": "pump"})
    assert server.paths() == []
