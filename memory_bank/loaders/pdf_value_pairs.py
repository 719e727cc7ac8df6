"""Figure lists printed as value-label pairs: "27,000  Cloud services …  39,000  Services" on each line.

A 10-K's headcount by line of business, a fact sheet's "key figures", are set as a grid of pairs, each a number
followed by what it counts, two or three pairs a line. The row reader (`pdf_tables`) expects a label, then
values, so a line opening with a value and holding words after it is prose to it, and pdfium's text reads as
"35,000 Sales and marketing 47,000 Research and development": the second number sits beside the first label.
Here a run of at least two lines made only of such pairs, their values right-aligned under one another pair by
pair, becomes a table of one value column, a row per pair (reading order: across, then down), captioned by the
sentence that announces it when the line right above ends with ":" ("Our approximate employee counts by lines of
business are:"), so that a row read alone still says what its number counts.
"""

from __future__ import annotations

import re

from .document import Table, TableRow
from .pdf_layout import Line, PageMetrics
from .pdf_table_cells import GAP_SHARE, MAX_ROWS, OPENING_MARKS, Span, is_number, is_value, segments

MIN_LINES = 2  # one line of pairs is a sentence's figures as often as a table
MAX_PAIRS = 6  # pairs a line: more is not a list a reader follows across
MAX_LABEL_WORDS = 10
ALIGN = 3.0  # points: the values of one pair column end this close to one another, line to line
ANNOUNCING_LINES = 3  # a sentence announcing the figures may wrap over this many lines
MAX_GAP = 3.0  # line heights between two lines of one run
MAX_MEASURE_WORDS = 5
_VERB_END = re.compile(r"\s+(?:are|were|is|was|include[sd]?)(?:\s+as\s+follows)?\s*:$", re.IGNORECASE)
_DETERMINER = re.compile(r"^(?:our|the|these|its|their|his|her|this|that)\s+", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def line_pairs(line: Line, min_gap: float) -> list[tuple[Span, str]] | None:
    """(value, label) pairs when the whole line is value, label, value, label …; else None."""
    if not line.words or not (is_value(line.words[0].text) or line.words[0].text in OPENING_MARKS):
        return None  # most lines open with a word: no segments measured for them
    found = segments(line, min_gap)
    if len(found) < 2 or len(found) % 2 or len(found) > 2 * MAX_PAIRS:
        return None
    out: list[tuple[Span, str]] = []
    for value, label in zip(found[::2], found[1::2]):
        words = [s.text for s in label]
        if (len(value) != 1 or not is_number(value[0].text) or len(words) > MAX_LABEL_WORDS
                or any(is_value(w) for w in words) or not any(c.isalpha() for c in words[0])):
            return None
        out.append((value[0], " ".join(words)))
    return out


def find_pair_tables(lines: list[Line], metrics: PageMetrics) -> list[tuple[int, int, Table]]:
    """(first line, last line, table) for each run of pair lines on the page."""
    min_gap = GAP_SHARE * metrics.line_height
    pairs = [line_pairs(line, min_gap) for line in lines]
    out: list[tuple[int, int, Table]] = []
    index = 0
    while index < len(lines):
        run = _run(lines, pairs, index, metrics)
        if len(run) < MIN_LINES:
            index += 1
            continue
        rows = tuple(TableRow(label, (value.text,)) for i in run for value, label in pairs[i] or ())
        caption = _announcing(lines, run[0])
        out.append((run[0], run[-1], Table(caption, (measure(caption),), rows)))
        index = run[-1] + 1
    return out


def _run(lines: list[Line], pairs: list[list[tuple[Span, str]] | None], start: int, metrics: PageMetrics) -> list[int]:
    first = pairs[start]
    if not first:
        return []
    ends = [value.right for value, _ in first]
    run, rows = [start], len(first)
    for index in range(start + 1, len(lines)):
        found, line, prev = pairs[index], lines[index], lines[run[-1]]
        if (not found or line.box is None or prev.box is None or rows + len(found) > MAX_ROWS
                or prev.box.bottom - line.box.top > MAX_GAP * metrics.line_height
                or any(abs(value.right - end) > ALIGN for (value, _), end in zip(found, ends))):
            break
        run.append(index)
        rows += len(found)
    return run


def measure(caption: str) -> str:
    """What the figures count, from the sentence announcing them, as their column's header: "Our approximate
    employee counts by lines of business are:" -> "approximate employee counts" (a row then reads "Research and
    development | approximate employee counts: 47,000"); "" when the sentence is no "<subject> are:" of a few
    words ("These are some factors to consider:")."""
    subject, verbs = _VERB_END.subn("", caption.strip())
    if not verbs:
        return ""
    subject = _DETERMINER.sub("", re.split(r"\s+(?:by|across|per)\s+", subject, maxsplit=1)[0]).strip()
    return subject if 0 < len(subject.split()) <= MAX_MEASURE_WORDS else ""


def _announcing(lines: list[Line], first: int) -> str:
    """The last sentence of the line above when it ends with ":" (it announces the figures), else ""."""
    if first == 0 or not lines[first - 1].text.rstrip().endswith(":"):
        return ""
    above = " ".join(line.text.strip() for line in lines[max(0, first - ANNOUNCING_LINES):first])
    return _SENTENCE.split(above)[-1]
