"""`search` over the task's own documents, always available; web results are appended when configured.

One tool name for the agent: it asks a question and gets local passages (with node ids and pages, so it can
deep-retrieve) followed by web results from Serper or SearXNG when the settings name one.
"""

from __future__ import annotations

from typing import Any

from ..errors import ToolError
from ..retrieval.deep_retrieval import REJECTED_MARK
from ..retrieval.view import MemoryView, Passage
from .base import Tool, ToolResult, ToolSpec

SPEC = ToolSpec(
    name="search",
    description=("Search the task's own documents (and the web when configured). Returns passages with their "
                 "node ids and pages; call deep_retrieval with a node id to read more."),
    parameters={"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)


def format_passage(i: int, p: Passage, rejected: bool = False) -> str:
    nodes = ", ".join(f"node:{n}" for n in p.node_ids) or "no node"
    return f"[{i}] {p.where()} ({nodes})\n{REJECTED_MARK if rejected else ''}{p.text}"


class LocalSearchTool:
    spec = SPEC

    def __init__(self, view: MemoryView, web: Tool | None = None, k: int = 5) -> None:
        self.view = view
        self.web = web
        self.k = k

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        query = arguments.get("query")
        queries = query if isinstance(query, list) else [query]
        queries = [str(q).strip() for q in queries if str(q or "").strip()]
        if not queries:
            raise ToolError("search needs a non-empty 'query'")
        parts: list[str] = []
        found: list[Passage] = []
        rejected = self.view.rejected_entries()
        for q in queries:
            passages = self.view.search_passages(q, self.k)
            found.extend(passages)
            local = "\n\n".join(format_passage(i, p, p.entry_id in rejected) for i, p in enumerate(passages, 1))
            parts.append(f"Local documents for '{q}':\n{local or 'no matching passage'}")
        if self.web is None:
            return ToolResult("\n\n".join(parts), passages=tuple(found))
        web = self.web.call({"query": queries})
        parts.append(f"Web results:\n{web.text}")
        return ToolResult("\n\n".join(parts), passages=tuple(found), hits=web.hits, pages=web.pages)
