"""Guarded access to a user's file before any parser sees it.

Parsers are handed only files that exist, are not empty and fit the size limit, so each format module deals
with its own format's failures and every rejection names the file.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError

SNIFF_BYTES = 1024  # a PDF header may start anywhere in the first kilobyte


def check_file(path: Path, name: str, max_bytes: int) -> int:
    """Reject missing, empty and oversized files; return the size in bytes. A path the system refuses to look
    at (a name too long for it, a folder without permission) is an `InputError` too, never a raw `OSError`."""
    try:
        if not path.exists():
            raise InputError("file not found", source=name)
        if not path.is_file():
            raise InputError("is not a regular file", source=name)
        size = path.stat().st_size
    except OSError as error:
        raise InputError(f"cannot be opened ({error.strerror or error})", source=name) from error
    if size == 0:
        raise InputError("is empty (0 bytes)", source=name)
    if size > max_bytes:
        raise InputError(f"is too large ({_human(size)}; the limit is {_human(max_bytes)})", source=name)
    return size


def read_head(path: Path, name: str, count: int = SNIFF_BYTES) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(count)
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror or error})", source=name) from error


def read_bytes(path: Path, name: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror or error})", source=name) from error


def _human(size: int) -> str:
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    if size >= 1_000:
        return f"{size / 1_000:.1f} kB"
    return f"{size} bytes"
