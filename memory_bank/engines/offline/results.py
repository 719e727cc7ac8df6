"""An answer as the executor's result: where each cited sentence was read, its citations and the run log's
summary, so every way of answering (a figure, a list, a part, a "not found") reports the same way."""

from __future__ import annotations

from ...memory.query_graph import place_label
from ..models import Citation, ExecutionResult, ToolCallRecord
from .answering import Answer
from .evidence import Evidence


def where(ev: Evidence) -> str:
    """'file, §2.1 Tenets of Zero Trust, p. 6 (PDF p. 15)': an item of a list answer names where its first
    sentence was read."""
    return place_label(ev.source, ev.section, ev.pages, dict(ev.printed)) or f"node {ev.node_id}"


def citations(answer: Answer) -> list[Citation]:
    out: list[Citation] = []
    for ev in answer.used:
        if not any(c.node_id == ev.node_id for c in out):
            out.append(Citation(node_id=ev.node_id, source=ev.source, pages=list(ev.pages), quote=ev.text,
                                printed_pages=dict(ev.printed), section=list(ev.section)))
    return out


def summary(answer: Answer) -> str:
    cited = ", ".join(f"node {c.node_id}" + (f" ({c.source})" if c.source else "") for c in citations(answer))
    return f"Answered from {cited}: {clip(answer.text, 200)}"


def done(answer: Answer, calls: list[ToolCallRecord]) -> ExecutionResult:
    """A found answer as the run's result: its text, the calls that read it, its citations and summary."""
    return ExecutionResult(answer=answer.text, tool_calls=calls, citations=citations(answer),
                           summary=summary(answer), success=True)


def done_placed(answer: Answer, calls: list[ToolCallRecord]) -> ExecutionResult:
    """A found answer read from one place (an acronym's definition, the front matter): its text ends saying where
    it was read, as a list answer's items do."""
    return ExecutionResult(answer=f"{answer.text} ({where(answer.used[0])})", tool_calls=calls,
                           citations=citations(answer), summary=summary(answer), success=True)


def failed(message: str) -> ExecutionResult:
    return ExecutionResult(answer=None, termination="error", success=False, summary=message)


def clip(text: str, limit: int) -> str:
    """One space between words, cut at `limit` characters with a mark saying so: a run log line stays short."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + " … (truncated)"
