"""What names a PDF table's columns and numbers: its header lines, caption and unit.

pdfium gives a stacked header ("September 24," over "2022") as lines of their own, often one per word, in no
useful order, so header pieces are placed by where they sit: grouped into levels by height, each piece given to
the column under it. A piece centred over several columns ("Three Months Ended") prefixes them all; one over
every column ("Years ended") is the caption's, unless it carries a year ("2022" over a whole table).
"""

from __future__ import annotations

import re

from .pdf_layout import Line, PageMetrics, starts_paragraph
from .pdf_table_cells import UNIT, Columns, Parsed, Span, column_of, is_number, joined, segments

MAX_CAPTION_LINES = 4
MAX_HEADER_WORDS = 8  # a longer piece over the columns is a sentence (a footnote, a legend), not a header
MAX_HEADER_LINES = 40  # pdfium often gives each word of a stacked header a line
MAX_HEADER_PIECES = 24  # a line with more pieces than a table may have columns is not a header
_TOLERANCE = 3.0  # points off centre for a header centred over columns
_YEAR_IN = re.compile(r"\b(?:19|20)\d\d\b")
_UNIT_ONLY = re.compile(r"^\([^()]*\bin\s+(?:millions|thousands|billions)\b[^()]*\):?$", re.IGNORECASE)


def read_headers(lines: list[Line], parsed: list[Parsed], start: int, floor: int, columns: Columns,
                 numeric: list[bool], metrics: PageMetrics) -> tuple[int, list[str], list[str]]:
    """(first header line, column headers, the header lines' other texts, top first).

    Header lines are read upwards from the first row while they sit over the columns (or are a row of years,
    whose label is often the unit); a line reaching into the labels ends them. Other texts are the labels of
    header rows, headers spanning every column and words over a column of text (a title over a table of
    contents): the caption's, so that no line of the table is lost."""
    left = columns[0][0] - 2 * metrics.line_height
    found: list[tuple[float, Span, bool]] = []  # (top, piece, from a row of years)
    others: list[tuple[float, str]] = []
    first = start
    for index in range(start - 1, max(floor, start - MAX_HEADER_LINES) - 1, -1):
        line, row = lines[index], parsed[index]
        if line.box is None:
            break
        if row.is_years and len(row.cells) <= len(columns):
            found.extend((line.box.top, c, True) for c in row.cells)
            others.append((line.box.top, row.label))
        elif not row.cells and (pieces := header_pieces(line, left, metrics.line_height)) is not None:
            found.extend((line.box.top, s, False) for s in pieces[1])
            others.append((line.box.top, pieces[0]))
        elif _UNIT_ONLY.match(line.text):  # "(Amounts in millions)" amid the header lines
            others.append((line.box.top, line.text))
        else:
            break
        first = index
    per_column: list[list[str]] = [[] for _ in columns]
    for top, span, from_years, reach in _placed(_levels(found, metrics.line_height), columns):
        if reach is None:
            column = column_of(span, columns)
            if from_years or (numeric[column] and not _straddles(span, columns)):
                per_column[column].append(span.text)
            else:
                others.append((top, span.text))
        elif reach == (0, len(columns) - 1) and not _YEAR_IN.search(span.text):
            others.append((top, span.text))
        else:
            for column in range(reach[0], reach[1] + 1):
                per_column[column].append(span.text)
    texts = [text for _, text in sorted(others, key=lambda item: -item[0]) if text]
    return first, [" ".join(texts) for texts in per_column], texts


def _placed(levels: list[tuple[float, list[tuple[Span, bool]]]], columns: Columns,
            ) -> list[tuple[float, Span, bool, tuple[int, int] | None]]:
    """Each header piece, top first, with the columns it spans (None: the one under it), decided bottom up.

    A piece stacked on a lower one (same centre) spans what that one spans when it is a spanning piece or a
    piece alone on its level ("Effective" over "Interest" over "Rate"); otherwise it spans the columns it is
    centred over when it does not sit inside one column (or is alone on its level) and lower levels have two
    pieces or more under it ("Years ended" over "September 24," "September 25," "September 26,")."""
    out: list[tuple[float, Span, bool, tuple[int, int] | None]] = []
    lower: list[tuple[Span, tuple[int, int] | None, bool]] = []  # (piece, its columns, alone on its level)
    for top, level in reversed(levels):
        placed: list[tuple[Span, tuple[int, int] | None, bool]] = []
        territories = [_territory(span, columns) for span, _ in level] if len(level) < len(columns) else []
        for index, (span, from_years) in enumerate(level):
            stacked = next((item for item in lower if abs(item[0].center - span.center) <= _TOLERANCE
                            and (item[1] is not None or item[2])), None)
            if stacked is not None:
                reach = stacked[1]
            elif len(level) < len(columns) and (len(level) == 1 or not _within_one(span, columns)):
                blocked = {c for i, held in enumerate(territories) if i != index for c in held}
                reach = _spanned(span, columns, blocked)
                lo, hi = (columns[reach[0]][0], columns[reach[1]][1]) if reach else (0.0, 0.0)
                if sum(1 for item in lower if lo <= item[0].center <= hi) < 2:
                    reach = None
            else:
                reach = None
            placed.append((span, reach, len(level) == 1))
            out.append((top, span, from_years, reach))
        lower = placed + lower
    return out[::-1]


