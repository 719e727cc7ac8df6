"""Plain-text formatting shared by the pages (no Streamlit here, so it is testable on its own)."""

from __future__ import annotations

import re
import time

from memory_bank import (
    AnswerReady,
    ConflictFlagged,
    ConflictResolved,
    ErrorRaised,
    Event,
    LongTermInjected,
    LongTermLearned,
    NodeAdded,
    NodesMerged,
    ReadingStopped,
    RuleDecided,
    SubscriberFailed,
    TaskCompleted,
    TaskPlanned,
    ToolCalled,
    ToolRecovered,
)
from memory_bank import md_escape as md_escape  # the pages' one place for formatting helpers; defined in the core

STAGE_TITLES = {
    "classify": "Classify into topics",
    "structure": "Summarise clusters",
    "embed": "Embed nodes",
    "link": "Link, merge, flag conflicts",
}


def duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s"


def clock(ts: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ts))


def short(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe(event: Event) -> tuple[str, str] | None:
    """(level, one line) for the run log; None for events too frequent to be worth a line."""
    match event:
        case NodeAdded():
            return "info", f"Node added: {short(event.context, 90)}" + (f" ({event.source})" if event.source else "")
        case NodesMerged():
            return "merge", f"Merged {len(event.merged_ids)} nodes → {event.new_node_id}: {short(event.description)}"
        case ConflictFlagged():
            return "conflict", f"Conflict flagged: {short(event.description)}"
        case ConflictResolved():
            return "merge", f"Conflict resolved: {short(event.resolution)}"
        case TaskPlanned():
            why = f" (by {event.by}: {short(event.reason, 90)})" if event.reason else ""
            return "task", f"Planned {event.task_type}: {short(event.description)}{why}"
        case RuleDecided():  # the call a rule made unnecessary: which agent was not asked, and the rule's reason
            return "rule", f"Decided by rule, no {event.agent} call: {short(event.reason, 160)}"
        case TaskCompleted():
            return ("task" if event.status == "success" else "error",
                    f"{event.task_type} {event.status}: {short(event.description)}")
        case ToolCalled():
            return ("tool" if event.ok else "error",
                    f"Tool {event.tool}({short(str(event.arguments), 60)}) → {short(event.summary, 80)}")
        case AnswerReady():
            return "answer", f"Answer ready ({len(event.citations)} citations)"
        case ReadingStopped():  # the message says it all: "Stopped reading X after 120 s: N of M pages read…"
            return "error", event.message
        case ErrorRaised():
            return "error", f"{event.where}: {event.message}"
        case SubscriberFailed():
            return "error", f"UI event handler failed: {event.message}"
        case LongTermInjected():
            return "info", f"Long-term memory: {len(event.memory_ids)} record(s), {event.tokens} tokens injected"
        case ToolRecovered():
            how = f"{event.fix_source} fix after {event.retries} retr{'y' if event.retries == 1 else 'ies'}"
            return ("tool" if event.ok else "error",
                    f"Tool {event.tool} {event.error_type}: {'recovered' if event.ok else 'not recovered'} ({how})")
        case LongTermLearned():
            return "info", f"Long-term memory learnt {len(event.memory_ids)} record(s) from this task"
        case _:
            return None


_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
_MD_REF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_RAW_URL_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)


def safe_markdown(text: str) -> str:
    """An answer keeps its Markdown formatting but loses images and links: a document that steers an answer
    must not make the browser fetch anything. (Streamlit already escapes raw HTML.)"""
    text = _MD_IMAGE.sub(lambda m: f"[image: {m.group(1)}]", str(text))
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    text = _MD_REF.sub("", text)
    return _RAW_URL_IMG.sub("[image]", text)
