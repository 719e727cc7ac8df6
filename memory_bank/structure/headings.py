"""What a heading looks like in text that came without layout (pasted text, Markdown, a web page), and how deep
it sits. The PDF loader sees fonts and the outline and marks headings itself; these rules are for the rest, and
for a heading whose level the loader did not know.
"""

from __future__ import annotations

import re

from ..text.numbering import numbered_level

__all__ = ["looks_like_heading", "markdown_heading", "numbered_level"]

MAX_HEADING_WORDS = 14
_MARKDOWN = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SENTENCE_END = re.compile(r"[.!?;,:]$")
_LIST_NUMBER = re.compile(r"^\d{1,3}[.)]\s")


def markdown_heading(text: str) -> tuple[int, str] | None:
    """(level, title) of an ATX heading line ('## Budget' -> (2, 'Budget'))."""
    match = _MARKDOWN.match(text.strip())
    if match is None or "\n" in text.strip():
        return None
    return len(match.group(1)), match.group(2)


def looks_like_heading(text: str) -> bool:
    """A short single line with no sentence end: a title ('3.1 Scope', 'Budget', 'RISK FACTORS'). A numbered
    list item ('1. Gather the data') is not one: its number is a list position, not a section number."""
    line = " ".join(text.split())
    if not line or "\n" in text.strip() or len(line.split()) > MAX_HEADING_WORDS or _SENTENCE_END.search(line):
        return False
    if "://" in line or "www." in line:
        return False  # a footnote's address, not a title
    if _LIST_NUMBER.match(line) and numbered_level(line) == 1:
        return False
    return line[:1].isupper() or line[:1].isdigit() or line.isupper()
