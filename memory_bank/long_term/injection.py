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
MIN_SUMMARY_CHARS = 60


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
    dropped: list[tuple[str, Category]] = []
    for hit in ordered:
        line = _line(hit.record)
        if estimate_tokens(_render([*lines, line])) <= budget_tokens:
            lines.append(line)
            items.append(InjectedItem(memory_id=hit.record.memory_id, category=hit.record.category,
                                      tier=tier(hit.record), score=hit.score, text=line, why=_why(hit)))
        else:
            dropped.append((hit.record.memory_id, hit.record.category))
    for category in dict.fromkeys(c for _, c in dropped):
        summary = summaries.get(category)
        if summary is not None:
            _summarise(summary, lines, items, dropped, budget_tokens)
    block = _render(lines) if lines else ""
    return Injection(query=query, analysis=analysis, budget_tokens=budget_tokens, tokens=estimate_tokens(block),
                     block=block, items=items, dropped=[memory_id for memory_id, _ in dropped])


def _summarise(summary: MemoryRecord, lines: list[str], items: list[InjectedItem],
               dropped: list[tuple[str, Category]], budget_tokens: int) -> None:
    """Put the category's L3 summary in for its records that did not fit, dropping the category's
    lowest-weight experience items to make room; when it cannot fit even then, nothing changes."""
    category = summary.category
    removable = [i for i, item in enumerate(items) if item.category is category and item.tier == 3]
    removed: list[int] = []

    def fits(line: str) -> bool:
        return estimate_tokens(_render([x for j, x in enumerate(lines) if j not in removed] + [line])) <= budget_tokens

    line = _line(summary)
    while not fits(line) and removable:
        removed.append(removable.pop())  # within a tier the lowest score comes last
    if not fits(line):  # still too long: the summary's opening, as much as fits
        over = estimate_tokens(_render([x for j, x in enumerate(lines) if j not in removed] + [line])) - budget_tokens
        keep = len(summary.content) - chars_for_tokens(over) - 1
        if keep < MIN_SUMMARY_CHARS:
            return
        line = _line(summary, summary.content[:keep] + "…")
        if not fits(line):
            return
    for j in sorted(removed, reverse=True):
        dropped.append((items.pop(j).memory_id, category))
        lines.pop(j)
    n = sum(1 for _, c in dropped if c is category)
    lines.append(line)
    items.append(InjectedItem(memory_id=summary.memory_id, category=category, tier=3, score=0.0, text=line,
                              as_summary=True,
                              why=f"L3 summary standing in for {n} {category.value} record(s) over budget"))
