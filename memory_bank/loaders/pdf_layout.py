"""Rebuild paragraphs from the lines pdfium gives.

pdfium returns a page's text as lines separated by CRLF with no blank line between paragraphs, and it joins a
line that ends in a hyphen with the next one, marking the hyphen. The pipeline chunks on blank lines, so
paragraph ends are recovered from geometry: a vertical gap clearly larger than the page's usual line gap, a jump
to another column, a short line that closes a sentence, or a bullet at the start of the next line.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from .pdf_fonts import Font

# pdfium's marker for a hyphen at a line end (U+FFFE through FPDFText_GetText, 0x02 through GetUnicode).
SOFT_HYPHENS = "\ufffe\x02"
_LINE = re.compile(r"[^\r\n]+")
_WORD = re.compile(r"\S+")
_BULLET = re.compile(r"^\s*(?:[•▪◦‣●○■□∙·*–]|-\s)")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*\s*$")
_SOFT_HYPHEN_JOIN = re.compile(rf"(\w+)[{SOFT_HYPHENS}]\s*(\w+)")
_LETTERS = re.compile(r"[^\W\d_]+")


class Box(NamedTuple):
    """A box in PDF points. A tuple, not a frozen dataclass: a page makes one per character (a 300-page book
    half a million), and a tuple is built and min/max-ed at C speed."""

    left: float
    bottom: float
    right: float
    top: float

    @property
    def height(self) -> float:
        return self.top - self.bottom


CharBox = tuple[float, float, float, float]  # a character's (left, bottom, right, top), as Box's fields


@dataclass(frozen=True)
class Word:
    text: str
    box: Box


@dataclass(frozen=True)
class Line:
    text: str
    box: Box | None  # None when pdfium gave no geometry for the line's characters
    font: Font | None = None  # None when unknown (pdfium gave none, or the lines were made without fonts)
    # the line's space-separated words with their boxes: a table row's label and cells are told apart by the
    # gaps between them, which the line's text alone does not keep
    words: tuple[Word, ...] = field(default=(), compare=False, repr=False)


WordBox = Callable[[int, int], "Box | None"]  # the inked box of a page's characters [start, end) (None: no ink)


def split_lines(chars: str, word_box: WordBox, font_of: Callable[[list[int]], Font | None] | None = None) \
        -> list[Line]:
    """Cut a page's characters into lines with their bounding boxes; `word_box` gives a word's box from its
    character range, `font_of` a line's font from the indices of its inked characters. A line's box is the union
    of its words' boxes, which cover all its inked characters."""
    lines = []
    for match in _LINE.finditer(chars):
        text = match.group(0)
        if not text.strip():
            continue
        spans = [word.span() for word in _WORD.finditer(chars, match.start(), match.end())]
        words = tuple(_words(chars, word_box, spans))
        box = union_of([w.box for w in words])
        # the inked characters are the words' (`\S` is `not str.isspace()`), without a test per character
        inked = [i for start, end in spans for i in range(start, end)] if font_of else []
        lines.append(Line(text.strip(), box, font_of(inked) if font_of else None, words))
    return lines


def char_union(boxes: list[CharBox | None]) -> WordBox:
    """Word boxes from one box per character (None for white space and characters without geometry)."""
    return lambda start, end: union_of([b for b in boxes[start:end] if b is not None])


def _words(chars: str, word_box: WordBox, spans: list[tuple[int, int]]) -> list[Word]:
    out = []
    for start, end in spans:
        box = word_box(start, end)
        if box is not None:
            out.append(Word(chars[start:end], box))
    return out


def union_of(boxes: list[CharBox]) -> Box | None:
    if len(boxes) < 2:
        return Box(*boxes[0]) if boxes else None
    lefts, bottoms, rights, tops = zip(*boxes)
    return Box(min(lefts), min(bottoms), max(rights), max(tops))


