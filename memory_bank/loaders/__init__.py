"""Turn an uploaded file into text per page (or, for images, a checked description of the file).

The format is decided by the file's first bytes when they carry a clear signature (a PDF named `.txt` is still
a PDF), otherwise by its suffix. Every failure is an `InputError` that names the file and says what is wrong.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..limits import shorten_name
from .document import Document, Page
from .html import load_html
from .image import SUFFIXES as IMAGE_SUFFIXES
from .image import load_image
from .pdf import load_pdf
from .source import check_file, read_head
from .text import load_text

__all__ = ["Document", "Page", "detect_kind", "load_file", "supported_suffixes"]

_SUFFIX_KINDS = {
    ".pdf": "pdf",
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    **{suffix: "image" for suffix in IMAGE_SUFFIXES},
}
# Signatures strong enough to override the suffix (BMP's "BM" is not: plenty of text starts that way).
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image"),
    (b"\xff\xd8\xff", "image"),
    (b"GIF87a", "image"),
    (b"GIF89a", "image"),
    (b"II*\x00", "image"),
    (b"MM\x00*", "image"),
)


def supported_suffixes() -> set[str]:
    return set(_SUFFIX_KINDS)


def sniff(head: bytes) -> str | None:
    """The kind a file's first bytes prove, or None."""
    if b"%PDF-" in head:
        return "pdf"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image"
    for signature, kind in _SIGNATURES:
        if head.startswith(signature):
            return kind
    start = head.lstrip()[:15].lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "html"
    return None


def detect_kind(path: Path, name: str) -> str:
    sniffed = sniff(read_head(path, name))
    if sniffed in ("pdf", "image"):
        return sniffed
    by_suffix = _SUFFIX_KINDS.get(Path(name).suffix.lower()) or _SUFFIX_KINDS.get(path.suffix.lower())
    kind = by_suffix or sniffed
    if kind is None:
        supported = ", ".join(sorted(_SUFFIX_KINDS))
        raise InputError(f"has an unsupported file type (supported: {supported})", source=name)
    return kind


def load_file(path: str | Path, *, name: str | None = None, max_bytes: int, max_image_pixels: int) -> Document:
    """Load one file; `name` is the display name (defaults to the file name), used in every error."""
    file_path = Path(path).expanduser().resolve()
    display = shorten_name(name or file_path.name)
    check_file(file_path, display, max_bytes)
    kind = detect_kind(file_path, display)
    if kind == "pdf":
        return load_pdf(file_path, display)
    if kind == "image":
        return load_image(file_path, display, max_pixels=max_image_pixels)
    if kind == "html":
        return load_html(file_path, display)
    return load_text(file_path, display, markdown=kind == "markdown")
