"""Untrusted text made harmless where it is shown or stored: Markdown that renders literally, a file name that
is one path component. One definition for the app and the core, so a fix to either reaches both.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..limits import shorten_name

SAFE_NAME_CHARS = 120  # short enough to read in a listing
SAFE_NAME_BYTES = 240  # file systems count a name's UTF-8 bytes (255 at most); a little room for a suffix

# every character Markdown (CommonMark plus Streamlit's extensions: math, colour and emoji shortcodes) gives a
# meaning to; escaping one that needs none only adds a backslash Markdown drops
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^])")


def md_escape(text: str) -> str:
    """Text from documents or imports rendered literally, on one line: a document cannot add links, images
    (which the browser would fetch), headings or formatting."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def safe_name(name: str, default: str = "file") -> str:
    """A file name as one harmless path component (the user still sees the original name elsewhere): no folder
    part (either slash), no characters outside word characters, dot, dash and space, at most 120 characters and 240
    bytes. A longer one is cut and keeps its extension: the file's kind is read from it."""
    cleaned = re.sub(r"[^\w.\- ]+", "_", PurePosixPath(str(name).replace("\\", "/")).name).strip(" .")
    limit = SAFE_NAME_CHARS
    while len(shorten_name(cleaned, limit, mark="_").encode()) > SAFE_NAME_BYTES:  # 120 CJK characters are 360
        limit -= 1
    return shorten_name(cleaned, limit, mark="_") or default
