"""The `visit` tool: fetch pages, take their main text, keep what serves the agent's goal.

Fetching goes through `SafeFetcher` (the URL policy on every hop, connections pinned to the checked address, size
cap, one deadline). Through Jina Reader when a key is configured, which renders JavaScript pages; directly
otherwise. What to keep of a page is
the `extractor`'s job: the LLM engine passes an LLM-based one; the default, `keyword_extract`, selects sentences
by overlap with the goal's terms so the offline engine needs no model.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..errors import ToolError, call_unchained
from ..loaders.html import html_to_text
from ..text.redact import redact
from ..text.split import split_paragraphs, split_sentences
from ..text.tokens import tokenize
from ..watchdog import Cancellable
from .base import ToolResult, ToolSpec, VisitedPage
from .netguard import Fetched, Resolver, SafeFetcher
from .urlpolicy import UrlPolicy
from .web_search import string_list

Extractor = Callable[[str, str], str]  # (goal, page text) -> the parts that serve the goal
MAX_URLS = 5
PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/json"})
USER_AGENT = "Mozilla/5.0 (compatible; AgenticMemoryBank/1.0)"
_SUFFIXES = (("ies", "y"), ("ations", ""), ("ation", ""), ("ings", ""), ("ing", ""), ("ions", ""), ("ion", ""),
             ("es", ""), ("ed", ""), ("ly", ""), ("s", ""))

MAX_TIMEOUT = 120.0
SPEC = ToolSpec(
    name="visit",
    description=("Open web pages and return the parts of their text that serve your goal. "
                 "Give the URL(s) and what you are looking for."),
    parameters={
        "type": "object",
        "properties": {
            "url": {"type": ["string", "array"], "items": {"type": "string"},
                    "description": f"an http(s) URL, or a list of up to {MAX_URLS}"},
            "goal": {"type": "string", "description": "what information you need from the page(s)"},
            "timeout": {"type": "number", "description": f"seconds to wait for a page (at most {MAX_TIMEOUT:g})"},
        },
        "required": ["url", "goal"],
    },
)


def _stem(token: str) -> str:
    """Crude suffix stripping so that 'encryption', 'encrypted' and 'encrypts' meet."""
    for suffix, replacement in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)] + replacement
    return token


def _stems(text: str) -> set[str]:
    return {_stem(token) for token in tokenize(text)}


def keyword_extract(goal: str, text: str, max_words: int = 600) -> str:
    """The sentences that share the most (rarest) terms with the goal, within `max_words`, in document order.

    Returns an empty string when no sentence mentions any term of the goal.
    """
    sentences = [(p, s) for p, paragraph in enumerate(split_paragraphs(text)) for s in split_sentences(paragraph)]
    goal_terms = _stems(goal)
    stems = [_stems(sentence) & goal_terms for _, sentence in sentences]
    frequency = Counter(term for found in stems for term in found)
    weight = {term: math.log(1 + len(sentences) / count) for term, count in frequency.items()}
    scored = [(sum(weight[t] for t in found), index) for index, found in enumerate(stems) if found]
    chosen: list[int] = []
    used = 0
    for _, index in sorted(scored, key=lambda item: (-item[0], item[1])):
        size = len(sentences[index][1].split())
        if used + size <= max_words:
            chosen.append(index)
            used += size
    if scored and not chosen:  # the best sentence alone is longer than the budget
        best = min(scored, key=lambda item: (-item[0], item[1]))[1]
        return " ".join(sentences[best][1].split()[:max_words])
    return _in_document_order([sentences[i] for i in sorted(chosen)])


def _in_document_order(picked: list[tuple[int, str]]) -> str:
    """Sentences of one paragraph stay on one line; paragraphs are separated by blank lines."""
    paragraphs: dict[int, list[str]] = {}
    for paragraph, sentence in picked:
        paragraphs.setdefault(paragraph, []).append(sentence)
    return "\n\n".join(" ".join(group) for group in paragraphs.values())


def page_text(fetched: Fetched) -> tuple[str | None, str]:
    """(title, readable text) of a fetched page."""
    if fetched.content_type in ("text/html", "application/xhtml+xml"):
        return html_to_text(fetched.body, fetched.charset)
    text = _decode(fetched.body, fetched.charset)
    if fetched.content_type == "application/json":
        try:
            text = json.dumps(json.loads(text), indent=1, ensure_ascii=False)
        except ValueError as error:
            raise ToolError(f"{fetched.url} claims to be JSON but is not ({error})") from error
    return None, text.strip()


def _decode(body: bytes, charset: str | None) -> str:
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:  # an unknown charset name in the header: UTF-8 is the web's default
        return body.decode("utf-8", errors="replace")


def _jina_fields(fetched: Fetched) -> tuple[Any, Any]:
    """(content, title) of a Jina Reader answer; KeyError or TypeError when it has another shape."""
    data = json.loads(_decode(fetched.body, fetched.charset))["data"]
    return data["content"], data.get("title")


NO_MATCH = "Nothing on this page matches the goal"


def _timeout(value: object) -> float | None:
    """A per-call deadline the agent (or a recovery strategy) asked for, bounded."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_TIMEOUT:
        raise ToolError(f"'timeout' is a number of seconds, above 0 and at most {MAX_TIMEOUT:g}")
    return float(value)


