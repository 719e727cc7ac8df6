"""The cells of a PDF table row: a line's words with their boxes read as a label and values.

A value is what a financial table prints in a cell ("1,577", "(1,373)", "$ 394,328", "—", "12.5 %", a range
"0.48% – 0.63%"); pdfium gives "$", ")" and "%" as words of their own, so they are joined to their number first.
Words closer than a wide gap form one segment: a row is a label segment, then segments of values (or a few
words, a text cell), at least one of them a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .pdf_layout import SOFT_HYPHENS, Line

GAP_SHARE = 0.9  # a gap this many line heights wide separates a label from a cell, or two cells
MAX_ROWS = 2_000  # a longer run is cut into tables of this many lines (of pairs: rows)
MAX_TEXT_CELL_WORDS = 6
OPENING_MARKS = ("$", "(", "$(", "($")  # words of their own joined to the number after them
MAX_TEXT_CELL_CHARS = 40

_NUMBER = r"\$?\(?\$?[-−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\)?%?"  # 1,577 (1,373) $394,328 12.5%
_VALUE = re.compile(
    rf"^{_NUMBER}$|^{_NUMBER} [–—-] {_NUMBER}$"  # a value or a range of them ("0.48% – 0.63%", "2022 – 2061")
    r"|^\$?\(?[—–-]+\)?%?$"  # a dash for nil
    r"|^(?:NM|nm|N\.?/?A\.?|n/?a)$"
)
_DASHES = ("–", "—", "-")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
UNIT = re.compile(r"\(([^()]*\bin\s+(?:millions|thousands|billions)\b[^()]*)\)|\bin\s+(millions|thousands|billions)\b",
                  re.IGNORECASE)

Columns = list[tuple[float, float]]  # each value column's left and right edge, left to right


@dataclass(frozen=True)
class Span:
    text: str
    left: float
    right: float

    @property
    def center(self) -> float:
        return (self.left + self.right) / 2


@dataclass(frozen=True)
class Parsed:
    """One line read as a possible row: its label and the cells after a wide gap (none for text)."""

    label: str
    cells: tuple[Span, ...]

    @property
    def is_years(self) -> bool:
        """A header row: years, maybe words ("2022 Change 2021"), no other number."""
        return bool(self.cells) and not any(is_number(c.text) for c in self.cells)

    @property
    def is_row(self) -> bool:
        return bool(self.cells) and not self.is_years


def is_value(text: str) -> bool:
    return bool(_VALUE.match(text))


def is_year(text: str) -> bool:
    return bool(_YEAR.match(text))


def is_number(text: str) -> bool:
    """A value that is not a year: what a data row has and a header row has not."""
    return is_value(text) and not is_year(text)


def spans(line: Line) -> list[Span]:
    """The line's words with "$" joined to the number after it and ")" or "%" to the number before it."""
    out: list[Span] = []
    pending: Span | None = None  # a "$" or "(" waiting for its number
    for word in line.words:
        span = Span(word.text, word.box.left, word.box.right)
        if pending is not None:
            if is_value(pending.text + span.text):
                span = Span(pending.text + span.text, pending.left, span.right)
            else:
                out.append(pending)
            pending = None
        if span.text in OPENING_MARKS:
            pending = span
        elif out and span.text in (")", "%", ")%", "%)") and is_value(out[-1].text + span.text):
            out[-1] = Span(out[-1].text + span.text, out[-1].left, span.right)
        else:
            out.append(span)
    if pending is not None:
        out.append(pending)
    return _ranges(out, line.box.height if line.box else 0.0)


def _ranges(found: list[Span], height: float) -> list[Span]:
    """ "2022", "–", "2061" set close together are one value, a range."""
    out: list[Span] = []
    for span in found:
        if (len(out) >= 2 and out[-1].text in _DASHES and is_value(out[-2].text) and is_value(span.text)
                and span.left - out[-2].right < 2 * height):
            dash = out.pop()
            first = out.pop()
            span = Span(f"{first.text} {dash.text} {span.text}", first.left, span.right)
        out.append(span)
    return out


def segments(line: Line, min_gap: float) -> list[list[Span]]:
    """The line's spans in runs separated by gaps of at least `min_gap`."""
    out: list[list[Span]] = []
    for span in spans(line):
        if not out or span.left - out[-1][-1].right >= min_gap:
            out.append([])
        out[-1].append(span)
    return out


def joined(segment: list[Span]) -> Span:
    return Span(" ".join(s.text for s in segment), segment[0].left, segment[-1].right)


def parse_row(line: Line, min_gap: float) -> Parsed:
    """The line as a label and cells; no cells when it is not a row."""
    found = segments(line, min_gap)
    if not found:
        return Parsed(line.text, ())
    first = found[0]
    # a label of its own words, or a year heading a row of other values ("2023 $ 9,910" in a maturity table)
    label_segment = not all(is_value(s.text) for s in first) or (
        len(found) > 1 and len(first) == 1 and is_year(first[0].text)
        and any(is_number(s.text) for segment in found[1:] for s in segment))
    cells: list[Span] = []
    for segment in found[1 if label_segment else 0:]:
        if all(is_value(s.text) for s in segment):
            cells.extend(segment)
        elif _is_text_cell(segment):  # "November 2022" under "Date of Issuance"
            cells.append(joined(segment))
        else:
            return Parsed(line.text, ())
    if not any(is_value(c.text) for c in cells):
        return Parsed(line.text, ())
    label = " ".join(s.text for s in first) if label_segment else ""
    for marker in SOFT_HYPHENS:  # a label's hyphen at a line end, as pdfium marks it
        label = label.replace(marker, "-")
    return Parsed(label, tuple(cells))


def _is_text_cell(segment: list[Span]) -> bool:
    text = " ".join(s.text for s in segment)
    return len(segment) <= MAX_TEXT_CELL_WORDS and len(text) <= MAX_TEXT_CELL_CHARS and not text.endswith(".")


def find_columns(cells: list[Span]) -> Columns:
    """Value columns: the cells' spans merged where they overlap, left to right."""
    columns: list[list[float]] = []
    for cell in sorted(cells, key=lambda c: c.left):
        if columns and cell.left <= columns[-1][1]:
            columns[-1][1] = max(columns[-1][1], cell.right)
        else:
            columns.append([cell.left, cell.right])
    return [(left, right) for left, right in columns]


def column_of(span: Span, columns: Columns) -> int:
    """The column the span overlaps most, else the nearest one."""
    overlaps = [min(span.right, right) - max(span.left, left) for left, right in columns]
    best = max(range(len(columns)), key=lambda i: overlaps[i])
    if overlaps[best] > 0:
        return best
    return min(range(len(columns)), key=lambda i: abs(span.center - sum(columns[i]) / 2))
