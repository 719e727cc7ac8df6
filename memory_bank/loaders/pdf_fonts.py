"""The font a PDF line is printed in: its size, and whether it is bold or italic.

A heading the outline does not list is recognised by its look: larger than the body text, or bold or italic
where the body is not. Asking pdfium for the font of every character would cost as much as reading the page,
so a line's font is read from its first character, and from its middle and last ones when the first is bold
or italic; a line whose samples disagree (a bold word leading body text) counts as plain.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

_ITALIC_FLAG = 1 << 6  # PDF font descriptor flags (ISO 32000 table 121)
_FORCE_BOLD_FLAG = 1 << 18
_BOLD_WEIGHT = 600
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_ITALIC_NAME = re.compile(r"italic|oblique|-obl|-it\b|boldit", re.IGNORECASE)
_NAME_BYTES = 256


@dataclass(frozen=True)
class Font:
    size: float  # the printed size in points (the font size times the text matrix's scale)
    bold: bool
    italic: bool

    @property
    def size_bucket(self) -> float:
        """Sizes to the half point: the same style set twice comes out a few hundredths apart."""
        return round(self.size * 2) / 2


def sample_font(textpage: pdfium.PdfTextPage, indices: list[int]) -> Font | None:
    """The font of a line whose inked characters have these pdfium indices; None when pdfium knows no font for
    them (generated characters). A line that starts in plain type is plain whatever follows, so most lines
    cost one character; one that starts bold or italic is read at its middle and end too."""
    if not indices:
        return None
    name, matrix, flags = ctypes.create_string_buffer(_NAME_BYTES), pdfium_c.FS_MATRIX(), ctypes.c_int()
    first = _char_font(textpage, indices[0], name, matrix, flags)
    if first is None or not (first.bold or first.italic) or len(indices) == 1:
        return first
    picks = (indices[len(indices) // 2], indices[-1])
    fonts = [first, *(font for font in (_char_font(textpage, i, name, matrix, flags) for i in picks) if font)]
    sizes = sorted(font.size for font in fonts)
    return Font(sizes[len(sizes) // 2], all(f.bold for f in fonts), all(f.italic for f in fonts))


def _char_font(textpage: pdfium.PdfTextPage, index: int, name_buffer: ctypes.Array, matrix: pdfium_c.FS_MATRIX,
               flags: ctypes.c_int) -> Font | None:
    size = pdfium_c.FPDFText_GetFontSize(textpage, index)
    if size <= 0 or not pdfium_c.FPDFText_GetMatrix(textpage, index, matrix):
        return None
    scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)) or 1.0
    length = pdfium_c.FPDFText_GetFontInfo(textpage, index, name_buffer, _NAME_BYTES, flags)
    name = name_buffer.value.decode("latin-1") if 0 < length <= _NAME_BYTES else ""
    bold = (bool(_BOLD_NAME.search(name)) or bool(flags.value & _FORCE_BOLD_FLAG)
            or pdfium_c.FPDFText_GetFontWeight(textpage, index) >= _BOLD_WEIGHT)
    italic = bool(_ITALIC_NAME.search(name)) or bool(flags.value & _ITALIC_FLAG)
    return Font(size * scale, bold, italic)


def body_font(lines: Iterable[tuple[str, Font | None]]) -> Font | None:
    """The style most of a document's text is printed in (by characters), against which headings stand out."""
    counts: Counter[tuple[float, bool, bool]] = Counter()
    for text, font in lines:
        if font is not None:
            counts[round(font.size * 2) / 2, font.bold, font.italic] += len(text)
    return Font(*counts.most_common(1)[0][0]) if counts else None
