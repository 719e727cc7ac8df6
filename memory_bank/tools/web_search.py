"""Web search backends for the `search` tool: Serper (Google results, needs a key) and a SearXNG instance.

Both return the same readable list (title, URL, snippet) so the agent sees one format whichever backend the
settings name. Endpoints are parameters so tests and self-hosted setups can point elsewhere. Calls go through
`SafeFetcher.call_api`: one wall-clock deadline however slowly the service answers, and a byte cap.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from ..errors import ConfigError, ToolError, call_unchained
from ..text.redact import redact
from ..watchdog import Cancellable
from .base import SearchHit, ToolResult, ToolSpec
from .netguard import SafeFetcher

MAX_QUERIES = 5
MAX_API_BYTES = 2_000_000
SPEC = ToolSpec(
    name="search",
    description="Search the web. Returns the top results (title, URL, snippet) for each query.",
    parameters={
        "type": "object",
        "properties": {
            "query": {
                "type": ["string", "array"],
                "items": {"type": "string"},
                "description": f"a query, or a list of up to {MAX_QUERIES} queries",
            }
        },
        "required": ["query"],
    },
)


def string_list(arguments: dict[str, Any], key: str, *, limit: int) -> list[str]:
    """A required argument given as one string or a list of strings, blanks dropped."""
    value = arguments.get(key)
    items = value if isinstance(value, list) else [value]
    strings = [item for item in items if isinstance(item, str)]
    if len(strings) < len(items):
        raise ToolError(f"'{key}' must be a string or a list of strings")
    cleaned = [item.strip() for item in strings if item.strip()]
    if not cleaned:
        raise ToolError(f"'{key}' is required and must not be empty")
    if len(cleaned) > limit:
        raise ToolError(f"at most {limit} values of '{key}' per call (got {len(cleaned)})")
    return cleaned


def format_results(query: str, hits: list[SearchHit], answer: str | None = None) -> str:
    lines = [f'Results for "{query}":']
    if answer:
        lines.append(f"Answer: {answer}")
    for rank, hit in enumerate(hits, start=1):
        lines.append(f"{rank}. {hit.title or '(untitled)'}\n   URL: {hit.url}")
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
    if not hits and not answer:
        lines.append("No results.")
    return "\n".join(lines)


def search_all(search: Callable[[str], ToolResult], arguments: dict[str, Any]) -> ToolResult:
    """Each query in turn through `search(query) -> ToolResult`; the texts joined, the hits kept in order."""
    results = [search(query) for query in string_list(arguments, "query", limit=MAX_QUERIES)]
    return ToolResult("\n\n".join(r.text for r in results), hits=tuple(h for r in results for h in r.hits))


_SECRET_HEADERS = frozenset({"authorization", "x-api-key"})


def _clean(value: Any) -> str:
    return " ".join(str(value or "").split())


def request_json(fetcher: SafeFetcher, service: str, refused_hint: str, method: str, url: str, *,
                 headers: dict[str, str] | None = None, body: bytes | None = None) -> Any:
    """One call to a search API under the fetcher's deadline and byte cap, every failure a ToolError naming the
    service; a 401/403 gets `refused_hint`, the usual fix for that backend."""
    answer = fetcher.call_api(service, method, url, headers=headers, body=body)
    # an error body that echoes the request must not carry the key into the run log
    secrets = [v.removeprefix("Bearer ") for k, v in (headers or {}).items() if k.lower() in _SECRET_HEADERS]
    detail = redact(_clean(answer.body.decode("utf-8", errors="replace")), secrets)[:200]
    if answer.status in (401, 403):
        raise ToolError(f"{service} refused the request (HTTP {answer.status}; {refused_hint}): {detail}")
    if answer.status >= 400:
        raise ToolError(f"{service} answered HTTP {answer.status}: {detail}")
    return call_unchained(lambda: json.loads(answer.body), ValueError,
                          lambda _: ToolError(f"{service} returned a response that is not JSON: {detail}"))


def api_fetcher(timeout: float, cancel: Cancellable | None) -> SafeFetcher:
    """For a configured search endpoint: trusted (no address rule), but the same deadline and a byte cap."""
    return SafeFetcher(timeout=timeout, max_bytes=MAX_API_BYTES, allow_private=True, content_types=frozenset(),
                       cancel=cancel)


def _results_list(data: Any, key: str, service: str) -> list[dict]:
    if not isinstance(data, dict):
        raise ToolError(f"{service} returned unexpected JSON (an object was expected)")
    items = data.get(key) or []
    if not isinstance(items, list):
        raise ToolError(f"{service} returned unexpected JSON ('{key}' is not a list)")
    return [item for item in items if isinstance(item, dict)]


class SerperSearch:
    """Google results through serper.dev."""

    spec = SPEC

    def __init__(
        self,
        api_key: str,
        *,
        timeout: float,
        endpoint: str = "https://google.serper.dev/search",
        max_results: int = 8,
        cancel: Cancellable | None = None,
    ) -> None:
        if not api_key.strip():
            raise ConfigError("Serper search needs an API key (SERPER_API_KEY)")
        self._api_key = api_key
        self.fetcher = api_fetcher(timeout, cancel)
        self.endpoint = endpoint
        self.max_results = max_results

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        return search_all(self.search, arguments)

    def search(self, query: str) -> ToolResult:
        data = request_json(
            self.fetcher, "Serper", "check SERPER_API_KEY", "POST", self.endpoint,
            body=json.dumps({"q": query, "num": self.max_results}).encode(),
            headers={"X-API-KEY": self._api_key, "Content-Type": "application/json"},
        )
        organic = _results_list(data, "organic", "Serper")[: self.max_results]
        hits = [SearchHit(_clean(r.get("title")), _clean(r.get("link")), _clean(r.get("snippet"))) for r in organic]
        return ToolResult(format_results(query, hits, _serper_answer(data)), hits=tuple(hits))


def _serper_answer(data: dict) -> str | None:
    box = data.get("answerBox")
    if not isinstance(box, dict):
        return None
    return _clean(box.get("answer") or box.get("snippet")) or None


class SearxngSearch:
    """A SearXNG instance's JSON API (the instance must enable the `json` format in its settings)."""

    spec = SPEC

    def __init__(self, base_url: str, *, timeout: float, max_results: int = 8,
                 cancel: Cancellable | None = None) -> None:
        if not base_url.strip():
            raise ConfigError("SearXNG search needs the instance URL (SEARXNG_URL)")
        self.endpoint = base_url.strip().rstrip("/") + "/search"
        self.fetcher = api_fetcher(timeout, cancel)
        self.max_results = max_results

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        return search_all(self.search, arguments)

    def search(self, query: str) -> ToolResult:
        data = request_json(
            self.fetcher, "SearXNG", "the instance must enable the json format under search.formats", "GET",
            f"{self.endpoint}?{urlencode({'q': query, 'format': 'json'})}",
        )
        results = _results_list(data, "results", "SearXNG")[: self.max_results]
        hits = [SearchHit(_clean(r.get("title")), _clean(r.get("url")), _clean(r.get("content"))) for r in results]
        answers = [_clean(a.get("answer") if isinstance(a, dict) else a) for a in data.get("answers") or []]
        return ToolResult(format_results(query, hits, "; ".join(a for a in answers if a) or None), hits=tuple(hits))
