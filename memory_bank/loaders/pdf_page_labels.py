"""Printed page numbers of a PDF: its page labels when it has them, else the numbers in its running margins.

Citations name the page a reader finds on paper ("p. 5"), not only the position in the file (PDF page 14). A
PDF's /PageLabels say it exactly; many PDFs have none and only print the number in a header or footer. A number
read from the margins is accepted only when at least `MIN_AGREEING_PAGES` pages agree on it: the same style
(arabic, roman, "A-" prefix) and the same offset from the PDF page number, i.e. it goes up by one page to page.
A stray number (a year, "800-207", a contents line that falls in the margin band) does not line up so and is
ignored; a page without an agreeing number gets no label rather than a guess.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ..text.pages import MAX_PRINTED_CHARS
from .pdf_margins import PageLines, in_margin

MIN_AGREEING_PAGES = 3
_DECORATION = " -–—|·•()[]<>"
_PAGE_WORD = frozenset({"page", "p.", "pg.", "seite", "página", "pagina"})
_ARABIC = re.compile(r"^(?P<prefix>[A-Z]{1,3}[-.–])?(?P<number>\d{1,4})$")
_ROMAN = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def pdf_page_labels(document: pdfium.PdfDocument) -> list[str | None]:
    """Each page's /PageLabels label, None where there is none (or the PDF has no labels at all).

    pypdfium2 has no wrapper for this; the raw call returns the UTF-16LE label with its terminator.
    """
    labels: list[str | None] = []
    for index in range(len(document)):
        size = pdfium_c.FPDF_GetPageLabel(document.raw, index, None, 0)
        if size <= 2:
            labels.append(None)
            continue
        if size > 2 * (MAX_PRINTED_CHARS + 1):  # no page number is that long: not read at all
            labels.append(None)
            continue
        buffer = ctypes.create_string_buffer(size)
        pdfium_c.FPDF_GetPageLabel(document.raw, index, buffer, size)
        labels.append(buffer.raw[:size - 2].decode("utf-16-le", errors="replace").strip() or None)
    return labels


@dataclass(frozen=True)
class _Candidate:
    text: str  # as printed
    style: str  # "" for plain arabic, the prefix ("A-") for prefixed, "roman"/"ROMAN"
    value: int


def printed_page_numbers(pages: list[PageLines]) -> list[str | None]:
    """Each page's number as printed in its header/footer, when enough pages agree on the numbering."""
    found = [_candidates(page) for page in pages]
    support: Counter[tuple[str, int]] = Counter()
    for index, candidates in enumerate(found):
        support.update({(c.style, c.value - index) for c in candidates})
    labels: list[str | None] = []
    for index, candidates in enumerate(found):
        agreed = [(support[(c.style, c.value - index)], c.text) for c in candidates
                  if support[(c.style, c.value - index)] >= MIN_AGREEING_PAGES]
        labels.append(max(agreed)[1] if agreed else None)
    return labels


def _candidates(page: PageLines) -> list[_Candidate]:
    """Page numbers a margin line could hold: its first or last word, or the word after "Page"."""
    out: list[_Candidate] = []
    for line in page.lines:
        if not in_margin(line.box, page.bbox):
            continue
        words = line.text.strip(_DECORATION).split()
        picks = words[:1] + words[-1:] + [w for prev, w in zip(words, words[1:]) if prev.lower() in _PAGE_WORD]
        out.extend(c for c in map(_parse, picks) if c is not None)
    return out


def _parse(word: str) -> _Candidate | None:
    match = _ARABIC.match(word)
    if match:
        return _Candidate(word, match["prefix"] or "", int(match["number"]))
    if word.islower() or word.isupper():
        if _ROMAN.match(word.lower()):
            return _Candidate(word, "roman" if word.islower() else "ROMAN", _roman_value(word.lower()))
    return None


def _roman_value(word: str) -> int:
    values = [_ROMAN_VALUES[c] for c in word]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
