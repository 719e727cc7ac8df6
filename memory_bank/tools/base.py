"""Tool contract for the executor.

A tool takes JSON arguments and returns a `ToolResult`: the text the agent reads, and beside it what that text
was made from (visited pages, local passages, web hits, attachments), so the loop can use a tool's findings
without parsing its prose back. A failure raises `ToolError`, which the executor turns into an observation for
the agent instead of ending the run (DESIGN §4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from ..errors import ToolError
from ..retrieval.deep_retrieval import AttachmentContent
from ..retrieval.view import Passage


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)  # JSON schema of the arguments


class VisitedPage(BaseModel):
    """A web page the agent read, with the part of it that served its goal; the loop ingests it as a document.

    A pydantic model because it travels on in `ToolCallRecord`, which executors return to the loop."""

    model_config = ConfigDict(frozen=True)

    url: str
    title: str | None = None
    evidence: str


@dataclass(frozen=True)
class SearchHit:
    title: str
    url: str
    snippet: str


@dataclass(frozen=True)
class ToolResult:
    """`text` is exactly what the agent reads; the rest is the same findings, typed."""

    text: str
    pages: tuple[VisitedPage, ...] = ()  # visit: pages that carried evidence
    passages: tuple[Passage, ...] = ()  # search: passages of the task's own documents
    hits: tuple[SearchHit, ...] = ()  # search: web results
    attachments: tuple[AttachmentContent, ...] = ()  # deep_retrieval: the node's attachments, read


class Tool(Protocol):
    spec: ToolSpec

    def call(self, arguments: dict[str, Any]) -> ToolResult: ...


class ToolBox:
    def __init__(self, tools: list[Tool]) -> None:
        self._tools = {t.spec.name: t for t in tools}

    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self) -> list[ToolSpec]:
        return [t.spec for t in self._tools.values()]

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def call(self, name: str, arguments: dict[str, Any], goal: str = "") -> ToolResult:  # noqa: ARG002
        """`goal` (the task's) is for a box that recovers failed calls; the tools themselves never see it."""
        tool = self._tools.get(name)
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; available: {', '.join(self._tools)}")
        if not isinstance(arguments, dict):
            raise ToolError(f"arguments of {name} must be a JSON object")
        return tool.call(arguments)
