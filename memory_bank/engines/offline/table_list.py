"""Items a table lists under a heading: "What gives rise to Apple's deferred tax assets?" is answered by the income
tax note's table, whose rows under "Deferred tax assets:" are the items (amortization and depreciation, accrued
liabilities and other reserves, …, tax credit carryforwards) and whose "Total deferred tax assets" closes them.

A filing gives many of its lists as a table's rows grouped under a heading row of no values. A question that says
every word of such a heading and names none of its rows asks what the group is made of (a question naming a row
asks for its figure, which the figure answer gives). The answer lists the rows in the table's order, each with its
first column's value, then the group's total; a question asking which is largest or smallest is told which.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...memory.interaction_tree import InteractionEntry
from ...memory.outline import VAGUE_KINDS
from ...memory.query_graph import Node
from ...text.asks import asked_part, listed_noun, open_kind
from ...text.tokens import stems
from ..protocol.figures import TableIndex, amount
from ..protocol.table_rows import TableRowRef, asked_years, names_label
from .answering import Answer
from .evidence import Evidence
from .figure_answer import entry_evidence
from .results import where

MIN_HEADING_STEMS = 2  # "Deferred tax assets:"; a one-word heading ("Level 2:") says too little to be asked by
MIN_ROWS = 2
MAX_ROWS = 20
# what a group is made of, asked without a kind of item ("What gives rise to its deferred tax assets?")
_MADE_OF = re.compile(r"\b(?:gives?\s+rise\s+to|make[s]?\s+up|made\s+up|consists?\s+of|compris\w*|"
                      r"components?\s+of|break\s*down|broken\s+down|goes\s+into|go\s+into)\b", re.IGNORECASE)
_TOTAL = re.compile(r"^\s*(?:total|less:|net\b)", re.IGNORECASE)
_LARGEST = re.compile(r"\b(?:largest|biggest|greatest|highest)\b", re.IGNORECASE)
_SMALLEST = re.compile(r"\b(?:smallest|least|lowest|fewest)\b", re.IGNORECASE)


@dataclass(frozen=True)
class TableGroup:
    heading: str  # "Deferred tax assets", as printed, without its colon
    rows: tuple[TableRowRef, ...]
    total: TableRowRef | None
    entry: InteractionEntry  # the table's entry
    node_id: str


def table_groups(tables: TableIndex) -> list[TableGroup]:
    """Every table's groups: a heading row of no values ending in a colon, the rows with values under it up to its
    total (or the next heading)."""
    out: list[TableGroup] = []
    for entry, nodes in tables.view.table_entries():
        heading, rows = "", []
        for row in [*tables.rows_of(entry).values(), None]:
            ends = row is None or not row.cells or _TOTAL.match(_own_name(row, heading))
            if ends and heading and len(rows) >= MIN_ROWS:
                total = row if row is not None and row.cells and _TOTAL.match(_own_name(row, heading)) else None
                out.append(TableGroup(heading, tuple(rows[:MAX_ROWS]), total, entry, nodes[0]))
            if row is None:
                break
            if not row.cells:
                heading, rows = (row.name.rstrip(": ") if row.name.endswith(":") else ""), []
            elif ends:
                heading, rows = "", []
            elif heading:
                rows.append(row)
    return out


def _own_name(row: TableRowRef, heading: str) -> str:
    """The row's label without its heading written into it ("Deferred tax assets: Other" -> "Other")."""
    prefix = f"{heading}:"
    return row.name[len(prefix):].strip() if heading and row.name.startswith(prefix) else row.name


def table_list(question: str, tables: TableIndex, extremes_of: str = "") -> Answer | None:
    """The rows of the table group whose heading the question says in full and none of whose rows it names.
    `extremes_of`: the whole question, when `question` is one part of it ("…, and which item was the biggest?")."""
    asked = frozenset(stems(asked_part(question)))
    made_of = _MADE_OF.search(question) is not None  # "What gives rise to …?", "What makes up …?"
    # else the kind of item asked for must be the heading's own noun ("Which deferred tax assets …?"): "What were
    # Apple's net sales in 2022?" asks the total's figure, "Which companies … compete with its cloud, license and
    # hardware offerings?" names "Cloud and license:" as a qualifier, "What drives the revenues of its services
    # business?" asks for causes
    kind = frozenset(stems(listed_noun(question) or open_kind(question) or "")) - VAGUE_KINDS
    best: tuple[int, TableGroup] | None = None
    for group in table_groups(tables):
        heading = frozenset(stems(group.heading))
        head = frozenset(stems(group.heading.split()[-1])) if group.heading.split() else frozenset()
        if len(heading) < MIN_HEADING_STEMS or not heading <= asked or not kind <= heading:
            continue
        if not made_of and not (kind and head <= kind):
            continue
        if any(names_label(asked, row) and row.label - heading for row in group.rows):
            continue  # "What were Apple's deferred tax assets for lease liabilities?": that row's figure
        if best is None or len(heading) > best[0]:
            best = (len(heading), group)
    if best is None:
        return None
    group = best[1]
    evidence = _evidence(group, tables.view.node(group.node_id))
    named = [c for c, _ in group.rows[0].values_for(asked)] if asked_years(asked) else []
    column = named[0] if named else group.rows[0].cells[0][0] if group.rows[0].cells else ""  # the asked year's
    unit = group.rows[0].row_unit()

    def figure(row: TableRowRef) -> str:
        return next((v for c, v in row.cells if c == column), "")

    said = ", ".join(part for part in (column, f"in {unit}" if unit else "") if part)  # "2022, in millions"
    lines = [f"- {_own_name(row, group.heading)}" + (f": {f}" if (f := figure(row)) else "") for row in group.rows]
    if group.total is not None and (f := figure(group.total)):
        lines.append(f"{_own_name(group.total, group.heading)}: {f}")
    extremes = extremes_of or question
    ranked = sorted((r for r in group.rows if _amount(r, column) is not None), key=lambda r: _amount(r, column) or 0)
    if ranked and asks_extreme(extremes):
        pick = ranked[0] if _SMALLEST.search(extremes) else ranked[-1]
        word = "smallest" if _SMALLEST.search(extremes) else "largest"
        lines.append(f"The {word}: {_own_name(pick, group.heading)} ({figure(pick)}).")
    text = (f"The documents list {len(group.rows)} {group.heading.lower()} ({where(evidence)})"
            + (f", figures for {said}" if said else "") + ":\n" + "\n".join(lines))
    return Answer(text, [evidence], 1.0)


def asks_extreme(question: str) -> bool:
    """Does the question ask which item is the largest or the smallest?"""
    return bool(_LARGEST.search(question) or _SMALLEST.search(question))


def _amount(row: TableRowRef, column: str) -> float | None:
    return amount(next((v for c, v in row.cells if c == column), ""))


def _evidence(group: TableGroup, node: Node) -> Evidence:
    """The citation of a group: its heading as the quote, from the table's entry and place."""
    return entry_evidence(f"{group.heading}:", group.entry, group.node_id, node)
