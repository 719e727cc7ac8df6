"""Web search backends for the `search` tool: Serper (Google results, needs a key) and a SearXNG instance.

Both return the same readable list (title, URL, snippet) so the agent sees one format whichever backend the
settings name. Endpoints are parameters so tests and self-hosted setups can point elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests

from ..errors import ConfigError, ToolError
from .base import SearchHit, ToolResult, ToolSpec

MAX_QUERIES = 5
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
    if not all(isinstance(item, str) for item in items):
        raise ToolError(f"'{key}' must be a string or a list of strings")
    cleaned = [item.strip() for item in items if item.strip()]
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


def _clean(value: Any) -> str:
    return " ".join(str(value or "").split())


def request_json(session: requests.Session, service: str, timeout: float, refused_hint: str, **request: Any) -> Any:
    """One HTTP call to a search API, every failure turned into a ToolError naming the service; a 401/403
    gets `refused_hint`, the usual fix for that backend."""
    try:
        response = session.request(timeout=timeout, **request)
    except requests.Timeout as error:
        raise ToolError(f"{service} did not answer within {timeout:g} s") from error
    except requests.RequestException as error:
        raise ToolError(f"{service} request failed: {error}") from error
    detail = _clean(response.text)[:200]
    if response.status_code in (401, 403):
        raise ToolError(f"{service} refused the request (HTTP {response.status_code}; {refused_hint}): {detail}")
    if response.status_code >= 400:
        raise ToolError(f"{service} answered HTTP {response.status_code}: {detail}")
    try:
        return response.json()
    except ValueError as error:
        raise ToolError(f"{service} returned a response that is not JSON: {detail}") from error


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
        session: requests.Session,
        endpoint: str = "https://google.serper.dev/search",
        max_results: int = 8,
    ) -> None:
        if not api_key.strip():
            raise ConfigError("Serper search needs an API key (SERPER_API_KEY)")
        self._api_key = api_key
        self.timeout = timeout
        self.session = session
        self.endpoint = endpoint
        self.max_results = max_results

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        return search_all(self.search, arguments)

    def search(self, query: str) -> ToolResult:
        data = request_json(
            self.session, "Serper", self.timeout, "check SERPER_API_KEY", method="POST", url=self.endpoint,
            json={"q": query, "num": self.max_results},
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

    def __init__(self, base_url: str, *, timeout: float, session: requests.Session, max_results: int = 8) -> None:
        if not base_url.strip():
            raise ConfigError("SearXNG search needs the instance URL (SEARXNG_URL)")
        self.endpoint = base_url.strip().rstrip("/") + "/search"
        self.timeout = timeout
        self.session = session
        self.max_results = max_results

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        return search_all(self.search, arguments)

    def search(self, query: str) -> ToolResult:
        data = request_json(
            self.session, "SearXNG", self.timeout, "the instance must enable the json format under search.formats",
            method="GET", url=self.endpoint, params={"q": query, "format": "json"},
        )
        results = _results_list(data, "results", "SearXNG")[: self.max_results]
        hits = [SearchHit(_clean(r.get("title")), _clean(r.get("url")), _clean(r.get("content"))) for r in results]
        answers = [_clean(a.get("answer") if isinstance(a, dict) else a) for a in data.get("answers") or []]
        return ToolResult(format_results(query, hits, "; ".join(a for a in answers if a) or None), hits=tuple(hits))
