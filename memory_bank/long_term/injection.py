"""The <long_term> block (seed 004 §7): the top records in the seed's priority, never over the token budget.

Priority: 1. explicit preferences and constraints, 2. high-reward strategies, 3. recent relevant experience (the
score already holds the decay, so recent ranks first). Within a tier the score decides. An item that does not fit
is dropped; the records of a category that were dropped are then represented by that category's L3 summary when
one exists and fits. Record text is escaped, so a record cannot close the block or forge a tool call.
"""

from __future__ import annotations

from ..engines.protocol.escaping import escape_tags
from ..text.tokens import chars_for_tokens, estimate_tokens
from .index import Scored, reward_factor
from .models import Category, InjectedItem, Injection, MemoryRecord, QueryAnalysis

OPEN, CLOSE = "<long_term>", "</long_term>"
HEADER = "What earlier tasks taught about this user and this kind of work (use when it applies):"
HIGH_REWARD = 0.25
ITEM_CHARS = 600


def tier(record: MemoryRecord) -> int:
    if record.category is Category.PREFERENCE or "constraint" in record.tags:
        return 1
    if record.category is Category.STRATEGY and record.reward >= HIGH_REWARD:
        return 2
    return 3


def _line(record: MemoryRecord, text: str | None = None) -> str:
    label = record.category.value + (f"/{record.subcategory}" if record.subcategory else "")
    body = " ".join((text or record.content).split())
    if len(body) > ITEM_CHARS:
        body = body[: ITEM_CHARS - 1] + "…"
    return f"- [{escape_tags(label)}] {escape_tags(body)} ({record.memory_id}, confidence {record.confidence:.2f})"


def _why(hit: Scored) -> str:
    r = hit.record
    return (f"tier {tier(r)}; relevance {hit.relevance:.2f} x confidence {r.confidence:.2f} x reward "
            f"{reward_factor(r.reward):.2f} x decay {hit.decay:.2f} = {hit.score:.3f}")


def _render(lines: list[str]) -> str:
    return "\n".join([OPEN, HEADER, *lines, CLOSE])


def build_injection(query: str, analysis: QueryAnalysis, hits: list[Scored], summaries: dict[Category, MemoryRecord],
                    budget_tokens: int) -> Injection:
    ordered = sorted(hits, key=lambda h: (tier(h.record), -h.score))
    lines: list[str] = []
    items: list[InjectedItem] = []
    dropped: list[Scored] = []
    for hit in ordered:
        line = _line(hit.record)
        if estimate_tokens(_render([*lines, line])) <= budget_tokens:
            lines.append(line)
            items.append(InjectedItem(memory_id=hit.record.memory_id, category=hit.record.category,
                                      tier=tier(hit.record), score=hit.score, text=line, why=_why(hit)))
        else:
            dropped.append(hit)
    for category in dict.fromkeys(h.record.category for h in dropped):
        summary = summaries.get(category)
        if summary is None:
            continue
        room = chars_for_tokens(budget_tokens) - len(_render(lines)) - 1
        line = _line(summary)
        if room < 80:
            break
        if len(line) > room:
            line = _line(summary, summary.content[: max(0, room - (len(line) - len(summary.content)) - 1)])
        if estimate_tokens(_render([*lines, line])) <= budget_tokens:
            lines.append(line)
            n = sum(1 for h in dropped if h.record.category is category)
            items.append(InjectedItem(memory_id=summary.memory_id, category=category, tier=3, score=0.0,
                                      text=line, as_summary=True,
                                      why=f"L3 summary standing in for {n} {category.value} record(s) over budget"))
    block = _render(lines) if lines else ""
    return Injection(query=query, analysis=analysis, budget_tokens=budget_tokens, tokens=estimate_tokens(block),
                     block=block, items=items, dropped=[h.record.memory_id for h in dropped])
