"""Printed page numbers: a PDF's /PageLabels first, else the numbers in its running margins when a run of pages
agrees on them; stray numbers are ignored and nothing is invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.loaders import load_file
from memory_bank.loaders.pdf_layout import Box, Line
from memory_bank.loaders.pdf_margins import PageLines
from memory_bank.loaders.pdf_page_labels import printed_page_numbers

from .pdf_factory import write_pdf

PAGE = Box(0, 0, 612, 792)
LIMITS = {"max_bytes": 50_000_000, "max_image_pixels": 10_000_000}


def page(header: str | None = None, footer: str | None = None, body: str = "Body text of the page.") -> PageLines:
    lines = [Line(body, Box(72, 390, 540, 400))]
    if header is not None:
        lines.insert(0, Line(header, Box(72, 750, 540, 760)))
    if footer is not None:
        lines.append(Line(footer, Box(300, 40, 310, 50)))
    return PageLines(lines, PAGE)


def labels(path: Path) -> list[str | None]:
    return [p.label for p in load_file(path, **LIMITS).pages]


# --- the real NIST SP 800-207: no /PageLabels, roman ii-vii on PDF pages 4-9, then 1, 2, ... -----------------


@pytest.fixture(scope="module")
def nist_labels(nist_pdf: Path) -> list[str | None]:
    return labels(nist_pdf)


def test_nist_front_matter_is_numbered_in_roman_and_the_body_from_one(nist_labels) -> None:
    assert nist_labels[:3] == [None, None, None]  # cover, title and authority pages print no number
    assert nist_labels[3:9] == ["ii", "iii", "iv", "v", "vi", "vii"]
    assert nist_labels[9] == "1" and nist_labels[13] == "5"  # PDF page 14 is printed page 5
    assert nist_labels[9:] == [str(n) for n in range(1, 51)]


# --- generated PDFs ------------------------------------------------------------------------------------------

BODY = [[["Plain body text about the cooling loop, 42 pumps and the year 2019."]] for _ in range(5)]


def test_page_labels_of_the_pdf_are_used(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "labelled.pdf", BODY, page_labels=[(0, "ROMAN_LOWER", 1), (2, "ARABIC", 7)])
    assert labels(path) == ["i", "ii", "7", "8", "9"]


def test_page_labels_win_over_printed_numbers(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "both.pdf", BODY, running_text=True, page_labels=[(0, "ARABIC", 101)])
    assert labels(path) == ["101", "102", "103", "104", "105"]


def test_printed_footer_numbers_are_read_when_there_are_no_labels(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "footer.pdf", BODY, running_text=True, printed=["11", "12", "13", "14", "15"])
    assert labels(path) == ["11", "12", "13", "14", "15"]


def test_a_pdf_without_page_numbers_has_no_labels(tmp_path: Path) -> None:
    assert labels(write_pdf(tmp_path / "plain.pdf", BODY)) == [None] * 5


# --- reading the margins --------------------------------------------------------------------------------------


def test_numbers_that_do_not_go_up_page_by_page_are_ignored() -> None:
    pages = [page(header="NIST SP 800-207 2020", footer="Report 2024", body=f"Table {n} shows {n + 1} rows.")
             for n in range(6)]
    assert printed_page_numbers(pages) == [None] * 6


def test_a_run_of_too_few_pages_is_not_trusted() -> None:
    pages = [page(), page(footer="7"), page(footer="8"), page()]
    assert printed_page_numbers(pages) == [None] * 4


def test_a_page_without_its_number_does_not_break_the_run_nor_get_one() -> None:
    pages = [page(footer="3"), page(footer="4"), page(), page(footer="6"), page(footer="7")]
    assert printed_page_numbers(pages) == ["3", "4", None, "6", "7"]


def test_header_styles_page_of_and_appendix_prefixes() -> None:
    pages = [page(header=f"Chapter 2 | Page {n} of 40") for n in (12, 13, 14)]
    pages += [page(footer=f"- A-{n} -") for n in (1, 2, 3)]
    pages += [page(header=f"Preface {n}") for n in ("IX", "X", "XI")]
    assert printed_page_numbers(pages) == ["12", "13", "14", "A-1", "A-2", "A-3", "IX", "X", "XI"]


def test_numbers_in_the_body_are_never_page_numbers() -> None:
    pages = [page(body=str(n)) for n in range(1, 6)]
    assert printed_page_numbers(pages) == [None] * 5


def test_a_page_label_too_long_to_be_a_page_number_is_not_read(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    path = tmp_path / "crafted.pdf"
    pdf = canvas.Canvas(str(path))
    pdf.addPageLabel(0, "ARABIC", 1, prefix="X" * 500)
    pdf.addPageLabel(1, "ARABIC", 7)
    for text in ("A first page with enough words to count as text.", "A second page, also with text on it."):
        pdf.drawString(72, 700, text)
        pdf.showPage()
    pdf.save()
    assert labels(path) == [None, "7"]
