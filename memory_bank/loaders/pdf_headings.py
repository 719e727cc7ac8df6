"""Which paragraphs of a PDF are headings, and how deep each sits.

The outline says it best: a line printing an outline title is a heading at the outline's level (`pdf_outline`).
Outlines are often partial (NIST SP 800-207's leaves out the front matter, Apple's 10-K lists the items but
not the headings inside them) and many PDFs have none (Oracle's 10-K), so a paragraph is also a heading when
its layout says so: one to three lines printed larger than the body text, or bold or
italic where the body is not, short, with no sentence end; or a single line numbered like a section ("3.2.1",
"Item 7.", "PART II") or set in capitals. A heading printed close above its text is cut from it.

Its level comes from the outline, else from its numbering (shifted as the outline shifts numbered titles),
else from its style against the headings above it: a less prominent style nests under a more prominent one, a
heading under a numbered or outline heading nests under it.

Layout is only evidence, so it is bounded: a run of more than `MAX_RUN` layout headings with no text between
(a table of contents, a cover, a list set in bold) and a page with more than `MAX_PER_PAGE` of them keep none.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import groupby

from ..text.numbering import is_caption, numbered_level, single_number, without_number
from .document import Block
from .pdf_fonts import Font, body_font
from .pdf_layout import Line, join_lines
from .pdf_outline import OutlineEntry, Span, find_titles, norm

Piece = list[Line] | Block  # a paragraph's lines, or a block another reader already typed (a table)

MAX_LINES = 3
MAX_WORDS = 20
MAX_NUMBERED_WORDS = 30  # "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and ..."
MAX_CAPITALS_WORDS = 10
MAX_RUN = 3
MAX_PER_PAGE = 15
MAX_REPEATS = 3
MAX_LEVEL = 8
_SENTENCE_END = re.compile(r"[.!?;,:][\"'”’)\]]*$")
_LEADER = re.compile(r"\.{4,}|…|(?:\. ){3,}")
_BULLET = re.compile(r"^\s*[•▪◦‣●○■□∙·*–-]\s")
_INNER_SENTENCE = re.compile(r"[a-z)]\.\s+\S")
_DEEP_NUMBER = re.compile(r"^(?:[A-Z]\.)?\d{1,3}\.\d{1,3}")


@dataclass
class _Para:
    lines: list[Line] = field(default_factory=list)
    block: Block | None = None  # a typed block passed through
    level: int | None = None  # a heading's level: from the outline at once, for a layout heading by `_levels`
    style: tuple | None = None  # set for a layout heading: its prominence key (smaller is more prominent)
    span: Span | None = None  # the lines that print an outline title, for a heading found in the outline

    @cached_property
    def text(self) -> str:
        """Read once the paragraph's lines are settled."""
        return self.block.text if self.block is not None else join_lines([line.text for line in self.lines])


@dataclass(frozen=True)
class HeadingCounts:
    outline_entries: int
    outline_matched: int
    layout: int


def page_blocks(pages: list[list[Piece]], outline: list[OutlineEntry]) -> tuple[list[list[Block]], HeadingCounts]:
    """Each page's paragraphs as blocks in reading order, headings typed and levelled. Block texts are the
    paragraphs' lines joined (soft hyphens still marked)."""
    body = body_font((line.text, line.font) for page in pages for piece in page if isinstance(piece, list)
                     for line in piece)
    paras = _with_outline(pages, outline)
    for page in paras:
        page[:] = [part for para in page for part in _cut(para, body)]
        for para in page:
            if para.level is None and para.block is None:
                para.style = _layout_style(para, body)
    _drop_repeated(paras)
    layout = sum(_bound(page) for page in paras)
    _levels(paras, body)
    blocks = [[_block(para) for para in page] for page in paras]
    matched = sum(1 for page in paras for para in page if para.span is not None)
    return blocks, HeadingCounts(len(outline), matched, layout)


def _with_outline(pages: list[list[Piece]], outline: list[OutlineEntry]) -> list[list[_Para]]:
    """The pages' pieces as paragraphs, the lines printing an outline title cut out as headings of their own."""
    flat = [[line for piece in page if isinstance(piece, list) for line in piece] for page in pages]
    numbers = [[index for index, piece in enumerate(page) if isinstance(piece, list) for _ in piece]
               for page in pages]
    found = find_titles(flat, numbers, outline) if outline else [{} for _ in pages]
    out = []
    for page, spans in zip(pages, found):
        heading_at = {k: span for span in spans for k in range(span.start, span.end)}
        paras: list[_Para] = []
        position = 0
        for piece in page:
            if not isinstance(piece, list):
                paras.append(_Para(block=piece))
                continue
            keyed = [(heading_at.get(position + k), line) for k, line in enumerate(piece)]
            position += len(piece)
            for span, run in groupby(keyed, key=lambda pair: pair[0]):
                lines = [line for _, line in run]
                if span is not None and paras and paras[-1].span == span:
                    paras[-1].lines.extend(lines)  # a title broken over two paragraphs is one heading
                else:
                    paras.append(_Para(lines, level=spans[span] if span else None, span=span))
        out.append(paras)
    return out


