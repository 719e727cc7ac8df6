"""Drop running headers, footers and margin notes that repeat on most pages of a PDF.

Text such as "NIST SP 800-207 ... 12" or a vertical "available free of charge" strip is printed on every page;
left in, it becomes a paragraph on every page and floods the memory with near-duplicate nodes. A line is taken
as running text only when it sits in the page's outer band and, with its numbers blanked out, recurs on a large
share of the pages; body text is never touched.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .pdf_layout import Box, Line

MARGIN_SHARE = 0.12  # outer band of the page, as a share of its width or height
MIN_PAGES = 3
MIN_SHARE_OF_PAGES = 0.4
_NUMBER = re.compile(r"\d+")
_ROMAN_PAGE = re.compile(r"^[ivxlcdm]+$")


@dataclass(frozen=True)
class PageLines:
    lines: list[Line]
    bbox: Box  # the visible page area (media box ∩ crop box)


def running_key(text: str) -> str:
    """The line with page numbers blanked, so "Page 3" and "Page 4" or "vii" and "12" match."""
    key = " ".join(text.lower().split())
    return "#" if _ROMAN_PAGE.match(key) else _NUMBER.sub("#", key)


def in_margin(box: Box | None, page: Box) -> bool:
    if box is None:
        return False
    dx = (page.right - page.left) * MARGIN_SHARE
    dy = (page.top - page.bottom) * MARGIN_SHARE
    return (
        box.bottom >= page.top - dy
        or box.top <= page.bottom + dy
        or box.right <= page.left + dx
        or box.left >= page.right - dx
    )


def repeated_keys(pages: list[PageLines]) -> set[str]:
    """Keys of margin lines that recur on enough pages to be running text."""
    threshold = max(MIN_PAGES, MIN_SHARE_OF_PAGES * len(pages))
    counts: Counter[str] = Counter()
    for page in pages:
        counts.update({running_key(line.text) for line in page.lines if in_margin(line.box, page.bbox)})
    return {key for key, count in counts.items() if count >= threshold}


def strip_running_lines(pages: list[PageLines]) -> tuple[list[list[Line]], int]:
    """Each page's lines without running headers/footers, and how many lines were dropped."""
    keys = repeated_keys(pages)
    kept = [
        [line for line in page.lines if not (in_margin(line.box, page.bbox) and running_key(line.text) in keys)]
        for page in pages
    ]
    dropped = sum(len(page.lines) for page in pages) - sum(len(lines) for lines in kept)
    return kept, dropped
