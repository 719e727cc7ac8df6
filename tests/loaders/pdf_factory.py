"""PDFs made in the test, with text whose page, paragraph and line layout is known exactly."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from memory_bank.testing.documents import TOP, write_pdf


def write_encrypted_pdf(path: Path, user_password: str) -> Path:
    encryption = StandardEncryption(user_password, ownerPassword="owner-" + user_password, strength=128)
    return write_pdf(path, [[["Confidential text behind a password."]]], encrypt=encryption)


def write_image_only_pdf(path: Path, tmp_dir: Path) -> Path:
    """A 'scanned' page: a picture of text, no text layer."""
    picture = tmp_dir / "scan.png"
    Image.new("L", (400, 200), color=255).save(picture)
    pdf = canvas.Canvas(str(path))
    pdf.drawImage(ImageReader(str(picture)), 72, 400, width=400, height=200)
    pdf.showPage()
    pdf.save()
    return path


# A cash-flow statement drawn the way 10-K filings are: a centred title and unit, stacked column headers, a
# section line, "$" signs set apart from their numbers, right-aligned values and a label that wraps.
STATEMENT_ROWS: list[tuple[str, tuple[str, ...]]] = [
    ("Operating activities:", ()),
    ("Net income", ("$", "99,803", "$", "94,680")),
    ("Depreciation and amortization", ("", "11,104", "", "11,284")),
    ("Investing activities:", ()),
    ("Purchases of marketable securities", ("", "(76,923)", "", "(109,558)")),
    ("Proceeds from sales and maturities of marketable", ()),
    ("    securities and other investments", ("", "37,446", "", "47,460")),
    ("Payments for acquisition of property, plant and equipment", ("", "(10,708)", "", "(11,085)")),
    ("Cash used in investing activities", ("$", "(22,354)", "$", "(14,545)")),
]


def draw_statement(pdf: canvas.Canvas, top: float = TOP) -> None:
    pdf.setFont("Helvetica", 9)
    pdf.drawCentredString(306, top + 40, "CONSOLIDATED STATEMENTS OF CASH FLOWS")
    pdf.drawCentredString(306, top + 28, "(In millions)")
    for right, (date, year) in zip((430, 510), (("September 24,", "2022"), ("September 25,", "2021"))):
        pdf.drawCentredString(right - 25, top + 12, date)
        pdf.drawCentredString(right - 25, top + 2, year)
    y = top - 12
    for label, cells in STATEMENT_ROWS:
        indent = 72 + 10 * (len(label) - len(label.lstrip()))
        pdf.drawString(indent, y, label.strip())
        for dollar, value, right in ((cells[0], cells[1], 430), (cells[2], cells[3], 510)) if cells else ():
            if dollar:
                pdf.drawString(right - 70, y, dollar)
            pdf.drawRightString(right, y, value)
        y -= 13


def write_statement_pdf(path: Path) -> Path:
    """One page: a paragraph of prose, the statement, a closing note."""
    pdf = canvas.Canvas(str(path))
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, 760, "The statement below is drawn the way annual reports print it.")
    draw_statement(pdf, top=650)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, 480, "See accompanying notes.")
    pdf.showPage()
    pdf.save()
    return path