def _cut(para: _Para, body: Font | None) -> list[_Para]:
    """Headings cut from the paragraph they were read into: one printed as close above its text as a line of
    the text is (its lines share a style the next line does not), and headings stacked in one style ("PART III"
    above "Item 10. Directors, ...") cut at each line that starts with a section number."""
    if para.level is not None or para.block is not None or len(para.lines) < 2:
        return [para]
    lines = para.lines
    whole = len(lines) <= 2 * MAX_LINES and _style(lines, body) is not None
    cut = len(lines) if whole else _lead_length(lines, body)
    parts = _at_numbers(lines[:cut]) if cut else []
    if cut < len(lines):
        parts.append(lines[cut:])
    return [_Para(part) for part in parts]


def _lead_length(lines: list[Line], body: Font | None) -> int:
    """How many of the first lines form a heading printed in a style of its own; 0 when none do."""
    for cut in range(1, min(MAX_LINES, len(lines) - 1) + 1):
        style = _style(lines[:cut], body)
        if style is not None and _style(lines[:cut + 1], body) != style \
                and _title_like(join_lines([line.text for line in lines[:cut]]), styled=True):
            return cut
    return 0


def _at_numbers(lines: list[Line]) -> list[list[Line]]:
    """Lines cut before each one that starts with a section number."""
    parts: list[list[Line]] = []
    for line in lines:
        if not parts or numbered_level(line.text) is not None:
            parts.append([])
        parts[-1].append(line)
    return parts


def _style(lines: list[Line], body: Font | None) -> tuple | None:
    """The prominence key of lines printed alike in a style that stands out from the body, else None."""
    first = lines[0].font
    if body is None or first is None or not _prominent(first, body):
        return None
    size = first.size_bucket
    for line in lines[1:]:
        font = line.font
        if font is None or font.bold != first.bold or font.italic != first.italic \
                or abs(font.size_bucket - size) > 0.5:
            return None
    return -size, not first.bold, first.italic


def _prominent(font: Font, body: Font) -> bool:
    """Larger than the body, or as large and bold or italic where the body is not."""
    size = font.size_bucket
    if size >= body.size + max(1.0, 0.1 * body.size):
        return True
    emphasis = (font.bold and not body.bold) or (font.italic and not body.italic)
    return emphasis and size >= body.size - 0.5


def _layout_style(para: _Para, body: Font | None) -> tuple | None:
    """The style key of a paragraph that reads as a heading by its layout; None for body text."""
    if not 1 <= len(para.lines) <= MAX_LINES:
        return None
    text = para.text
    style = _style(para.lines, body)
    if style is not None:
        return _cased(style, text) if _title_like(text, styled=True) else None
    if len(para.lines) == 1 and _title_like(text, styled=False):
        numbered = numbered_level(text)
        if (numbered is not None and (numbered >= 2 or _DEEP_NUMBER.match(text))) or _capitals(text):
            return _cased((float("inf"), True, False), text)  # plain type: the least prominent style
    return None


def _cased(style: tuple, text: str) -> tuple:
    """A style's key with capitals ranked above mixed case in the same font ("11. STOCKHOLDERS' EQUITY" over
    "Common Stock Repurchases")."""
    return *style, not text.isupper()