@dataclass(frozen=True)
class PageMetrics:
    line_height: float
    line_gap: float
    block_left: float
    block_right: float

    @property
    def block_width(self) -> float:
        return max(self.block_right - self.block_left, 1.0)


def page_metrics(lines: list[Line]) -> PageMetrics | None:
    """Typical line height and gap, and the text block's horizontal extent, of one page."""
    boxes = [line.box for line in lines if line.box is not None and line.box.height > 0]
    if not boxes:
        return None
    gaps = [a.bottom - b.top for a, b in itertools.pairwise(boxes) if _overlaps(a, b) and a.bottom - b.top >= 0]
    return PageMetrics(
        line_height=statistics.median(b.height for b in boxes),
        line_gap=statistics.median(gaps) if gaps else 0.0,
        block_left=min(b.left for b in boxes),
        block_right=max(b.right for b in boxes),
    )


def _overlaps(a: Box, b: Box) -> bool:
    return min(a.right, b.right) > max(a.left, b.left)


def starts_paragraph(prev: Line, line: Line, metrics: PageMetrics | None) -> bool:
    """Whether `line` begins a new paragraph after `prev`."""
    if _BULLET.match(line.text):
        return True
    if metrics is None or prev.box is None or line.box is None:
        return False
    gap = prev.box.bottom - line.box.top
    if gap > metrics.line_gap + 0.5 * metrics.line_height:
        return True
    if gap < -0.5 * metrics.line_height or not _overlaps(prev.box, line.box):
        return True  # moved up or sideways: another column, a table cell, a margin note
    return _is_short(prev.box, metrics) and bool(_SENTENCE_END.search(prev.text))


def _is_short(box: Box, metrics: PageMetrics) -> bool:
    return box.right < metrics.block_right - 0.2 * metrics.block_width


def join_lines(lines: list[str]) -> str:
    """One paragraph's lines as one line; a hyphen at a line end before a lower-case letter becomes a soft
    hyphen, decided later against the document's vocabulary like pdfium's own markers."""
    text = lines[0]
    for line in lines[1:]:
        if text.endswith("-") and text[-2:-1].isalpha() and line[:1].islower():
            text = text[:-1] + SOFT_HYPHENS[0] + line
        else:
            text = f"{text} {line}"
    return " ".join(text.split())


def paragraph_groups(lines: list[Line], metrics: PageMetrics | None = None) -> list[list[Line]]:
    """A page's lines grouped into paragraphs, in reading order; `metrics` are the whole page's when `lines` are
    only the part of it around a table."""
    metrics = metrics or page_metrics(lines)
    groups: list[list[Line]] = []
    for index, line in enumerate(lines):
        if not groups or starts_paragraph(lines[index - 1], line, metrics):
            groups.append([])
        groups[-1].append(line)
    return groups


def paragraphs(lines: list[Line]) -> list[str]:
    """A page's lines grouped into paragraphs, each joined into one line."""
    return [join_lines([line.text for line in group]) for group in paragraph_groups(lines)]


def vocabulary(texts: list[str]) -> set[str]:
    """Lower-case words of a document, to decide whether a hyphenated line break split one word."""
    words: set[str] = set()
    for text in texts:
        words.update(word.lower() for word in _LETTERS.findall(text))
    return words


def resolve_soft_hyphens(text: str, words: set[str]) -> str:
    """`archi-tecture` becomes `architecture` when the document spells it so elsewhere; compounds such as
    `well-known` keep their hyphen."""

    def fix(match: re.Match[str]) -> str:
        left, right = match.group(1), match.group(2)
        return left + right if (left + right).lower() in words else f"{left}-{right}"

    if not any(mark in text for mark in SOFT_HYPHENS):
        return text  # most paragraphs: no marker, and the pattern's `\w+` would be tried at every word character
    text = _SOFT_HYPHEN_JOIN.sub(fix, text)
    return text.translate({ord(c): "-" for c in SOFT_HYPHENS})
