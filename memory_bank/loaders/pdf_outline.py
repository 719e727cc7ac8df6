"""A PDF's outline (bookmarks): the author's own section tree, and where each title is printed on its page.

The outline is the best evidence of a heading there is (its level is the author's), but it is read from an
uploaded file: it may hold thousands of entries, loop back on itself or point at pages the document does not
have. Reading is bounded (`MAX_ENTRIES`, `MAX_DEPTH`; pypdfium2 stops at a bookmark already seen) and entries
that point nowhere are dropped.

An entry's title is then looked for among the lines of its target page (and the page after, where a
destination points at the end of the page before): compared as letters and digits only, so case, spacing,
dashes and quotes do not matter, then without the numbering ("Introduction" finds "1 Introduction"), then
nearly equal (an outline typo, "Secutities"). A title may take up to `MAX_TITLE_LINES` lines, inside a paragraph
(a heading printed close above its text) or across two paragraphs (a title broken over two lines).
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ..text.numbering import without_number
from .pdf_layout import Line

MAX_ENTRIES = 2_000  # bookmarks read; the rest of a larger outline is ignored
MAX_DEPTH = 8
MAX_TITLE_CHARS = 300
MAX_TITLE_LINES = 3
MAX_LABEL_WORDS = 6
MIN_BARE_CHARS = 4  # "PART I" without its numbering is nothing; it is found as printed or not at all
FUZZY_RATIO = 0.92
FUZZY_MIN_CHARS = 20
FUZZY_BUDGET = 40_000  # near-equal comparisons per document, whatever the outline's size: about 0.3 s at most
FULL_RATIO_COST = 5  # a full comparison costs about as much as this many quick ones
_NOT_ALNUM = re.compile(r"[\W_]+")
_XYZ, _FIT_H, _FIT_R, _FIT_BH = 1, 3, 5, 7  # PDFDEST_VIEW_* modes whose view says where the title is

@dataclass(frozen=True)
class OutlineEntry:
    title: str
    level: int  # 1 = top of the outline
    page: int  # 0-based index of the target page
    top: float | None = None  # where the destination puts the top of the view, when it says


def read_outline(document: pdfium.PdfDocument) -> list[OutlineEntry]:
    """The outline's entries in order, at most `MAX_ENTRIES` read and `MAX_DEPTH` deep; entries with no title or
    a target outside the document are left out."""
    count = len(document)
    entries = []
    for bookmark in itertools.islice(document.get_toc(max_depth=MAX_DEPTH), MAX_ENTRIES):
        title = " ".join(bookmark.get_title()[:MAX_TITLE_CHARS * 4].split())[:MAX_TITLE_CHARS]
        page, top = _target(document, bookmark)
        if title and page is not None and 0 <= page < count:
            entries.append(OutlineEntry(title, bookmark.level + 1, page, top))
    return entries


def _target(document: pdfium.PdfDocument, bookmark: pdfium.PdfBookmark) -> tuple[int | None, float | None]:
    """The page index and view top a bookmark leads to, through its /Dest or a GoTo action."""
    dest = bookmark.get_dest()
    if dest is None:
        action = pdfium_c.FPDFBookmark_GetAction(bookmark.raw)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_GOTO:
            return None, None
        raw = pdfium_c.FPDFAction_GetDest(document.raw, action)
        if not raw:
            return None, None
        dest = pdfium.PdfDest(raw, pdf=document)
    index = dest.get_index()
    mode, view = dest.get_view()
    top = {_XYZ: 1, _FIT_H: 0, _FIT_BH: 0, _FIT_R: 3}.get(mode)
    return index, (view[top] if top is not None and top < len(view) and view[top] > 0 else None)


# -- finding the titles on their pages ------------------------------------------------------------------------


def norm(text: str) -> str:
    """Letters and digits only, lower case: what two printings of one title share."""
    return _NOT_ALNUM.sub("", (text if text.isascii() else unicodedata.normalize("NFKC", text)).lower())


def unnumbered(text: str) -> str:
    return norm(without_number(text))


@dataclass(frozen=True)
class Span:
    """Lines `start`..`end` (exclusive) of a page's lines in reading order."""

    start: int
    end: int
    top: float | None


