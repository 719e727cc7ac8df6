"""Images: check that the file is a sane, decodable image and record its size; the pixels are not kept.

A small file can declare billions of pixels (a decompression bomb). The declared size is read from the header
and checked against the caller's `max_image_pixels` before anything is decoded; Pillow's process-wide
`Image.MAX_IMAGE_PIXELS` is never changed, because other threads and libraries share it. Pillow's own bomb error
(raised at open for sizes far over its global limit) is reported the same way.
"""

from __future__ import annotations

import struct
from pathlib import Path

from PIL import Image

from ..errors import InputError
from .document import Document

FORMATS = ("PNG", "JPEG", "GIF", "WEBP", "BMP", "TIFF")  # only these parsers are exposed to uploads
SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"})
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError)


def load_image(path: Path, name: str, *, max_pixels: int) -> Document:
    metadata = _header(path, name, max_pixels)
    _verify(path, name)
    return Document(name=name, path=str(path), kind="image", pages=[], metadata=metadata)


def _header(path: Path, name: str, max_pixels: int) -> dict:
    """Open lazily (header only), enforce the pixel limit, and describe the image."""
    try:
        with Image.open(path, formats=FORMATS) as image:
            check_pixels(image.size, name, max_pixels)
            return {
                "width": image.width,
                "height": image.height,
                "format": image.format,
                "mode": image.mode,
                "mime": Image.MIME.get(image.format or "", "application/octet-stream"),
                "frames": getattr(image, "n_frames", 1),
            }
    except Image.DecompressionBombError as error:
        raise InputError(f"is too large to decode safely ({error})", source=name) from error
    except _DECODE_ERRORS as error:
        raise InputError(f"is not a readable image ({error})", source=name) from error


def check_pixels(size: tuple[int, int], name: str, max_pixels: int) -> None:
    width, height = size
    if width <= 0 or height <= 0:
        raise InputError(f"declares an invalid image size {width}×{height}", source=name)
    if width * height > max_pixels:
        raise InputError(
            f"is too large to decode safely: {width}×{height} = {width * height:,} pixels "
            f"(the limit is {max_pixels:,}); it may be a decompression bomb",
            source=name,
        )


def _verify(path: Path, name: str) -> None:
    """Pillow's structural check (chunk checksums, markers); it needs a fresh image object."""
    try:
        with Image.open(path, formats=FORMATS) as image:
            image.verify()
    except _DECODE_ERRORS as error:
        raise InputError(f"is a damaged image ({error})", source=name) from error
