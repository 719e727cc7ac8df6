"""Footnote marks set as raised digits against a word ("coined by John Kindervag1 while at Forrester.2"): read as
text they glue a number to the word, so the name is no longer the name a reader searches for, quotes or
counts ("Kindervag1"). A mark is told by its place on the page, not by its digits: set above the baseline of
the letters before it. Digits on the baseline ("FY23", "AES256", "CO2") and units squared ("km2") stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .pdf_layout import CharBox

# a word's last letters (or its closing period, comma or quote) with one or two digits glued after them
_GLUED = re.compile(r"(?<=[A-Za-z][A-Za-z.,’'”\")])(\d{1,2})(?=[\s.,;:)]|$)")
_UNITS = frozenset({"km", "cm", "mm", "m", "ft", "mi", "in", "yd", "sq"})  # a power, not a mark
RAISED = 0.3  # the digits' bottom this share of the letters' height above the letters' bottom: a raised mark
MAX_MARKS = 200  # a page with more candidates is not footnoted prose; it is read as it is


def drop_footnote_marks(chars: str, boxes: Callable[[int, int], list[CharBox]]) -> str:
    """`chars` with each raised footnote mark replaced by spaces (so every char keeps its index and box)."""
    matches = list(_GLUED.finditer(chars))
    if not matches or len(matches) > MAX_MARKS:
        return chars
    out = list(chars)
    for match in matches:
        start, end = match.span(1)
        word_start = start
        while word_start > 0 and not chars[word_start - 1].isspace() and start - word_start < 40:
            word_start -= 1
        word = chars[word_start:start].rstrip(".,’'”\")")
        if word.lower() in _UNITS or not word[-1:].isalpha():
            continue
        letters = boxes(max(0, start - 2), start) if chars[start - 1].isalpha() else boxes(max(0, start - 3), start - 1)
        digits = boxes(start, end)
        if _raised(letters, digits):
            out[start:end] = " " * (end - start)
    return "".join(out)


def _raised(letters: list[CharBox], digits: list[CharBox]) -> bool:
    """The digits sit above the letters' baseline: their bottom higher than the letters' lowest bottom by
    `RAISED` of the letters' height (a descender only lowers the letters' bottom, which makes a mark clearer)."""
    if not letters or not digits:
        return False
    bottom = max(box[1] for box in letters)  # the higher bottom of two letters: a "g" does not pull it down
    height = max(box[3] - box[1] for box in letters)
    return height > 0 and min(box[1] for box in digits) > bottom + RAISED * height
