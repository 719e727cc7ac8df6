"""Find the numeric tables of a PDF page (financial statements, schedules) in its lines' word boxes.

pdfium gives a table as lines of a label followed by numbers, with the column headers (years) on lines of their
own far above and the unit in a caption; read as prose, a number ends up far from its label and its year. A row
here is one line: a label, a wide gap, then values right-aligned under columns found by the overlap of the
values' spans across the table's rows (`pdf_table_cells`); the header lines, caption and unit above name them
(`pdf_table_headers`). Only what the geometry shows is kept: a table needs two rows of values in a run of lines
without prose between them, and everything is bounded (columns, rows, header lines), whatever the page holds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .document import Table, TableRow
from .pdf_layout import Line, PageMetrics, page_metrics, starts_paragraph
from .pdf_table_cells import (
    GAP_SHARE,
    MAX_ROWS,
    UNIT,
    Columns,
    Parsed,
    column_of,
    find_columns,
    is_value,
    parse_row,
    segments,
)
from .pdf_table_headers import caption_text, header_pieces, is_short, read_caption, read_headers, read_unit
from .pdf_value_pairs import find_pair_tables

MAX_COLUMNS = 24  # a "table" wider than this is not one a reader follows across; its lines stay text
MIN_ROWS = 2
MAX_LABEL_LINES = 3  # label-only lines (sub-headers, wrapped labels) in a row inside a table
MAX_SECTION_WORDS = 30  # a longer label-only line is prose between two tables


@dataclass
class _Region:
    start: int
    rows: list[int]  # indexes of lines in the region, value rows and label-only lines
    left: float  # where the value columns begin


def find_tables(lines: list[Line]) -> list[tuple[int, int, Table]]:
    """(first line, last line, table) for each table on the page, in order; lines first..last are the table's
    (caption, unit and header lines included)."""
    metrics = page_metrics(lines)
    if metrics is None or not any(line.words for line in lines):
        return []
    pairs = find_pair_tables(lines, metrics)  # their lines are no other table's: a row starts with its label
    paired = {i for first, last, _ in pairs for i in range(first, last + 1)}
    parsed = [Parsed(line.text, ()) if i in paired else parse_row(line, GAP_SHARE * metrics.line_height)
              for i, line in enumerate(lines)]
    out: list[tuple[int, int, Table]] = []
    floor = 0  # lines above this belong to the previous table
    index = 0
    while index < len(lines):
        region = _grow(lines, parsed, index, metrics)
        if region is None:
            index += 1
            continue
        built = _build(lines, parsed, region, floor, metrics)
        if built is not None:
            if not built[2].unit and out and out[-1][2].unit:  # "(in millions)" said once for the page's tables
                built = (built[0], built[1], replace(built[2], unit=out[-1][2].unit))
            out.append(built)
            floor = built[1] + 1
        index = region.rows[-1] + 1
    return sorted(out + pairs, key=lambda found: found[0])


def _grow(lines: list[Line], parsed: list[Parsed], start: int, metrics: PageMetrics) -> _Region | None:
    """The run of rows from `start`: value rows, and label-only lines left of the values between them."""
    first = parsed[start]
    if not first.is_row or lines[start].box is None or not (first.label or len(first.cells) > 1):
        return None
    height = metrics.line_height
    region = _Region(start, [start], min(c.left for c in first.cells))
    waiting: list[int] = []
    for index in range(start + 1, min(len(lines), start + MAX_ROWS)):
        line, prev, row = lines[index], lines[(waiting or region.rows)[-1]], parsed[index]
        if line.box is None or prev.box is None:
            break
        gap = prev.box.bottom - line.box.top
        if gap > 3.5 * height or gap < -0.5 * height:
            break
        if row.is_row and (row.label or row.cells[0].right > region.left):
            region.rows.extend(waiting)
            region.rows.append(index)
            region.left = min(region.left, *(c.left for c in row.cells))
            waiting = []
        elif (not row.cells and len(waiting) < MAX_LABEL_LINES and _is_section(line)
              and (line.box.right < region.left - 2 or line.text.endswith(":")) and line.box.left < region.left):
            waiting.append(index)
        else:
            break
    if sum(1 for i in region.rows if parsed[i].cells) < MIN_ROWS:
        return None
    while region.start > max(0, start - MAX_LABEL_LINES) and _heads_rows(lines, parsed, region, metrics):
        region.start -= 1
        region.rows.insert(0, region.start)
    return region


def _is_section(line: Line) -> bool:
    """A label-only line that can sit between rows: not a sentence, not the "(in millions):" intro of another
    table."""
    return len(line.words) <= MAX_SECTION_WORDS and not line.text.endswith(".") and not UNIT.search(line.text)


def _heads_rows(lines: list[Line], parsed: list[Parsed], region: _Region, metrics: PageMetrics) -> bool:
    """Whether the line above the region is a section row of the table ("Operating activities:", "ASSETS", a
    label under the header), not the last line of the prose that introduces the table."""
    index = region.start - 1
    line, below = lines[index], lines[index + 1]
    if parsed[index].cells or line.box is None or below.box is None or line.box.right >= region.left - 2:
        return False
    above = lines[index - 1] if index > 0 else None
    under_header = above is not None and (parsed[index - 1].is_years or (
        not parsed[index - 1].cells and header_pieces(above, region.left, metrics.line_height) is not None))
    section = line.text.endswith(":") or (line.text.isupper() and len(line.text.split()) <= 4) or under_header
    alone = (above is None or is_short(above, metrics) or starts_paragraph(above, line, metrics)
             or len(segments(above, GAP_SHARE * metrics.line_height)) > 1)  # a header row, not prose
    return (section and alone and _is_section(line)
            and line.box.bottom - below.box.top <= 2.5 * below.box.height)


def _build(lines: list[Line], parsed: list[Parsed], region: _Region, floor: int,
           metrics: PageMetrics) -> tuple[int, int, Table] | None:
    cells = [c for i in region.rows for c in parsed[i].cells]
    columns = find_columns(cells)
    if len(columns) > MAX_COLUMNS:
        return None
    placed = [column_of(c, columns) for c in cells]
    numeric = [2 * sum(is_value(c.text) for c, k in zip(cells, placed) if k == column) >= placed.count(column)
               for column in range(len(columns))]
    head_first, headers, head_texts = read_headers(lines, parsed, region.start, floor, columns, numeric, metrics)
    first, caption, nearby = read_caption(lines, head_first, floor, metrics)
    rows = _rows([(parsed[i], lines[i]) for i in region.rows], columns)
    table = Table(caption_text([*caption, *head_texts]), tuple(headers), tuple(rows),
                  read_unit([*head_texts, *nearby, *caption]))
    return first, region.rows[-1], table


def _rows(items: list[tuple[Parsed, Line]], columns: Columns) -> list[TableRow]:
    """One row per value line; a label-only line is a section row with empty cells, or, when it does not end
    in ":" and the next line continues it (lower-case or indented under it), the first part of that label."""
    rows: list[TableRow] = []
    carried = ""
    for index, (row, line) in enumerate(items):
        if not row.cells:
            after = items[index + 1] if index + 1 < len(items) else None
            if after is not None and after[0].cells and _continues(line, after[1], after[0].label):
                carried = f"{carried} {row.label}".strip()
                continue
            rows.append(TableRow(f"{carried} {row.label}".strip(), ("",) * len(columns)))
            carried = ""
            continue
        cells = [""] * len(columns)
        for cell in row.cells:
            column = column_of(cell, columns)
            cells[column] = f"{cells[column]} {cell.text}".strip()
        rows.append(TableRow(f"{carried} {row.label}".strip(), tuple(cells)))
        carried = ""
    return _disambiguated(rows)


def _disambiguated(rows: list[TableRow]) -> list[TableRow]:
    """A value row whose label repeats in its table ("Other" under operating, investing and financing
    activities) is prefixed with the section line above it, so that the row read alone still says which one it
    is; section lines stay rows of their own, and unique labels stay as printed (bench/table_extraction.py
    measures the three choices)."""
    counts = Counter(row.label for row in rows if any(row.cells))
    out: list[TableRow] = []
    section = ""
    for row in rows:
        if not any(row.cells):
            section = row.label
        elif section and counts[row.label] > 1:
            row = TableRow(f"{section} {row.label}", row.cells)
        out.append(row)
    return out


def _continues(line: Line, after: Line, label: str) -> bool:
    if line.text.rstrip().endswith(":") or not label:
        return False
    indented = line.box is not None and after.box is not None and after.box.left > line.box.left + 1
    return label[:1].islower() or indented
