"""Documents made in a test, whose layout is known exactly: a PDF's pages, paragraphs and lines.

Here so that the engine contract (`agent_contract`, `memory_contract`) can make one; reportlab is a test
dependency (requirements-dev.txt), imported only by these tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.pdfgen import canvas

PAGE_HEIGHT = 792
TOP = 700
LEADING = 14  # baseline to baseline inside a paragraph
PARAGRAPH_SKIP = 14  # one empty line between paragraphs


def draw_paragraphs(pdf: canvas.Canvas, paragraphs: list[list[str]]) -> None:
    """One page body: each paragraph is a list of lines, drawn flush left at a fixed leading."""
    pdf.setFont("Helvetica", 11)
    y = TOP
    for lines in paragraphs:
        for line in lines:
            pdf.drawString(72, y, line)
            y -= LEADING
        y -= PARAGRAPH_SKIP


def draw_running_text(pdf: canvas.Canvas, number: str) -> None:
    """A header and a page-number footer like a word processor prints on every page."""
    pdf.setFont("Helvetica", 9)
    pdf.drawString(72, PAGE_HEIGHT - 40, "ACME QUARTERLY REPORT 2024")
    pdf.drawString(300, 40, number)


def write_pdf(path: Path, pages: list[list[list[str]]], *, running_text: bool = False,
              printed: list[str] | None = None, page_labels: Sequence[tuple[int, str, int]] = (),
              **canvas_args) -> Path:
    """`running_text` prints a header and the page number (the PDF page, or `printed[i]` for page i + 1) in
    the footer; `page_labels` writes /PageLabels ranges (first page index, style, start) into the file."""
    pdf = canvas.Canvas(str(path), **canvas_args)
    for index, style, start in page_labels:
        pdf.addPageLabel(index, style, start)
    for number, paragraphs in enumerate(pages, start=1):
        if running_text:
            draw_running_text(pdf, printed[number - 1] if printed else str(number))
        draw_paragraphs(pdf, paragraphs)
        pdf.showPage()
    pdf.save()
    return path
