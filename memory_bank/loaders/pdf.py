"""PDF loading with pypdfium2: text per page with page numbers, paragraphs rebuilt from the layout, headings
typed with their level (`pdf_headings`: from the outline, else from the fonts and numbering).

pdfium is a process-wide C library that is not thread-safe, while documents may be ingested from several
worker threads (one per browser session); every pdfium call of a load therefore runs under one lock.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ..errors import InputError
from .document import Block, Document, Page
from .pdf_fonts import sample_font
from .pdf_footnote_marks import drop_footnote_marks
from .pdf_headings import HeadingCounts, Piece, page_blocks
from .pdf_layout import (
    Box,
    CharBox,
    Line,
    WordBox,
    page_metrics,
    paragraph_groups,
    resolve_soft_hyphens,
    split_lines,
    union_of,
    vocabulary,
)
from .pdf_margins import PageLines, strip_running_lines
from .pdf_outline import OutlineEntry, read_outline
from .pdf_page_labels import pdf_page_labels, printed_page_numbers
from .pdf_tables import find_tables

_PDFIUM_LOCK = threading.Lock()
_PASSWORD_ERRORS = frozenset({pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY})
NO_TEXT_MESSAGE = (
    "has no extractable text (it looks like a scanned document or contains only images; "
    "OCR is not supported: use a PDF with a text layer)"
)


def load_pdf(path: Path, name: str, *, tables: bool = True) -> Document:
    """Read every page's text; raise InputError for encrypted, unreadable or text-less PDFs. A page with
    tables (`tables`: look for them) gets typed blocks, its tables kept row by row."""
    with _PDFIUM_LOCK:
        document = _open(path, name)
        try:
            raw_pages = [_read_page(document, index, name) for index in range(len(document))]
            labels = pdf_page_labels(document)
            metadata = _metadata(document)
            outline = read_outline(document)
        finally:
            document.close()
    if not raw_pages:
        raise InputError("has no pages", source=name)
    pages, dropped, headings = _pages(raw_pages, labels, outline, tables)
    if not any(page.text for page in pages):
        raise InputError(NO_TEXT_MESSAGE, source=name)
    metadata.update(
        page_count=len(pages),
        pages_without_text=[page.number for page in pages if not page.text],
        running_lines_removed=dropped,
        outline_entries=headings.outline_entries,
        outline_headings_found=headings.outline_matched,
        layout_headings=headings.layout,
    )
    return Document(name=name, path=str(path), kind="pdf", pages=pages, metadata=metadata)


def pdf_page_count(path: Path, name: str) -> int:
    """The number of pages, without reading them (for a cost estimate before a run)."""
    with _PDFIUM_LOCK:
        document = _open(path, name)
        try:
            return len(document)
        finally:
            document.close()


def _open(path: Path, name: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        if error.err_code in _PASSWORD_ERRORS:
            raise InputError(
                "is encrypted/password-protected; remove the password and upload it again", source=name
            ) from error
        raise InputError(f"is not a readable PDF ({error})", source=name) from error


def _read_page(document: pdfium.PdfDocument, index: int, name: str) -> PageLines:
    try:
        page = document[index]
    except pdfium.PdfiumError as error:
        raise InputError(f"is not a readable PDF: page {index + 1} cannot be loaded ({error})", source=name) from error
    try:
        textpage = page.get_textpage()
        try:
            chars = _page_chars(textpage)
            chars = drop_footnote_marks(chars, lambda start, end: char_boxes(textpage, chars, start, end))
            lines = split_lines(chars, word_boxes(textpage, chars), lambda indices: sample_font(textpage, indices))
        finally:
            textpage.close()
        return PageLines(lines, Box(*page.get_bbox()))
    finally:
        page.close()


def _page_chars(textpage: pdfium.PdfTextPage) -> str:
    """The page's characters, one per pdfium char index, so that index i has the box of char i.

    The fast bulk call is UCS-2 only; when its length disagrees with the char count (characters outside the
    BMP, or chars pdfium hides or inserts) each char is read on its own.
    """
    count = textpage.count_chars()
    text = textpage.get_text_range()
    if len(text) == count:
        return text
    return "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, i)) for i in range(count))


def word_boxes(textpage: pdfium.PdfTextPage, chars: str) -> WordBox:
    """A word's tight box from pdfium's rectangles of its characters (one a text object the range crosses): a
    word costs two pdfium calls where a box per character cost one a character (~5 a word; the book's pages
    read in ~2/3 of the time). pdfium builds those rectangles from the same character boxes, leaving out the
    characters it generated (spaces and line breaks, never inside a word) and those under 0.01 pt wide or high
    (no ink to bound); the boxes are the same on the NIST, the Apple and Oracle 10-K and the bench book PDFs,
    word for word (`tests/loaders/test_pdf_word_boxes.py`)."""
    left, top, right, bottom = (ctypes.c_double() for _ in range(4))
    count_rects, get_rect, raw = pdfium_c.FPDFText_CountRects, pdfium_c.FPDFText_GetRect, textpage.raw

    def rects(start: int, end: int) -> list[CharBox]:
        count = count_rects(raw, start, end - start)
        if count == 1:  # most words lie in one text object: no comprehension to set up (~100k words a book)
            return [(left.value, bottom.value, right.value, top.value)] if get_rect(raw, 0, left, top, right,
                                                                                     bottom) else []
        return [(left.value, bottom.value, right.value, top.value) for index in range(count)
                if get_rect(raw, index, left, top, right, bottom)]

    return word_box_reader(rects, lambda start, end: char_boxes(textpage, chars, start, end))


def word_box_reader(rects: Callable[[int, int], list[CharBox]], chars: Callable[[int, int], list[CharBox]]) \
        -> WordBox:
    """The union of a range's `rects`; when pdfium kept none of its characters (it then gives one empty
    rectangle) the union of the characters' own boxes, as every word was read before."""

    def box(start: int, end: int) -> Box | None:
        united = union_of(rects(start, end))
        if united is None or united.right <= united.left or united.top <= united.bottom:
            return union_of(chars(start, end))
        return united

    return box