def _capitals(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 4 and text.isupper() and len(text.split()) <= MAX_CAPITALS_WORDS


def _title_like(text: str, *, styled: bool) -> bool:
    """Short, mostly words, capitalised, no sentence end: a title, not a sentence, a caption or a table row."""
    words = text.split()
    numbered = numbered_level(text)
    if not words or len(words) > (MAX_NUMBERED_WORDS if numbered else MAX_WORDS) or len(text) > 250:
        return False
    if _SENTENCE_END.search(text) and not (numbered and len(words) <= 2 and text.endswith(".")):
        return False
    if is_caption(text) or _LEADER.search(text) or _BULLET.match(text) or "://" in text or "www." in text:
        return False
    if any(unicodedata.category(ch) == "So" and ch not in "®©™" for ch in text):
        return False  # check boxes ("Yes ☒ No ☐"), arrows, dingbats: a form, not a title
    wordy = sum(1 for word in words if sum(ch.isalpha() for ch in word) >= 2)
    if wordy * 2 < len(words) or wordy == 0:
        return False
    if not styled and not _plain_title(text, numbered):
        return False
    return text[:1].isupper() or text[:1].isdigit() or any(ch.isupper() for ch in words[0])


def _plain_title(text: str, numbered: int | None) -> bool:
    """A title in body type has only its look in words to go by: a section number or capitals, no sentence
    inside, no more figures than a title has ("3.1 Restated Articles ... 8-K 3.1 8/7/20" is a table row)."""
    if numbered is None and not _capitals(text):
        return False
    rest = without_number(text) if numbered is not None else text
    figures = sum(1 for word in rest.split() if any(ch.isdigit() for ch in word))
    return figures <= 1 and not _INNER_SENTENCE.search(rest)


def _drop_repeated(pages: list[list[_Para]]) -> None:
    """A layout heading printed more than `MAX_REPEATS` times is a table's header row or a form's label, not a
    section title."""
    counts = Counter(norm(para.text) for page in pages for para in page if para.style is not None)
    for page in pages:
        for para in page:
            if para.style is not None and counts[norm(para.text)] > MAX_REPEATS:
                para.style = None


def _bound(page: list[_Para]) -> int:
    """Drop layout headings in runs longer than `MAX_RUN` or on a page with more than `MAX_PER_PAGE`; returns how
    many stay."""
    candidates = [para for para in page if para.style is not None]
    if len(candidates) > MAX_PER_PAGE:
        for para in candidates:
            para.style = None
        return 0
    for is_layout, run in groupby(page, key=lambda para: para.style is not None):
        run = list(run)
        if is_layout and len(run) > MAX_RUN:
            for para in run:
                para.style = None
    return sum(1 for para in page if para.style is not None)


def _levels(pages: list[list[_Para]], body: Font | None) -> None:
    """Give every layout heading a level, walking the document in reading order. A numbered one takes its
    numbering's depth, shifted as the outline shifts numbered titles; an unnumbered one printed in a style that
    only ever marks one level (`_style_levels`: "Abstract" set like "1 Introduction") takes that level;
    otherwise it nests under the heading above it unless that one is no more prominent."""
    deep = any(_DEEP_NUMBER.match(para.text) for page in pages for para in page
               if para.span is not None or para.style is not None)
    offset = _numbering_offset(pages, deep)
    known = _style_levels(pages, body, deep, offset)
    base = 0
    stack: list[tuple[tuple, int]] = []  # the open layout headings: (style key, level)
    for page in pages:
        for para in page:
            if para.span is not None:
                base, stack = para.level or 0, []  # an outline heading has its level from the outline
                continue
            if para.style is None:
                continue
            numbered = _number_level(para.text, deep)
            level = known.get(para.style) if numbered is None else numbered + offset
            if level is not None:
                para.level = max(1, min(level, MAX_LEVEL))
                base, stack = para.level, []
                continue
            while stack and stack[-1][0] >= para.style:
                stack.pop()
            para.level = min((stack[-1][1] if stack else base) + 1, MAX_LEVEL)
            stack.append((para.style, para.level))


def _number_level(text: str, deep: bool) -> int | None:
    return None if single_number(text) and not deep else numbered_level(text)


def _numbering_offset(pages: list[list[_Para]], deep: bool) -> int:
    """How far the outline's levels sit from the numbering's ("2.1 ..." at outline level 3 under a title
    entry: +1), so a numbered heading the outline lacks lands beside its outlined siblings."""
    shifts: Counter[int] = Counter()
    for page in pages:
        for para in page:
            numbered = _number_level(para.text, deep) if para.span is not None else None
            if numbered is not None and para.level is not None:
                shifts[para.level - numbered] += 1
    return shifts.most_common(1)[0][0] if shifts else 0


def _style_levels(pages: list[list[_Para]], body: Font | None, deep: bool, offset: int) -> dict[tuple, int]:
    """Styles that mark a single level among the headings whose level is known: the outline's, and the
    numbered ones where sections are numbered to depth ("2.1"), which number every section so that one without
    a number in their style is a peer ("Abstract", "References"). Where only parts and items are numbered
    ("Item 7."), the headings inside an item are often set in the item's own style."""
    seen: dict[tuple, set[int]] = {}
    for page in pages:
        for para in page:
            numbered = _number_level(para.text, deep) if para.style is not None and deep else None
            level = para.level if para.span is not None else (numbered + offset if numbered else None)
            style = _style(para.lines, body) if level is not None else None
            if style is not None and level is not None:
                seen.setdefault(_cased(style, para.text), set()).add(level)
    return {style: next(iter(levels)) for style, levels in seen.items() if len(levels) == 1}


def _block(para: _Para) -> Block:
    if para.block is not None:
        return para.block
    if para.level is not None:
        return Block(para.text, "heading", para.level)
    return Block(para.text)
