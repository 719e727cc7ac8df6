"""Table rows as evidence: a question that names a row and one of its columns is answered by that row.

"What were Oracle's total revenues in fiscal 2023?" names the row "Total revenues" and the column "2023"; the row
"Total revenues | 2023: $49,954 | 2022: $42,440 (millions)" covers few of the question's words and loses to the
discussion sentences that repeat them, so a row whose whole label the question says, in a table with a column
the question says, counts as covering the question. The row's label and the columns come typed from the raw
entry's metadata (written at ingestion), never parsed back from the row's text; metadata from an imported file
is checked and bounded here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...text.tokens import stems

QUALIFIERS = frozenset({"net", "total"})  # stems a question may leave out of a row's label
MIN_LABEL_STEMS = 2  # "Total" alone is named by too many questions
MAX_ROWS = 5_000
MAX_TEXT = 2_000
MAX_CELLS = 64
YEAR = re.compile(r"^(?:19|20)\d\d$")
# the words of a unit's exception that say no kind of figure ("except per share data", "... amounts")
_EXCEPTION_FILLER = frozenset({"and", "amounts", "data", "which", "are", "reflected", "in", "number", "of"})
_NOTE_MARKS = re.compile(r"(?:\s*\(\d{1,2}\))+\s*$")  # "iPhone (1)", "Wearables, … (1)(2)": a footnote's marks


@dataclass(frozen=True)
class TableRowRef:
    label: frozenset[str]  # the row label's stems
    columns: frozenset[str]  # the stems of the table's column headers
    name: str = ""  # the row label as printed ("Total revenues")
    cells: tuple[tuple[str, str], ...] = ()  # (column header, value) for each value the row has
    unit: str = ""  # "millions", "Dollars in millions" ...; "" when the table states none
    group: frozenset[str] = frozenset()  # the stems of the row of no values heading it ("Net sales by category:")
    # a one-word label whose heading came written into it ("Total Revenues by Geography: Americas"): the stems of
    # its own word, and of what the heading measures ("revenues"; not what it is broken down "by")
    own: frozenset[str] = frozenset()
    measure: frozenset[str] = frozenset()
    # a list of one measure's figures: one column, headed by words, not a year ("approximate employee counts" over
    # "Research and development 47,000", "Hardware 3,000"); named by its header's words whatever year the question
    # dates them by (a statement's "Number of Shares" is one column of many: its rows are named by their year)
    listed: bool = False

    def row_unit(self) -> str:
        """The unit of this row's figures: a table's "millions, except number of shares which are reflected in
        thousands and per share amounts" is "millions" for its revenue row, "thousands" for its shares row and
        no unit for its per-share row (a reader is told the unit of the figure in front of them). A row of
        percentages has none either: "Effective tax rate, 2022: 16.2%" is no figure "(dollars in millions)"."""
        values = [v for _, v in self.cells if v.strip()]
        if values and all(v.rstrip().endswith("%") for v in values):
            return ""
        main, _, exception = self.unit.partition(", except ")
        if not exception:
            return self.unit
        name = self.name.lower()
        if re.search(r"\bshares\b", name) and "shares" in exception:
            return next((u for u in ("thousands", "millions", "billions") if u in exception), main)
        if "per share" in name:
            return "" if "per share" in exception else main
        words = [w for w in re.findall(r"[a-z]+", exception) if w not in _EXCEPTION_FILLER]
        return "" if words and all(w in name for w in words) else main

    def values_for(self, asked: frozenset[str]) -> list[tuple[str, str]]:
        """The (column, value) cells of the columns the question names: by year when it names one ("2023" in
        "fiscal 2023"; "September 25, 2021" is not named by "September 24, 2022"), else by any word; a listed
        measure's by its words."""
        years = asked_years(asked)
        wanted = years if years and not self.listed else asked
        return [(c, v) for c, v in self.cells if set(stems(c)) & wanted]


