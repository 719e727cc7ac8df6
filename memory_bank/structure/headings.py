"""What a heading looks like in text that came without layout (pasted text, Markdown, a web page), and how deep
it sits. The PDF loader sees fonts and the outline and marks headings itself; these rules are for the rest, and
for a heading whose level the loader did not know.
"""

from __future__ import annotations

import re

MAX_HEADING_WORDS = 14
_MARKDOWN = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_DOTTED = re.compile(r"^(?:[A-Z]\.)?(\d{1,3}(?:\.\d{1,3}){0,5})\.?\s+\S")  # "3.2.1 Title", "B.2.1 Lack of ..."
_APPENDIX = re.compile(r"^(?:[A-Z])\.(\d{1,3}(?:\.\d{1,3}){0,4})\s+\S")
_PART = re.compile(r"^PART\s+[IVX]+\b", re.IGNORECASE)
_APPENDIX_TITLE = re.compile(r"^Appendix\s+[A-Z]\b")  # "Appendix B— Identified Gaps ..." heads "B.1 ..."
_ITEM = re.compile(r"^Item\s+\d{1,2}[A-C]?\.", re.IGNORECASE)
_NOTE = re.compile(r"^Note\s+\d{1,2}\b")
_SENTENCE_END = re.compile(r"[.!?;,:]$")
_LIST_NUMBER = re.compile(r"^\d{1,3}[.)]\s")


def markdown_heading(text: str) -> tuple[int, str] | None:
    """(level, title) of an ATX heading line ('## Budget' -> (2, 'Budget'))."""
    match = _MARKDOWN.match(text.strip())
    if match is None or "\n" in text.strip():
        return None
    return len(match.group(1)), match.group(2)


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
