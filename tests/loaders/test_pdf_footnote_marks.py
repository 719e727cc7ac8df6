"""Footnote marks raised against a word are not part of it: "John Kindervag1 while at Forrester.2" of the NIST PDF
read "Kindervag1", a name no reader searches for or quotes. Digits on the baseline and powers of units stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.loaders.pdf import load_pdf
from memory_bank.loaders.pdf_footnote_marks import drop_footnote_marks

NIST = Path(__file__).resolve().parents[3] / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"


def test_the_nist_pdf_reads_its_footnoted_names_without_their_marks() -> None:
    if not NIST.is_file():
        pytest.skip(f"shared data missing: {NIST}")
    text = " ".join(" ".join(b.text.split()) for p in load_pdf(NIST, NIST.name).pages for b in p.blocks)
    assert "coined by John Kindervag while at Forrester. Zero trust" in text
    assert "Kindervag1" not in text and "Forrester.2" not in text
    assert "NIST SP 800-207" in text or "800-207" in text  # numbers of the text itself stay


def _boxes(raised: set[int]):
    """Letters 10 high on baseline 100; the chars at `raised` indices sit 5 above it, 6 high (a superscript)."""
    def boxes(start: int, end: int) -> list[tuple[float, float, float, float]]:
        return [(i * 5.0, 105.0 if i in raised else 100.0, i * 5.0 + 4, 111.0 if i in raised else 110.0)
                for i in range(start, end)]
    return boxes


def test_only_raised_digits_after_a_word_are_marks() -> None:
    text = "by Kindervag1 while FY23 and 5 km2 areas"
    mark, fiscal, power = text.index("1"), text.index("23"), text.index("2 areas")
    raised = {mark, fiscal, fiscal + 1, power}
    assert drop_footnote_marks(text, _boxes(raised)) == "by Kindervag  while FY   and 5 km2 areas"
    assert drop_footnote_marks(text, _boxes(set())) == text  # on the baseline: part of the word
