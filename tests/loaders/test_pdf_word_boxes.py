"""A word's box read from pdfium's rectangles is the union of its characters' boxes, in fewer pdfium calls."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.pdfgen import canvas

from memory_bank.loaders import pdf
from memory_bank.loaders.pdf import _page_chars, char_boxes, word_boxes
from memory_bank.loaders.pdf_layout import union_of


def write_mixed_fonts(path: Path) -> Path:
    """Words set in one text object, words that change font in the middle (two text objects, two rectangles) and
    a word split over two drawing calls."""
    page = canvas.Canvas(str(path))
    page.setFont("Helvetica", 11)
    page.drawString(72, 700, "Plain words on one line, then")
    text = page.beginText(72, 680)
    for font, piece in (("Helvetica", "half"), ("Helvetica-Bold", "bold"), ("Helvetica", " and "),
                        ("Times-Italic", "Ital"), ("Courier", "ic"), ("Helvetica", " end.")):
        text.setFont(font, 11)
        text.textOut(piece)
    page.drawText(text)
    page.setFont("Helvetica", 20)
    page.drawString(72, 640, "Big")
    page.setFont("Helvetica", 8)
    page.drawString(103.4, 640, "small")
    page.showPage()
    page.save()
    return path


def _pages(path: Path):  # noqa: ANN202
    document = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            yield textpage, _page_chars(textpage)
    finally:
        document.close()


@pytest.mark.parametrize("made", [False, True])
def test_a_words_box_is_the_union_of_its_characters_boxes(tmp_path: Path, nist_pdf: Path, made: bool) -> None:
    path = write_mixed_fonts(tmp_path / "mixed.pdf") if made else nist_pdf
    words = 0
    for textpage, chars in _pages(path):
        box = word_boxes(textpage, chars)
        for match in re.finditer(r"\S+", chars):
            assert box(match.start(), match.end()) == union_of(char_boxes(textpage, chars, *match.span())), \
                match.group(0)
            words += 1
        if made:
            break
    assert words > (10 if made else 20_000)


def test_a_word_costs_a_few_pdfium_calls_not_one_a_character(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) \
        -> None:
    calls = {"rects": 0, "chars": 0}
    count_rects, get_char_box = pdfium_c.FPDFText_CountRects, pdfium_c.FPDFText_GetCharBox

    def counted_rects(*args):  # noqa: ANN002, ANN202
        calls["rects"] += 1
        return count_rects(*args)

    def counted_chars(*args):  # noqa: ANN002, ANN202
        calls["chars"] += 1
        return get_char_box(*args)

    monkeypatch.setattr(pdf.pdfium_c, "FPDFText_CountRects", counted_rects)
    monkeypatch.setattr(pdf.pdfium_c, "FPDFText_GetCharBox", counted_chars)
    pages = _pages(write_mixed_fonts(tmp_path / "mixed.pdf"))
    textpage, chars = next(pages)  # (the document stays open while `pages` is alive)
    box = word_boxes(textpage, chars)
    words = [match.span() for match in re.finditer(r"\S+", chars)]
    assert all(box(*span) is not None for span in words)
    assert calls == {"rects": len(words), "chars": 0}


def test_a_word_pdfium_keeps_no_rectangle_for_is_read_character_by_character() -> None:
    """pdfium gives one empty rectangle for a range whose characters have no width: their own boxes count."""
    boxes = {0: (10.0, 5.0, 10.0, 15.0), 1: (10.0, 5.0, 10.0, 15.0)}

    def rects(start: int, end: int):  # noqa: ANN202
        return [(0.0, 0.0, 0.0, 0.0)]

    box = pdf.word_box_reader(rects, lambda start, end: [boxes[i] for i in range(start, end)])
    assert box(0, 2) == (10.0, 5.0, 10.0, 15.0)
