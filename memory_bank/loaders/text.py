"""Plain text and Markdown: decode whatever encoding the file uses and keep its paragraphs.

Files come from anywhere (Windows editors, old exports), so decoding does not assume UTF-8: a BOM decides
first, then strict UTF-8, then Windows-1252 and finally Latin-1, which decodes any byte string.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import InputError
from .document import Document, Page
from .source import read_bytes

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16: its BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_STRICT = ("utf-8", "cp1252")  # latin-1 is the last resort
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")
_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ATX_HEADING = re.compile(r"^#{1,6}\s+\S")


def decode(data: bytes, name: str) -> tuple[str, str]:
    """The text and the encoding it was read with."""
    encoding = _bom_encoding(data) or _bomless_utf16(data)
    if encoding:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as error:
            raise InputError(f"is not valid {encoding} text ({error})", source=name) from error
    for encoding in _STRICT:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue  # not this encoding: try the next, more permissive one
    return data.decode("latin-1"), "latin-1"  # maps every byte, so it cannot fail


def _bom_encoding(data: bytes) -> str | None:
    return next((encoding for bom, encoding in _BOMS if data.startswith(bom)), None)


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM shows as a NUL in every other byte (for mostly-ASCII text)."""
    half = len(data) // 2
    if half < 2 or len(data) % 2:
        return None
    even_nuls, odd_nuls = data[0::2].count(0), data[1::2].count(0)
    if odd_nuls > 0.3 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.3 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    return None


def looks_binary(text: str) -> bool:
    """NUL characters, or more than 1% other control characters (a few ANSI escapes in a log are fine)."""
    return "\x00" in text or len(_CONTROL.findall(text)) > 0.01 * len(text)


def normalise(text: str) -> str:
    """Unix newlines, no trailing spaces, at most one blank line between paragraphs."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_RUN.sub("\n\n", text).strip()


def separate_headings(markdown: str) -> str:
    """Put every ATX heading (outside code fences) in a paragraph of its own, so chunking starts a section
    there."""
    out: list[str] = []
    in_fence = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and _ATX_HEADING.match(line):
            out.extend(["", line, ""])
        else:
            out.append(line)
    return normalise("\n".join(out))


def markdown_title(markdown: str) -> str | None:
    for line in markdown.split("\n"):
        if line.startswith("# "):
            return line[2:].strip() or None
    return None


def load_text(path: Path, name: str, *, markdown: bool) -> Document:
    text, encoding = decode(read_bytes(path, name), name)
    if looks_binary(text):
        raise InputError("looks like a binary file, not text (it contains control characters)", source=name)
    text = separate_headings(text) if markdown else normalise(text)
    if not text:
        raise InputError("contains no text (only whitespace)", source=name)
    metadata: dict = {"mime": "text/markdown" if markdown else "text/plain", "encoding": encoding}
    title = markdown_title(text) if markdown else None
    if title:
        metadata["title"] = title
    return Document(
        name=name, path=str(path), kind="markdown" if markdown else "text", pages=[Page(None, text)], metadata=metadata
    )