def char_boxes(textpage: pdfium.PdfTextPage, chars: str, start: int = 0, end: int | None = None) -> list[CharBox]:
    """The tight boxes of the characters [start, end) that have one (white space and the few characters pdfium
    keeps no geometry for have none)."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    get_box, raw = pdfium_c.FPDFText_GetCharBox, textpage.raw
    return [(left.value, bottom.value, right.value, top.value)
            for index in range(start, len(chars) if end is None else end)
            if not chars[index].isspace() and get_box(raw, index, left, right, bottom, top)]


def _metadata(document: pdfium.PdfDocument) -> dict:
    info = document.get_metadata_dict(skip_empty=True)
    metadata: dict = {"mime": "application/pdf"}
    for key in ("Title", "Author", "Subject"):
        if info.get(key, "").strip():
            metadata[key.lower()] = info[key].strip()
    return metadata


def _pages(raw_pages: list[PageLines], labels: list[str | None], outline: list[OutlineEntry], tables: bool) \
        -> tuple[list[Page], int, HeadingCounts]:
    """Pages made of typed blocks (paragraphs, headings, tables) with running headers/footers dropped, each page
    with its printed number (a /PageLabels label first, else the number printed in its margins, read before they
    go); the page text is its blocks' texts joined by blank lines."""
    printed = printed_page_numbers(raw_pages)
    kept, dropped = strip_running_lines(raw_pages)
    pieces = [_pieces(lines, tables) for lines in kept]
    typed, headings = page_blocks(pieces, outline)
    words = vocabulary([block.text for blocks in typed for block in blocks])
    pages = [
        Page.from_blocks(number, [_resolved(block, words) for block in blocks], label or number_printed)
        for number, blocks, label, number_printed in zip(range(1, len(kept) + 1), typed, labels, printed)
    ]
    return pages, dropped, headings


def _pieces(lines: list[Line], tables: bool) -> list[Piece]:
    """The page in reading order as the heading reader takes it: the lines of each paragraph, and one table
    block for the lines of each table (never a heading, never part of a title)."""
    metrics = page_metrics(lines)
    pieces: list[Piece] = []
    start = 0
    for first, last, table in find_tables(lines) if tables else []:
        titled = first + _caption_lines(lines[first:last + 1], table.caption)
        # the caption's lines stay text too: a statement's title ("CONSOLIDATED STATEMENTS OF CASH FLOWS",
        # "Item 8. Financial Statements") is a heading of the outline or the layout, and the table keeps its
        # caption so that a row read alone still says what it is
        pieces.extend(paragraph_groups(lines[start:titled], metrics))
        pieces.append(Block(table.text(), kind="table", table=table))
        start = last + 1
    pieces.extend(paragraph_groups(lines[start:], metrics))
    return pieces


def _caption_lines(lines: list[Line], caption: str) -> int:
    """How many of a table's first lines are its caption's words (none of its header rows or rows)."""
    said = " ".join(caption.split())
    count = 0
    for line in lines:
        text = " ".join(line.text.split())
        if not text or text not in said:
            break
        count += 1
    return count


def _resolved(block: Block, words: set[str]) -> Block:
    if block.kind == "table":
        return block  # its reader cleaned its cells; the text is made from them
    return replace(block, text=resolve_soft_hyphens(block.text, words).strip())