class VisitTool:
    spec = SPEC

    def __init__(
        self,
        *,
        timeout: float,
        max_bytes: int,
        allow_private: bool,
        extractor: Extractor | None,
        jina_api_key: str | None = None,
        jina_endpoint: str = "https://r.jina.ai/",
        resolver: Resolver | None = None,
        policy: UrlPolicy | None = None,
        cancel: Cancellable | None = None,
    ) -> None:
        self.fetcher = SafeFetcher(timeout=timeout, max_bytes=max_bytes, allow_private=allow_private,
                                   content_types=PAGE_TYPES, resolver=resolver, policy=policy, cancel=cancel)
        self.extractor = extractor or keyword_extract
        self._jina_api_key = jina_api_key or None
        self.jina_endpoint = jina_endpoint

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        urls = string_list(arguments, "url", limit=MAX_URLS)
        goal = arguments.get("goal")
        if not isinstance(goal, str) or not goal.strip():
            raise ToolError("'goal' is required: say what you are looking for on the page(s)")
        timeout = _timeout(arguments.get("timeout"))
        if len(urls) == 1:
            return self.visit(urls[0], goal.strip(), timeout)
        return self._visit_many(urls, goal.strip(), timeout)

    def _visit_many(self, urls: list[str], goal: str, timeout: float | None) -> ToolResult:
        """Each page in turn; a page that fails is reported in place, and only if all fail is it an error."""
        visited: list[ToolResult] = []
        errors: list[str] = []
        for url in urls:
            try:
                visited.append(self.visit(url, goal, timeout))
            except ToolError as error:
                errors.append(str(error))
        if not visited:
            raise ToolError("no page could be visited: " + "; ".join(errors))
        sections = [v.text for v in visited]
        if errors:
            sections.append("Pages that could not be visited: " + "; ".join(errors))
        return ToolResult("\n\n".join(sections), pages=tuple(p for v in visited for p in v.pages))

    def visit(self, url: str, goal: str, timeout: float | None = None) -> ToolResult:
        """One page; it is a typed page only when it carried evidence (a page with no match is no content)."""
        final_url, title, text = self._read(url, timeout)
        if not text:
            raise ToolError(f"{url} has no readable text")
        evidence = self.extractor(goal, text).strip()
        header = f"URL: {final_url}" + (f"\nTitle: {title}" if title else "")
        if not evidence:
            return ToolResult(f"{header}\n{NO_MATCH}: {goal}")
        page = VisitedPage(url=final_url, title=title, evidence=evidence)
        return ToolResult(f"{header}\n\n{evidence}", pages=(page,))

    def _read(self, url: str, timeout: float | None = None) -> tuple[str, str | None, str]:
        """(final URL, title, readable text) of a page."""
        if self._jina_api_key is not None:
            return self._read_with_jina(url, timeout)
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"}
        fetched = self.fetcher.get(url, headers=headers, timeout=timeout)
        title, text = page_text(fetched)
        return fetched.url, title, text

    def _read_with_jina(self, url: str, timeout: float | None = None) -> tuple[str, str | None, str]:
        """Jina Reader renders the page remotely; its JSON answer carries the title and the text as Markdown.
        The key is struck from everything it returns: a page or an error body that echoes the request would
        otherwise carry it into the prompt, the run log and the export."""
        self.fetcher.check(url)  # the same rule whoever fetches: no private hosts handed to a third party either
        secret = [self._jina_api_key]
        headers = {"Authorization": f"Bearer {self._jina_api_key}", "Accept": "application/json"}
        fetched = call_unchained(
            lambda: self.fetcher.get(self.jina_endpoint + url, headers=headers, guard=False, timeout=timeout),
            ToolError, lambda error: ToolError(redact(str(error), secret)))
        content, title = call_unchained(
            lambda: _jina_fields(fetched), (ValueError, KeyError, TypeError),
            lambda error: ToolError(redact(f"Jina Reader returned an unexpected answer for {url} ({error!r})",
                                           secret)))
        if not isinstance(content, str):
            raise ToolError(f"Jina Reader returned no text for {url}")
        content, title = redact(content, secret), redact(str(title), secret) if title else None
        return url, (str(title).strip() or None) if title else None, content.strip()

