from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from memory_bank.errors import InputError
from memory_bank.loaders import load_file

from .pdf_factory import write_encrypted_pdf, write_image_only_pdf, write_pdf

LIMITS = {"max_bytes": 50_000_000, "max_image_pixels": 10_000_000}


def load(path: Path, **overrides):
    return load_file(path, **{**LIMITS, **overrides})


def page_text(doc, number: int) -> str:
    return next(page.text for page in doc.pages if page.number == number)


# --- the real NIST SP 800-207 -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nist(nist_pdf: Path):
    return load(nist_pdf)


def test_nist_has_every_page_numbered(nist, nist_pdf: Path) -> None:
    assert nist.kind == "pdf"
    assert nist.name == "NIST.SP.800-207.pdf"
    assert nist.path == str(nist_pdf.resolve())
    assert [page.number for page in nist.pages] == list(range(1, 60))
    assert nist.metadata["page_count"] == 59
    assert nist.metadata["title"] == "Zero Trust Architecture"
    assert nist.metadata["pages_without_text"] == []


@pytest.mark.parametrize(
    ("number", "phrase"),
    [
        (1, "Zero Trust Architecture"),
        (10, "A zero trust architecture (ZTA) is an enterprise cybersecurity architecture"),
        (15, "All data sources and computing services are considered resources"),
        (18, "Policy engine (PE)"),
        (21, "3.1.2 ZTA Using Micro-Segmentation"),
    ],
)
def test_nist_phrases_are_on_their_pages(nist, number: int, phrase: str) -> None:
    assert phrase in page_text(nist, number)
    others = [page.number for page in nist.pages if phrase in page.text and page.number != number]
    assert number not in others


def test_nist_zero_trust_is_found_on_body_pages(nist) -> None:
    pages = {page.number for page in nist.pages if "zero trust" in page.text.lower()}
    assert {1, 10, 11, 13, 15, 58} <= pages


def test_nist_paragraphs_are_separated_by_blank_lines(nist) -> None:
    text = page_text(nist, 10)
    assert text.startswith("1 Introduction\n\nA typical enterprise’s infrastructure has grown increasingly complex.")
    assert "lateral movement is unhindered.\n\nThis complex enterprise has led" in text
    # lines of one paragraph are joined with spaces, not line breaks
    assert "A single enterprise may operate several internal networks" in text
    assert "\r" not in text
    assert all("\n" not in paragraph for paragraph in text.split("\n\n"))


def test_nist_running_headers_and_footers_are_dropped(nist) -> None:
    assert nist.metadata["running_lines_removed"] > 100
    assert not any("NIST SP 800-207 ZERO TRUST ARCHITECTURE" in page.text for page in nist.pages)
    assert not page_text(nist, 10).split("\n\n")[-1].strip().isdigit()
    # the same sentence in the body of the title page is kept
    assert "This publication is available free of charge from" in page_text(nist, 1)


def test_nist_hyphenated_line_breaks_are_resolved(nist) -> None:
    assert "non-human entities" in page_text(nist, 10)
    assert not any(re.search("[\ufffe\x02]", page.text) for page in nist.pages)


# --- generated PDFs -----------------------------------------------------------------------------------------

PAGES = [
    [
        ["Chapter one covers the reactor design and the cooling loop that keeps the core at a safe",
         "temperature during normal operation."],
        ["The second paragraph of page one mentions the turbine hall."],
    ],
    [
        ["Page two describes the containment building, a well-",
         "known structure built from reinforced concrete, and its architec-",
         "ture in detail."],
        ["The architecture of the spent fuel pool is also described here."],
    ],
    [
        ["Page three lists the emergency procedures."],
    ],
]


@pytest.fixture()
def generated(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "report.pdf", PAGES, running_text=True)


def test_generated_pdf_keeps_text_per_page(generated: Path) -> None:
    doc = load(generated)
    assert [page.number for page in doc.pages] == [1, 2, 3]
    assert "reactor design" in page_text(doc, 1)
    assert "containment building" in page_text(doc, 2)
    assert "emergency procedures" in page_text(doc, 3)
    assert "turbine hall" not in page_text(doc, 2)


def test_generated_pdf_paragraphs_and_joined_lines(generated: Path) -> None:
    assert page_text(load(generated), 1) == (
        "Chapter one covers the reactor design and the cooling loop that keeps the core at a safe temperature "
        "during normal operation.\n\nThe second paragraph of page one mentions the turbine hall."
    )


def test_generated_pdf_hyphens_follow_the_documents_vocabulary(generated: Path) -> None:
    text = page_text(load(generated), 2)
    assert "a well-known structure" in text  # a compound: 'wellknown' is nowhere in the document
    assert "and its architecture in detail." in text  # a split word: 'architecture' appears elsewhere


def test_generated_pdf_drops_its_running_header_and_page_numbers(generated: Path) -> None:
    doc = load(generated)
    assert doc.metadata["running_lines_removed"] == 6
    assert not any("ACME QUARTERLY" in page.text for page in doc.pages)
    assert page_text(doc, 3) == "Page three lists the emergency procedures."


def test_running_text_is_kept_when_too_few_pages_repeat_it(tmp_path: Path) -> None:
    doc = load(write_pdf(tmp_path / "short.pdf", PAGES[:2], running_text=True))
    assert "ACME QUARTERLY REPORT 2024" in page_text(doc, 1)
    assert doc.metadata["running_lines_removed"] == 0


def test_a_pdf_with_a_wrong_suffix_is_still_read_as_pdf(tmp_path: Path) -> None:
    doc = load(write_pdf(tmp_path / "report.txt", PAGES[:1]))
    assert doc.kind == "pdf"
    assert "reactor design" in doc.pages[0].text


# --- broken PDFs --------------------------------------------------------------------------------------------


def test_encrypted_pdf_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = write_encrypted_pdf(tmp_path / "secret.pdf", "s3cret")
    with pdfium.PdfDocument(str(path), password="s3cret") as document:  # a real, readable encrypted PDF
        assert "Confidential text" in document[0].get_textpage().get_text_range()
    with pytest.raises(InputError, match=r"secret\.pdf: is encrypted/password-protected") as caught:
        load(path)
    assert caught.value.source == "secret.pdf"


def test_truncated_pdf_is_not_readable(tmp_path: Path, nist_pdf: Path) -> None:
    path = tmp_path / "truncated.pdf"
    path.write_bytes(nist_pdf.read_bytes()[:4000])
    with pytest.raises(InputError, match=r"truncated\.pdf: is not a readable PDF"):
        load(path)


def test_garbage_with_a_pdf_suffix_is_not_readable(tmp_path: Path) -> None:
    path = tmp_path / "fake.pdf"
    path.write_bytes(b"this is not a pdf at all\n" * 20)
    with pytest.raises(InputError, match=r"fake\.pdf: is not a readable PDF"):
        load(path)


def test_scanned_pdf_without_text_layer_is_refused(tmp_path: Path) -> None:
    path = write_image_only_pdf(tmp_path / "scan.pdf", tmp_path)
    with pytest.raises(InputError, match=r"scan\.pdf: has no extractable text .*scanned"):
        load(path)


def test_display_name_is_used_in_errors(tmp_path: Path) -> None:
    path = write_encrypted_pdf(tmp_path / "upload-1234.pdf", "pw")
    with pytest.raises(InputError, match=r"^Quarterly report\.pdf: "):
        load(path, name="Quarterly report.pdf")
