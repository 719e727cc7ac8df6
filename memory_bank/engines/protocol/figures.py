"""A figure asked for by its row and year: which table rows name it, and which value the document stands by.

"What were Oracle's total revenues in fiscal 2023?" is named by the "Total revenues" row of five tables: the
consolidated statement of operations, the segment note, the geography note ... and by the "Total revenues" rows
of the hardware and services segments' own tables, which hold those segments' totals. A filing repeats its
headline figure in every table that carries it, while a segment's subtotal appears once or twice, so the rows
are ordered by how many tables agree on the value under the asked column (a deduction's brackets aside), then by
how much of the question the label says ("Payments for acquisition of property, plant and equipment" before
"Property, plant and equipment, net"), then in document order, except that among rows of one label the
consolidated statements' comes first. The same
order brings table nodes into the memory block and picks the figure the offline answer states.

A question that names a row's label and a year none of those rows has a column for ("capital expenditures in
fiscal 2020" of a filing whose tables cover 2021-2023) is a near miss the tables can say plainly: `missing_years`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ...memory.interaction_tree import InteractionEntry
from ...retrieval.view import MemoryView
from ...text.statement_terms import label_terms
from ...text.tokens import stems
from .table_rows import MIN_LABEL_STEMS, QUALIFIERS, TableRowRef, asked_years, names_label, names_row, table_rows

_STATEMENT = re.compile(r"\bconsolidated\s+(?:statements?\s+of|balance\s+sheets?)\b", re.IGNORECASE)
# what sets the things a comparison names apart ("A or B", "A compared with B", "which grew faster: A or B");
# not "and", which joins the words of one label ("research and development")
_COMPARED = re.compile(r"\b(?:or|versus|vs\.?|than|against|compared?\s+(?:with|to))\b|[:;]", re.IGNORECASE)
MAX_NAMED = 200  # named rows weighed per question (a filing has a few thousand rows, a question names a handful)


@dataclass(frozen=True)
class NamedRow:
    """A table row the question names by label and column, with the value under that column."""

    entry: InteractionEntry
    node_id: str
    line: str  # the row as the block shows it ("Total revenues | 2023: 49,954 | 2022: 42,440 (millions)")
    row: TableRowRef
    column: str
    value: str
    agree: int = 1  # tables (entries) whose named rows give this value under this column
    also: tuple[tuple[str, str], ...] = ()  # the other columns the question names ("in fiscal 2023 and 2022")

    def shown(self) -> str:
        """The row's line as an answer lists it, in the row's own unit ("Total revenues | 2023: 49,954 | 2022:
        42,440 (millions)", not the table's whole "(millions, except per share data)")."""
        unit = self.row.unit
        if not unit or not self.line.endswith(f"({unit})"):
            return self.line
        own = self.row.row_unit()
        return self.line[: -len(unit) - 2].rstrip() + (f" ({own})" if own else "")

    def statement(self) -> str:
        """'Total revenues, 2023: $49,954; 2022: $42,440 (millions)': the figure with its row label, each asked
        year and the unit."""
        unit = "" if self.value.rstrip().endswith("%") else self.row.row_unit()  # a rate is in no "millions"
        cells = "; ".join(f"{column}: {value}" for column, value in ((self.column, self.value), *self.also))
        return f"{self.row.name}, {cells}" + (f" ({unit})" if unit else "")


Tables = Iterable[tuple[InteractionEntry, tuple[str, ...]]]
RowsOf = Callable[[InteractionEntry], dict[str, TableRowRef]]


_MEASURES = frozenset(stems("sales revenue revenues income expense expenses cost costs"))  # what, not whose


def named_rows(asked: frozenset[str], tables: Tables, rows_of: RowsOf) -> list[NamedRow]:
    """Every row the question names with a value under a named column, most agreed-on value first."""
    dated = bool(asked_years(asked)) or any(s.isdigit() for s in asked)
    found: list[NamedRow] = []
    for entry, node_ids in tables:
        for line, row in rows_of(entry).items():
            if not (dated or row.listed):
                continue  # a row is named with its column, in practice a year; a listed measure's by its words
            cells = [(column, value) for column, value in row.values_for(asked) if value.strip()]
            if cells and names_row(asked, row):
                found.append(NamedRow(entry, node_ids[0], line, row, *cells[0], also=tuple(cells[1:])))
        if len(found) >= MAX_NAMED:
            break
    votes = Counter((r.column, plain_value(r.value)) for r in {(r.entry.entry_id, r.column, plain_value(r.value)): r
                                                          for r in found}.values())
    ranked = [replace(r, agree=votes[(r.column, plain_value(r.value))]) for r in found]
    order = {id(r): i for i, r in enumerate(ranked)}
    first: dict[tuple[int, frozenset[str]], int] = {}  # a label's first place among rows as agreed on as it
    for r in ranked:
        first.setdefault((r.agree, r.row.label), order[id(r)])
    # a row named by more of the question's words comes first, however many tables repeat a broader one: "total
    # revenues in the Americas" is the row "Total Revenues by Geography: Americas", not the total row; on a tie,
    # the one whose own label says more ("cloud services revenues": "Cloud services", not "…by Business: Services");
    # then a row of one date's figures whose header the question says in words ("how many employees … as of May
    # 31, 2023": the employee counts, not the research and development expense of every year's table)
    # what the figure is of comes before how many measure words a label shares: "revenue … from iPhone" is the
    # iPhone row, not "Total net sales" (which says more of "revenue" once it is read as net sales)
    return sorted(ranked, key=lambda r: (-len((r.row.label - QUALIFIERS - _MEASURES) & asked),
                                         -len((r.row.label | r.row.group) & asked), -len((r.row.own or r.row.label)
                                                                                         & asked),
                                         -(len(r.row.columns & asked) if r.row.listed else 0), -r.agree,
                                         first[(r.agree, r.row.label)], not _statement(r.entry), order[id(r)]))


def missing_years(asked: frozenset[str], tables: Tables, rows_of: RowsOf) -> tuple[str, list[str]] | None:
    """(row label, the years its tables do give) when the question names a row's label and a year, and no row
    of that label has a column for the year; None otherwise."""
    years = asked_years(asked)
    if not years:
        return None
    label, given = "", set()
    for entry, _ in tables:
        for row in rows_of(entry).values():
            if not names_label(asked, row) or row.label & years:
                continue  # a row labelled by the asked year ("Fiscal 2024" of a schedule) is no row asked for
            columns = [c for c, v in row.cells if v.strip()]
            if row.values_for(asked):
                return None  # some row does give it
            label = label or row.name
            given.update(y for c in columns for y in c.split() if y.isdigit() and len(y) == 4)
    return (label, sorted(given, reverse=True)) if label and given else None


def named_measures(asked: frozenset[str], tables: Tables, rows_of: RowsOf) -> set[frozenset[str]]:
    """The stems of every row label of two words or more (a "net" or "total" aside) that the question says in
    full: what the question measures ("gross margin percentage"), whichever table's member it names ("Mac")."""
    found: set[frozenset[str]] = set()
    for entry, _ in tables:
        found.update(core for row in rows_of(entry).values()
                     if len(core := row.label - QUALIFIERS) >= MIN_LABEL_STEMS and core <= asked)
    return found


def plain_value(value: str) -> str:
    """A value as compared across tables: "$49,954" and "49,954" agree, and so do an expense and the same
    expense shown as a deduction, "(8,623)", in a reconciliation."""
    return "".join(ch for ch in value if ch not in "$€£ ()−-")


def _statement(entry: InteractionEntry) -> bool:
    """Is the table one of the consolidated financial statements (the figures a filing stands by), not a note
    breaking a line item into parts (the stock-based compensation charged to research and development)?"""
    return any(_STATEMENT.search(title) for title in entry.section)


def label_rows(said: list[str], tables: Tables, rows_of: RowsOf, limit: int = 3,
               prefer: Callable[[TableRowRef], bool] | None = None, question: str = "") -> list[NamedRow]:
    """One row per label the question names (whole labels of two words or more), for comparing them: each the
    row most tables agree on (all its cells the same), labels in the order the question says them. A row is
    given with its first asked column (or its first column when the question names none). `said`: the
    question's stems in order; `prefer`: rows it holds true of come before more agreed-on ones (a growth question
    wants the table with the change column); `question`: its words, whose compared parts each name one label."""
    asked = frozenset(said)
    found: dict[frozenset[str], list[NamedRow]] = {}  # one label however printed: "Total revenues", "Totals: Revenues"
    for entry, node_ids in tables:
        for line, row in rows_of(entry).items():
            if names_label(asked, row) and row.cells:
                column, value = (row.values_for(asked) or list(row.cells))[0]
                found.setdefault(row.label, []).append(
                    NamedRow(entry, node_ids[0], line, row, column, value))
        if sum(map(len, found.values())) >= MAX_NAMED:
            break
    best: list[NamedRow] = []
    for rows in found.values():
        votes = Counter(_signature(r.row) for r in rows)
        top = max(rows, key=lambda r: (bool(prefer and prefer(r.row)), votes[_signature(r.row)]))
        best.append(NamedRow(top.entry, top.node_id, top.line, top.row, top.column, top.value,
                             votes[_signature(top.row)]))
    phrased = _phrased(best, question, prefer) or best
    best = sorted(phrased, key=lambda r: -len(r.row.label))[:limit]  # the labels that say most of the question
    where = {s: i for i, s in reversed(list(enumerate(said)))}
    return sorted(best, key=lambda r: min(where.get(s, len(said)) for s in r.row.label))


def _phrased(rows: list[NamedRow], question: str,
             prefer: Callable[[TableRowRef], bool] | None = None) -> list[NamedRow]:
    """One row per thing the question compares, each read within its own words: "cloud services revenues or
    license support revenues" names "Cloud services" and "License support", not "Cloud and license" (a word of
    each) nor "Cloud services and license support" (both together). In each compared part, the label saying most
    of it (the earliest on ties: "Cloud services" before "Services revenues"), one `prefer` holds true of first
    (a growth question wants the row with its change column). Empty when fewer than two parts name a label
    (one thing asked in two years, or a question worded apart from the labels)."""
    asked = frozenset(stems(question))
    out: list[NamedRow] = []
    for part in _COMPARED.split(question):
        words = stems(part)
        inside = [r for r in rows if r not in out and r.row.label & asked and r.row.label & asked <= set(words)]
        if inside:
            out.append(max(inside, key=lambda r: (bool(prefer and prefer(r.row)), len(r.row.label & set(words)),
                                                  -min(words.index(w) for w in r.row.label if w in words))))
    return out if len(out) > 1 else []


def _signature(row: TableRowRef) -> tuple[tuple[str, str], ...]:
    return tuple((c, plain_value(v)) for c, v in row.cells)


def change_of(row: TableRowRef) -> str | None:
    """The row's first change column's value when it is a percentage ("Change: 14%", "Percent Change Actual:
    18%"): the latest year's change, as filings print it right after that year's value."""
    for column, value in row.cells:
        if "change" in column.lower() and value.strip().endswith("%"):
            return value.strip()
    return None


_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_AMOUNT = re.compile(r"^\(?-?[$€£]?\s*\(?([\d,]+(?:\.\d+)?)\)?%?$")


def amount(value: str) -> float | None:
    """'$1,932' -> 1932.0, '(8,623)' -> -8623.0; None for anything but one plain amount."""
    text = value.strip().replace("−", "-")
    found = _AMOUNT.match(text)
    if found is None:
        return None
    number = float(found.group(1).replace(",", ""))
    return -number if text.startswith(("(", "-")) else number


def trend_of(row: TableRowRef) -> int | None:
    """+1 when the row's latest year is above the year before, -1 below, 0 level; None when the row gives no
    two years to compare. The printed change column decides first ("Change: (5)%"); two years both in
    parentheses are compared as the amounts the label names (an expense that grew from (2,755) to (3,505) rose)."""
    change = change_of(row)
    if change is not None and (moved := amount(change)) is not None:
        return (moved > 0) - (moved < 0)
    by_year = sorted(((int(y.group()), figure) for column, value in row.cells
                      if (y := _YEAR.search(column)) and (figure := amount(value)) is not None), reverse=True)
    if len(by_year) < 2 or by_year[0][0] == by_year[1][0]:
        return None
    latest, before = by_year[0][1], by_year[1][1]
    if latest < 0 and before < 0:  # "Interest expense (3,505) (2,755)": a statement shows what it deducts in
        latest, before = -latest, -before  # parentheses, and the row's label names the amount deducted
    return (latest > before) - (latest < before)


class TableIndex:
    """The memory's table rows for questions: each entry's rows typed and stemmed once (entries never change;
    every question reads them), and the look-ups above over the view's table entries. Shared by the memory block
    (which brings named rows' nodes in) and the offline answerer (which states their figures)."""

    def __init__(self, view: MemoryView) -> None:
        self.view = view
        self._rows: dict[str, dict[str, TableRowRef]] = {}  # entry id -> its rows

    def rows_of(self, entry: InteractionEntry) -> dict[str, TableRowRef]:
        rows = self._rows.get(entry.entry_id)
        if rows is None:
            rows = self._rows[entry.entry_id] = table_rows(entry.metadata)
        return rows

    def terms(self, question: str) -> list[str]:
        """The question's stems as rows are looked up by: its own words when they name some row's label ("cloud
        services revenues" names "Cloud services"), else widened by the statements' words for its everyday terms
        (`text/statement_terms.py`: "total debt" names "Total notes payable and other borrowings")."""
        said = stems(question)
        asked = frozenset(said)
        if any(names_label(asked, row) for entry, _ in self.view.table_entries()
               for row in self.rows_of(entry).values()):
            return said
        return label_terms(question)

    def named_rows(self, question: str) -> list[NamedRow]:
        """The rows `question` names by label and column, the most agreed-on value first."""
        return named_rows(frozenset(self.terms(question)), self.view.table_entries(), self.rows_of)

    def missing_years(self, question: str) -> tuple[str, list[str]] | None:
        """(row label, years given) when the question names a row and a year no table of that row has."""
        return missing_years(frozenset(self.terms(question)), self.view.table_entries(), self.rows_of)

    def named_measures(self, question: str) -> set[frozenset[str]]:
        """The row labels of two words or more that `question` says in full (`named_measures`)."""
        return named_measures(frozenset(self.terms(question)), self.view.table_entries(), self.rows_of)

    def label_rows(self, question: str, prefer: Callable[[TableRowRef], bool] | None = None) -> list[NamedRow]:
        """One row per label the question names, for a comparison (`label_rows`)."""
        return label_rows(self.terms(question), self.view.table_entries(), self.rows_of, prefer=prefer,
                          question=question)