@dataclass
class _PageIndex:
    lines: list[Line]
    groups: list[int]  # each line's paragraph (or table) number on the page
    exact: dict[str, list[Span]] = field(default_factory=dict)
    bare: dict[str, list[Span]] = field(default_factory=dict)
    spans: list[tuple[str, Span]] = field(default_factory=list)
    used: set[int] = field(default_factory=set)


def _page_index(lines: list[Line], groups: list[int]) -> _PageIndex:
    """Runs of one to `MAX_TITLE_LINES` lines that may print a title, by their letters with and without their
    numbering; inside a paragraph, a run starts at a short line or after one."""
    index = _PageIndex(lines, groups)
    norms = [norm(line.text) for line in lines]
    for start in range(len(lines)):
        if start and groups[start - 1] == groups[start] and \
                min(len(lines[start - 1].text.split()), len(lines[start].text.split())) > MAX_LABEL_WORDS:
            continue  # inside a paragraph a title is short or follows a short line ("PART III" above "Item 10.")
        first = unnumbered(lines[start].text)
        for end in range(start + 1, min(start + MAX_TITLE_LINES, len(lines)) + 1):
            if groups[end - 1] - groups[start] > 1:
                break  # a title runs over two paragraphs at most, never over something between them
            box = lines[start].box
            span = Span(start, end, box.top if box else None)
            text, bare = "".join(norms[start:end]), first + "".join(norms[start + 1:end])
            index.exact.setdefault(text, []).append(span)
            index.bare.setdefault(bare, []).append(span)
            index.spans.append((text, span))
    return index


@dataclass
class _Budget:
    left: int = FUZZY_BUDGET


def find_titles(pages: list[list[Line]], groups: list[list[int]], outline: list[OutlineEntry]) \
        -> list[dict[Span, int]]:
    """For each page, the spans of lines that print an outline title, with the entry's level. `groups[p][i]` is
    the number of the paragraph line i of page p is in (numbers skip what lies between paragraphs: a table)."""
    found: list[dict[Span, int]] = [{} for _ in pages]
    indexes: dict[int, _PageIndex] = {}
    budget = _Budget()
    for entry in outline:
        for page in (entry.page, entry.page + 1):
            if page >= len(pages):
                continue
            if page not in indexes:
                indexes[page] = _page_index(pages[page], groups[page])
            span = _locate(indexes[page], entry, budget)
            if span is not None:
                indexes[page].used.update(range(span.start, span.end))
                found[page][span] = entry.level
                break
    return found


def _locate(index: _PageIndex, entry: OutlineEntry, budget: _Budget) -> Span | None:
    title = norm(entry.title)
    if not title:
        return None
    bare = unnumbered(entry.title)
    spans = index.exact.get(title) or (index.bare.get(bare) if len(bare) >= MIN_BARE_CHARS else None) or []
    spans = [span for span in spans if not index.used.intersection(range(span.start, span.end))]
    if not spans and len(title) >= FUZZY_MIN_CHARS:
        spans = _near(index, title, budget)
    if not spans:
        return None
    return min(spans, key=lambda span: _rank(index, span, entry))


def _near(index: _PageIndex, title: str, budget: _Budget) -> list[Span]:
    out = []
    for text, span in index.spans:
        if budget.left <= 0:
            break
        if abs(len(text) - len(title)) > len(title) * (1 - FUZZY_RATIO) or \
                index.used.intersection(range(span.start, span.end)):
            continue
        matcher = difflib.SequenceMatcher(None, title, text, autojunk=False)
        budget.left -= 1
        if matcher.quick_ratio() < FUZZY_RATIO:
            continue
        budget.left -= FULL_RATIO_COST
        if matcher.ratio() >= FUZZY_RATIO:
            out.append(span)
    return out


def _rank(index: _PageIndex, span: Span, entry: OutlineEntry) -> tuple[bool, bool, float, bool]:
    """The title as printed before one equal in letters only ("Gross Margin", not "Gross margin:"), whole
    paragraphs before pieces of one, then the span nearest to where the destination points."""
    groups = index.groups
    printed = " ".join(line.text for line in index.lines[span.start:span.end])
    starts_paragraph = span.start == 0 or groups[span.start - 1] != groups[span.start]
    ends_paragraph = span.end == len(groups) or groups[span.end] != groups[span.end - 1]
    top = entry.top
    distance = 0.0 if top is None or span.top is None else abs(top - span.top)
    return " ".join(printed.split()) != entry.title, not starts_paragraph, distance, not ends_paragraph