def table_rows(metadata: dict[str, Any]) -> dict[str, TableRowRef]:
    """Row line (whitespace-normalised) -> its label, columns and cells, for a table entry; {} for anything
    else. Entries written before cells were kept ([line, label] pairs) still give their labels and columns."""
    rows, columns = metadata.get("rows"), metadata.get("columns")
    if not isinstance(rows, list) or not isinstance(columns, list):
        return {}
    heads = frozenset(s for c in columns[:MAX_CELLS] if isinstance(c, str) for s in stems(c[:MAX_TEXT]))
    listed = len(columns) == 1 and bool(heads) and not asked_years(heads)
    out: dict[str, TableRowRef] = {}
    group = ""  # "Net sales by category:": a row of no values that heads the one-word rows under it
    for row in rows[:MAX_ROWS]:
        if not (isinstance(row, list) and 2 <= len(row) <= 4 and all(isinstance(x, str) for x in row[:2])):
            continue
        cells = _cells(row[2]) if len(row) > 2 else ()
        unit = row[3][:MAX_TEXT] if len(row) > 3 and isinstance(row[3], str) else ""
        name = _NOTE_MARKS.sub("", row[1][:MAX_TEXT]) or row[1][:MAX_TEXT]
        if not cells:
            group = name if name.endswith(":") else ""
        label = frozenset(stems(name))
        grouped = bool(cells and group and len(label) < MIN_LABEL_STEMS)  # "iPhone" under "Net sales by category:"
        out[row[0]] = TableRowRef(label, heads, f"{group} {name}" if grouped else name, cells, unit,
                                  frozenset(stems(group)) if grouped else frozenset(),
                                  *(_own(name) if cells else (frozenset(), frozenset())),
                                  listed=listed and len(cells) == 1)
    return out


def _own(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(own, measure): the stems of a row's one-word label whose heading came written into it, and of what the
    heading measures ("Total Revenues by Geography: Americas" -> {"america"}, {"revenu"}); both empty for any
    other row, or a heading that measures nothing but a total."""
    heading, colon, own = name.rpartition(": ")
    label = frozenset(stems(own))
    measure = frozenset(stems(re.split(r"\s+by\s+", heading, maxsplit=1)[0])) - QUALIFIERS
    if not (colon and measure and 0 < len(label) < MIN_LABEL_STEMS):
        return frozenset(), frozenset()
    return label, measure


def _cells(value: Any) -> tuple[tuple[str, str], ...]:
    """[[column, value], ...] from metadata (an import's included): anything else shaped is dropped."""
    if not isinstance(value, list):
        return ()
    return tuple((c[:MAX_TEXT], v[:MAX_TEXT]) for pair in value[:MAX_CELLS]
                 if isinstance(pair, list) and len(pair) == 2 for c, v in [pair]
                 if isinstance(c, str) and isinstance(v, str))


def names_label(asked: frozenset[str], row: TableRowRef | None) -> bool:
    """The question says the row's whole label, two words or more ("total revenues"); a reader leaves out the
    "net" or "total" of a longer one ("How much cash did operating activities provide?" names "Net cash
    provided by operating activities")."""
    if row is None:
        return False
    if len(row.label) < MIN_LABEL_STEMS:  # "iPhone" is named with its group's words: "iPhone net sales"; in a
        # table of one date's figures, with its header's ("Hardware" under "approximate employee counts")
        kind = row.group | (row.columns if row.listed else frozenset())
        return bool(row.label) and row.label <= asked and bool((kind - QUALIFIERS) & asked)
    if row.own and row.own <= asked and row.measure <= asked:
        return True  # so is one whose heading came written in: "revenues in the Americas", not "by geography"
    core = row.label - QUALIFIERS
    return row.label <= asked or (len(core) >= MIN_LABEL_STEMS and core <= asked)


def names_row(asked: frozenset[str], row: TableRowRef | None) -> bool:
    """The question says the row's whole label (two words or more) and one of the table's columns (its year):
    a question that names no column is no question for one cell."""
    return names_label(asked, row) and bool(row.columns & asked)  # type: ignore[union-attr]


def asked_years(asked: frozenset[str]) -> frozenset[str]:
    """The years a question names ("fiscal 2020"): the columns a filing's tables are headed by."""
    return frozenset(s for s in asked if YEAR.match(s))
