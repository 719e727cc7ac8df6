"""PDF loading with pypdfium2: text per page with page numbers, paragraphs rebuilt from the layout.

pdfium is a process-wide C library that is not thread-safe, while documents may be ingested from several
worker threads (one per browser session); every pdfium call of a load therefore runs under one lock.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ..errors import InputError
from .document import Block, Document, Page
from .pdf_layout import Box, Line, page_metrics, paragraphs, resolve_soft_hyphens, split_lines, vocabulary
from .pdf_margins import PageLines, strip_running_lines
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
        finally:
            document.close()
    if not raw_pages:
        raise InputError("has no pages", source=name)
    pages, dropped = _pages(raw_pages, labels, tables)
    if not any(page.text for page in pages):
        raise InputError(NO_TEXT_MESSAGE, source=name)
    metadata.update(
        page_count=len(pages),
        pages_without_text=[page.number for page in pages if not page.text],
        running_lines_removed=dropped,
    )
    return Document(name=name, path=str(path), kind="pdf", pages=pages, metadata=metadata)


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
            boxes = [None if char.isspace() else _char_box(textpage, i) for i, char in enumerate(chars)]
        finally:
            textpage.close()
        return PageLines(split_lines(chars, boxes), Box(*page.get_bbox()))
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


def _char_box(textpage: pdfium.PdfTextPage, index: int) -> Box | None:
    """A character's tight box, or None for the few characters pdfium keeps no geometry for."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    if not pdfium_c.FPDFText_GetCharBox(textpage, index, left, right, bottom, top):
        return None
    return Box(left.value, bottom.value, right.value, top.value)


def _metadata(document: pdfium.PdfDocument) -> dict:
    info = document.get_metadata_dict(skip_empty=True)
    metadata: dict = {"mime": "application/pdf"}
    for key in ("Title", "Author", "Subject"):
        if info.get(key, "").strip():
            metadata[key.lower()] = info[key].strip()
    return metadata


def _pages(raw_pages: list[PageLines], labels: list[str | None], tables: bool) -> tuple[list[Page], int]:
    """Page text with running headers/footers dropped, paragraphs separated by blank lines, each page with its
    printed number (a /PageLabels label first, else the number printed in its margins, read before they go)."""
    printed = printed_page_numbers(raw_pages)
    kept, dropped = strip_running_lines(raw_pages)
    page_blocks = [_blocks(lines, tables) for lines in kept]
    words = vocabulary([block.text for blocks in page_blocks for block in blocks])
    pages = [
        _page(number, blocks, words, label or number_printed)
        for number, blocks, label, number_printed in zip(range(1, len(kept) + 1), page_blocks, labels, printed)
    ]
    return pages, dropped


def _blocks(lines: list[Line], tables: bool) -> list[Block]:
    """The page's paragraphs and tables in reading order; the lines of a table become one table block."""
    metrics = page_metrics(lines)
    blocks: list[Block] = []
    start = 0
    for first, last, table in find_tables(lines) if tables else []:
        blocks.extend(Block(text) for text in paragraphs(lines[start:first], metrics))
        blocks.append(Block(table.text(), kind="table", table=table))
        start = last + 1
    blocks.extend(Block(text) for text in paragraphs(lines[start:], metrics))
    return blocks


def _page(number: int, blocks: list[Block], words: set[str], label: str | None) -> Page:
    """A page without tables keeps text only, as before blocks existed."""
    if not any(block.kind == "table" for block in blocks):
        return Page(number, resolve_soft_hyphens("\n\n".join(b.text for b in blocks), words).strip(), label)
    return Page.from_blocks(number, [
        block if block.kind == "table" else Block(resolve_soft_hyphens(block.text, words).strip())
        for block in blocks
    ], label)
