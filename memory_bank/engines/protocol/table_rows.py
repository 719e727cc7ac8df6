"""Table rows as evidence: a question that names a row and one of its columns is answered by that row.

"What were Oracle's total revenues in fiscal 2023?" names the row "Total revenues" and the column "2023"; the row
"Total revenues | 2023: $49,954 | 2022: $42,440 (millions)" covers few of the question's words and loses to the
discussion sentences that repeat them, so a row whose whole label the question says, in a table with a column
the question says, counts as covering the question. The row's label and the columns come typed from the raw
entry's metadata (written at ingestion), never parsed back from the row's text; metadata from an imported file
is checked and bounded here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...text.tokens import stems

MIN_LABEL_STEMS = 2  # "Total" alone is named by too many questions
MAX_ROWS = 5_000
MAX_TEXT = 2_000


@dataclass(frozen=True)
class TableRowRef:
    label: frozenset[str]  # the row label's stems
    columns: frozenset[str]  # the stems of the table's column headers


def table_rows(metadata: dict[str, Any]) -> dict[str, TableRowRef]:
    """Row line (whitespace-normalised) -> its label and columns, for a table entry; {} for anything else."""
    rows, columns = metadata.get("rows"), metadata.get("columns")
    if not isinstance(rows, list) or not isinstance(columns, list):
        return {}
    heads = frozenset(s for c in columns[:64] if isinstance(c, str) for s in stems(c[:MAX_TEXT]))
    out: dict[str, TableRowRef] = {}
    for pair in rows[:MAX_ROWS]:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair):
            out[pair[0]] = TableRowRef(frozenset(stems(pair[1][:MAX_TEXT])), heads)
    return out


def names_row(asked: frozenset[str], row: TableRowRef | None) -> bool:
    """The question says the row's whole label (two words or more) and one of the table's columns (its year):
    a question that names no column is no question for one cell."""
    if row is None or len(row.label) < MIN_LABEL_STEMS or not row.label <= asked:
        return False
    return bool(row.columns & asked)
