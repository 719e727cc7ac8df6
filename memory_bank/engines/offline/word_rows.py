"""A figure whose row is labelled by one word: "Restructuring" among the operating expenses, "Inventories" under
"Current assets:" on the balance sheet.

A one-word label is named by too many questions to count as named alone (`table_rows.names_label` wants its
heading's words too: "iPhone net sales"), and a table split over pages leaves the rows after the break with no
heading at all. So a question asking one figure for a year ("How much did Oracle record in restructuring expenses
in fiscal 2023?", "What inventories did Apple report on its balance sheet at the end of fiscal 2022?") that no row
of a longer label answers is read against the one-word rows it says, in tables that also say what else it narrows
the figure by ("expenses" of "Total operating expenses", "balance sheet" of the statement's title): the row whose
table says most of that, then the value most tables agree on. A one-word row whose table says none of the
question's other words (a cash-flow statement's "Inventories" change) is not the figure asked.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ...text.tokens import STOPWORDS, bare_stems, stems
from ..protocol.figures import MAX_NAMED, NamedRow, TableIndex, plain_value
from ..protocol.table_rows import MIN_LABEL_STEMS, QUALIFIERS, TableRowRef, asked_years

# words that narrow no figure: how it is asked, the unit it is asked in, the period's name
_ASKING = frozenset(bare_stems("how much many what which was were is are did does do have has had fiscal year years "
                               "annual amount figure report reported record recorded million millions billion "
                               "billions thousand thousands dollar dollars end carry carried carrying hold held "
                               "show shows showed book booked"))


def word_rows(question: str, tables: TableIndex) -> list[NamedRow]:
    """The one-word rows the question names with an asked year in tables that say all its other words, the value
    most tables agree on first, then in document order; [] when the question names no year."""
    asked = frozenset(stems(question))
    if not asked_years(asked):
        return []
    filed: set[str] = set()
    found: list[tuple[int, NamedRow]] = []
    for place, (entry, node_ids) in enumerate(tables.view.table_entries()):
        said: frozenset[str] | None = None
        for line, row in tables.rows_of(entry).items():
            if not _one_word(row, asked):
                continue
            cells = [(c, v) for c, v in row.values_for(asked) if v.strip()]
            if not cells:
                continue
            if said is None:
                source = str(entry.metadata.get("source", ""))
                filed = bare_stems(re.sub(r"[\W\d_]+", " ", source))
                said = frozenset(bare_stems(" ".join((entry.text, *entry.section))))
            if _narrowing(question, row, filed) <= said:
                found.append((place, NamedRow(entry, node_ids[0], line, row, *cells[0], also=tuple(cells[1:]))))
        if len(found) >= MAX_NAMED:
            break
    # tables (entries) giving each value under its column, as `figures.named_rows` counts them
    agreed = Counter((column, value) for _, column, value in {(r.entry.entry_id, r.column, plain_value(r.value))
                                                              for _, r in found})
    ranked = [(place, replace(r, agree=agreed[(r.column, plain_value(r.value))])) for place, r in found]
    return [r for _, r in sorted(ranked, key=lambda f: (-f[1].agree, f[0]))]


def _one_word(row: TableRowRef, asked: frozenset[str]) -> bool:
    """A row of one word the question says, a word that names something ("Restructuring"; not "Other", "Total"),
    with or without a "net" or "total" the question leaves out ("Goodwill, net")."""
    core = row.label - QUALIFIERS
    return (0 < len(core) < MIN_LABEL_STEMS and core <= asked and not core & (STOPWORDS | _ASKING)
            and bool(row.cells))


def _narrowing(question: str, row: TableRowRef, filed: set[str]) -> set[str]:
    """The question's words beyond the row's label, its years, the filer's name and the words of asking."""
    return {w for w in bare_stems(question) if w not in STOPWORDS and not w.isdigit()} - set(row.label) \
        - filed - _ASKING - QUALIFIERS
