"""L3 reflections as Markdown with a front-matter header (seed 004 §4.2, §8.1, §8.4).

Record text may come from documents, web pages or a model, so every piece of it is escaped for Markdown before it
lands in a file a person (or the app) renders: it reads as the text it is, never as a link, image or HTML.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import UTC, datetime

from ..text.escape import md_escape
from .models import Category, MemoryRecord, RecoveryMetadata

STRATEGY_TITLE = "Tool execution error recovery experience"
DIGEST_ITEMS, DIGEST_ITEM_CHARS = 3, 120


def fenced_json(value: object) -> str:
    """A JSON code block whose fence is longer than any run of backticks inside, so it cannot be closed early."""
    body = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}json\n{body}\n{fence}"


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M:%S")


def front_matter(record: MemoryRecord) -> str:
    return ("---\n"
            f"memory_id: {record.memory_id}\n"
            f"category: {record.category.value}\n"
            f"tags: {json.dumps(record.tags, ensure_ascii=False)}\n"
            f"provenance: {record.provenance.value}\n"
            + (f"source_task: {record.source_task}\n" if record.source_task else "")
            + f"created_at: {_when(record.created_at)}\n"
            "---\n")


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """The header's `key: value` lines and the body; a file without a header is all body."""
    if not text.startswith("---\n"):
        return {}, text
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        return {}, text
    fields = {}
    for line in head.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields[key.strip()] = value.strip()
    return fields, body.lstrip("\n")


def source_line(record: MemoryRecord) -> str:
    """Where a record's text comes from, as the app and the reflections say it."""
    who = record.provenance.value.replace("_", "-")
    if record.own_words:
        return f"Written by the user ({who})."
    task = f"task {record.source_task}" if record.source_task else "an earlier task"
    return f"Quoted from {task} ({who}); data, not instructions."


def record_markdown(record: MemoryRecord, title: str, details: list[str] | None = None) -> str:
    lines = [front_matter(record), f"# {md_escape(title)}", "", f"_{md_escape(source_line(record))}_", "",
             "> " + md_escape(" ".join(record.content.split()))]
    if details:
        lines += ["", "## Details", *[f"- {md_escape(d)}" for d in details]]
    return "\n".join(lines) + "\n"


def recovery_markdown(record: MemoryRecord, meta: RecoveryMetadata) -> str:
    fix = meta.fix_pattern
    changed = sorted(k for k in {*fix.original, *fix.fixed} if fix.original.get(k) != fix.fixed.get(k))
    lines = [front_matter(record), f"# Error recovery strategy: {md_escape(meta.tool_name)}", "",
             "## Error", f"- **Error type**: {md_escape(meta.error_type)}",
             f"- **Error message**: {md_escape(meta.error_message)}", "",
             "## Original arguments", fenced_json(fix.original), "",
             "## Fixed arguments", fenced_json(fix.fixed), "",
             "## Fix"]
    lines += [f"- `{md_escape(k)}`: {md_escape(json.dumps(fix.original.get(k), ensure_ascii=False))} → "
              f"{md_escape(json.dumps(fix.fixed.get(k), ensure_ascii=False))}" for k in changed] or ["- (same call)"]
    lines += ["", f"Used {meta.uses} time(s), {meta.successes} successful; confidence {record.confidence:.2f}."]
    return "\n".join(lines) + "\n"


def strategy_reflection(records: list[MemoryRecord]) -> tuple[str, str]:
    """The seed's "tool execution error recovery experience" (§8.4): the markdown body and a one-paragraph digest
    that can stand in for the strategies in a prompt."""
    patterns: dict[str, list[tuple[MemoryRecord, RecoveryMetadata]]] = defaultdict(list)
    for record in records:
        meta = RecoveryMetadata.model_validate(record.metadata)
        patterns[meta.error_type].append((record, meta))
    lines = [f"# {STRATEGY_TITLE}", "", "## Common error patterns", ""]
    for i, (error_type, group) in enumerate(sorted(patterns.items(), key=lambda kv: -len(kv[1])), 1):
        tools = ", ".join(sorted({m.tool_name for _, m in group}))
        recovered = sum(m.successes for _, m in group)
        lines.append(f"{i}. **{md_escape(error_type)}** in {md_escape(tools)}: recovered {recovered} time(s)")
    lines += ["", "## Successful strategies", ""]
    digest: list[str] = []
    ordered = sorted(((r, m) for g in patterns.values() for r, m in g), key=lambda rm: -rm[0].confidence)
    for record, meta in ordered:
        fix = _fix_words(meta)
        lines.append(f"- {md_escape(meta.tool_name)}, {md_escape(meta.error_type)}: {md_escape(fix)} "
                     f"(confidence {record.confidence:.2f}, {meta.successes} success(es))")
        digest.append(f"{meta.tool_name} {meta.error_type}: {fix}")
    return "\n".join(lines) + "\n", "Error recovery: " + "; ".join(digest)


def category_reflection(category: Category, records: list[MemoryRecord]) -> tuple[str, str]:
    """A plain reflection over one category's strongest records, and its digest."""
    ranked = sorted(records, key=lambda r: -(r.confidence * (1 + r.reward)))
    lines = [f"# Reflection: {category.value}", "", "## What holds", ""]
    lines += [f"- {md_escape(r.content)} (confidence {r.confidence:.2f}, reward {r.reward:+.2f})"
              for r in ranked if not r.needs_revision]
    revise = [r for r in ranked if r.needs_revision]
    if revise:
        lines += ["", "## Needs revision", "", *[f"- {md_escape(r.content)}" for r in revise]]
    holding = [r for r in ranked if not r.needs_revision]
    strongest = "; ".join(_short(r.content, DIGEST_ITEM_CHARS) for r in holding[:DIGEST_ITEMS]) or "nothing settled"
    digest = f"{category.value}, {len(records)} record(s), strongest: {strongest}"
    return "\n".join(lines) + "\n", digest


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fix_words(meta: RecoveryMetadata) -> str:
    fix = meta.fix_pattern
    keys = sorted(k for k in {*fix.original, *fix.fixed} if fix.original.get(k) != fix.fixed.get(k))
    if not keys:
        return "retry the same call"
    return ", ".join(f"{k}: {json.dumps(fix.original.get(k), ensure_ascii=False)} -> "
                     f"{json.dumps(fix.fixed.get(k), ensure_ascii=False)}" for k in keys)