def header_pieces(line: Line, left: float, height: float) -> tuple[str, list[Span]] | None:
    """(text over the labels, pieces over the columns) of a header line: "(Dollars in millions) 2023 Actual";
    None for a line that is not one (nothing over the columns, numbers, or words of a sentence)."""
    pieces = [joined(segment) for segment in segments(line, 0.9 * height)]
    label = pieces[0].text if pieces and pieces[0].center < left else ""
    over = pieces[1:] if label else pieces
    if not over or len(over) > MAX_HEADER_PIECES or any(
            s.center < left or len(s.text.split()) > MAX_HEADER_WORDS for s in over):
        return None
    if any(is_number(s.text) for s in pieces):
        return None
    return label, over


def _levels(found: list[tuple[float, Span, bool]], height: float) -> list[tuple[float, list[tuple[Span, bool]]]]:
    """Header pieces grouped by height on the page, top level first, each level left to right."""
    levels: list[tuple[float, list[tuple[Span, bool]]]] = []
    for top, span, from_years in sorted(found, key=lambda item: -item[0]):
        if levels and levels[-1][0] - top < 0.5 * height:
            levels[-1][1].append((span, from_years))
        else:
            levels.append((top, [(span, from_years)]))
    return [(top, sorted(pieces, key=lambda p: p[0].left)) for top, pieces in levels]


def _straddles(span: Span, columns: Columns) -> bool:
    """Whether a piece not centred over columns still lies across two of them: a line of a legend, not a
    column's header."""
    return sum(1 for left, right in columns if min(span.right, right) - max(span.left, left) > 0) > 1


def _within_one(span: Span, columns: Columns) -> bool:
    width = max(span.right - span.left, 1.0)
    return any(min(span.right, right) - max(span.left, left) >= 0.8 * width for left, right in columns)


def _spanned(span: Span, columns: Columns, blocked: set[int], widest: bool = True) -> tuple[int, int] | None:
    """The columns (first, last) a header is centred over, when it is centred over two or more. Nested ranges
    share a centre: the widest is taken ("Year Ended May 31, 2023" over the whole table) that leaves out the
    `blocked` columns, its siblings' on the level ("2022" over its Amount and Rate, "2021" over theirs)."""
    best: tuple[int, float, tuple[int, int]] | None = None
    for first in range(len(columns)):
        for last in range(first + 1, len(columns)):
            left, right = columns[first][0], columns[last][1]
            off = abs((left + right) / 2 - span.center)
            rank = (first - last if widest else last - first, off)
            free = not any(first <= column <= last for column in blocked)
            if off <= _TOLERANCE and free and (best is None or rank < best[:2]):
                best = (*rank, (first, last))
    return best[2] if best else None


def _territory(span: Span, columns: Columns) -> set[int]:
    """The columns a header piece holds at the least: the narrowest range it is centred over, or its column."""
    reach = _spanned(span, columns, set(), widest=False)
    return set(range(reach[0], reach[1] + 1)) if reach else {column_of(span, columns)}


def read_caption(lines: list[Line], first: int, floor: int, metrics: PageMetrics) -> tuple[int, list[str], list[str]]:
    """(first line of the table, caption lines, nearby text for the unit): the standalone title lines right
    above the header, at most a few; the paragraph there, when it is not a title, may still state the unit."""
    taken: list[str] = []
    index = first - 1
    while index >= floor and len(taken) < MAX_CAPTION_LINES and _is_title(lines, index, floor, metrics):
        taken.append(lines[index].text)
        index -= 1
    nearby = [line.text for line in lines[max(floor, index - 5):index + 1]]
    return index + 1, taken[::-1], nearby


def _is_title(lines: list[Line], index: int, floor: int, metrics: PageMetrics) -> bool:
    """A short line that does not end a sentence and is not the last line of a paragraph of prose."""
    line = lines[index]
    text = line.text.strip()
    if len(text) > 120 or text.endswith(".") or line.box is None or not is_short(line, metrics):
        return False
    below = lines[index + 1]
    if below.box is not None and line.box.bottom - below.box.top > 3 * metrics.line_height:
        return False
    above = lines[index - 1] if index > floor else None
    return above is None or is_short(above, metrics) or starts_paragraph(above, line, metrics)


def is_short(line: Line, metrics: PageMetrics) -> bool:
    return line.box is not None and line.box.right - line.box.left < 0.7 * metrics.block_width


def caption_text(parts: list[str]) -> str:
    """The caption without the lines that only state the unit ("(In millions)"), which the rows carry."""
    return " ".join(part for part in parts if not _UNIT_ONLY.match(part))


def read_unit(texts: list[str]) -> str:
    """The first 'in millions' phrase: "(In millions, except per-share amounts)" gives "millions, except
    per-share amounts"."""
    for text in texts:
        match = UNIT.search(text)
        if match:
            unit = " ".join((match.group(1) or match.group(2)).split())
            return re.sub(r"^in\s+", "", unit, flags=re.IGNORECASE)
    return ""
