"""Section numbering and captions as printed ("3.2.1 ...", "Item 7.", "PART II", "Figure 3:"), read the same way
by the PDF loader, which sees fonts and outlines, and by the structure stage, which sees text alone: one
definition, so a heading's depth does not depend on which of them found it.
"""

from __future__ import annotations

import re

_DOTTED = re.compile(r"^(?:[A-Z]\.)?(\d{1,3}(?:\.\d{1,3}){0,5})\.?\s+\S")  # "3.2.1 Title", "B.2.1 Lack of ..."
_APPENDIX = re.compile(r"^(?:[A-Z])\.(\d{1,3}(?:\.\d{1,3}){0,4})\s+\S")
_PART = re.compile(r"^PART\s+[IVX]+\b", re.IGNORECASE)
_APPENDIX_TITLE = re.compile(r"^Appendix\s+[A-Z]\b")  # "Appendix B— Identified Gaps ..." heads "B.1 ..."
_ITEM = re.compile(r"^Item\s+\d{1,2}[A-C]?\.", re.IGNORECASE)
_NOTE = re.compile(r"^Note\s+\d{1,2}\b")
_NUMBERING = re.compile(
    r"^\s*(?:(?:part|item|chapter|section|appendix|note)\s+[\w.]+|[A-Z]?\.?\d+(?:\.\d+)*[A-C]?)[.):—–-]?\s*",
    re.IGNORECASE)
_SINGLE_NUMBER = re.compile(r"^\d{1,3}\.?\s")
_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Exhibit|Chart)\s+[\dA-Z][\w.-]*\s*[:.–—-]", re.IGNORECASE)


def numbered_level(title: str) -> int | None:
    """The depth a heading's numbering gives: 'PART II' 1, 'Item 7.' 2, 'Note 7 – Debt' 3, '3.2.1 ...' 3,
    'B.2.1 ...' 3 (an appendix's letter counts as the first level)."""
    line = title.strip()
    if _PART.match(line) or _APPENDIX_TITLE.match(line):
        return 1
    if _ITEM.match(line):
        return 2
    if _NOTE.match(line):
        return 3
    appendix = _APPENDIX.match(line)
    if appendix:
        return 1 + appendix.group(1).count(".") + 1
    dotted = _DOTTED.match(line)
    if dotted:
        return dotted.group(1).count(".") + 1
    return None


def is_caption(text: str) -> bool:
    """'Figure 3: ...', 'Table B-1: ...': a caption names a figure or table; it never opens a section."""
    return bool(_CAPTION.match(" ".join(text.split())))


def without_number(title: str) -> str:
    """The title after its numbering ('2.1 Tenets of Zero Trust' -> 'Tenets of Zero Trust')."""
    return _NUMBERING.sub("", title, count=1)


def single_number(title: str) -> bool:
    """'1 Introduction', '2. ACQUISITIONS': a number that is a top-level section only where the document also
    numbers sub-sections ('2.1'); elsewhere it may be a note's or a list's number."""
    return bool(_SINGLE_NUMBER.match(title.strip()))
