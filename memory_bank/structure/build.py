"""Build a document's `DocStructure`: its section tree and the units chunking must not cut.

Input is what the loader gave: typed blocks where it saw layout (a PDF's headings and tables, Markdown and HTML
headings), page text alone otherwise, where short title lines and numbered headings ("3.2.1 ...", "Item 7.")
are read as headings by rule. A conversation (speaker turns, dated sessions) is read as one by `transcript`.
Everything is bounded: a page where every line looks like a heading, a list of 10,000 items or a table of
5,000 rows gives a result of bounded size, in one pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..loaders.document import Block, BlockKind, Document, Table
from ..text.chunks import runs_on
from ..text.numbering import is_caption
from ..text.split import split_paragraphs
from .headings import looks_like_heading, markdown_heading, numbered_level
from .lists import (
    Marker,
    continues,
    inline_items,
    introduction,
    item,
    item_marker,
    lead_in,
    line_items,
    starts_list,
)
from .model import DocStructure, ListItem, Section, Unit
from .transcript import read_transcript

TRANSCRIPT_KINDS = frozenset({"text", "markdown"})


@dataclass(frozen=True)
class StructureLimits:
    """`max_sections`: headings past this many are read as paragraphs (a page of nothing but short capitalised
    lines must not make a tree of thousands); `max_depth`: deeper headings hang at this depth."""

    max_sections: int = 2_000
    max_depth: int = 8


@dataclass(frozen=True)
class _Para:
    text: str
    kind: BlockKind
    level: int | None
    table: Table | None
    page_start: int | None
    page_end: int | None


class StructureBuilder:
    def __init__(self, limits: StructureLimits | None = None) -> None:
        self.limits = limits or StructureLimits()

    def run(self, doc: Document) -> DocStructure:
        if doc.kind in TRANSCRIPT_KINDS:
            transcript = read_transcript(doc.text)
            if transcript is not None:
                return transcript
        # headings are guessed by rule unless the loader typed some: a PDF page typed only for its tables
        # still has its headings in plain paragraphs
        typed = any(block.kind == "heading" for page in doc.pages for block in page.blocks)
        builder = _Tree(self.limits, doc.kind == "markdown")
        for para in _paragraphs(doc):
            builder.add(para, by_rule=not typed)
        return builder.finish()


def _paragraphs(doc: Document) -> list[_Para]:
    """Every page's paragraphs in reading order; a paragraph that runs on over a page break is joined, across the
    page's printed number when that was left at its foot ("… in connection with the 2022 Restructuring Plan in" /
    "88" / "fiscal 2023 and 2022, respectively." was two paragraphs, the first cut mid-sentence)."""
    out: list[_Para] = []
    for page in doc.pages:
        blocks = page.blocks or tuple(Block(text) for text in split_paragraphs(page.text))
        for i, block in enumerate(blocks):
            at = len(out) - 2 if len(out) > 1 and _folio(out[-1]) else len(out) - 1
            last = out[at] if i == 0 and at >= 0 else None
            if last is not None and last.kind == block.kind == "paragraph" and runs_on(last.text, block.text):
                out[at] = replace(last, text=f"{last.text} {block.text}", page_end=page.number)
            else:
                out.append(_Para(block.text, block.kind, block.level, block.table, page.number, page.number))
    return out


_FOLIO = re.compile(r"(?:[A-Z]{1,2}-)?\d{1,4}")  # a printed page number: "88", "A-12"


def _folio(para: _Para) -> bool:
    """Is the paragraph a page's printed number alone (a footer the running-text filter kept)?"""
    return para.kind == "paragraph" and _FOLIO.fullmatch(para.text.strip()) is not None


@dataclass
class _Open:
    """The section being filled and how its level was decided (a guessed level makes the next guess a
    sibling, a numbered one makes it a child)."""

    section: Section
    guessed: bool


@dataclass
class _OpenList:
    """A list being read: its paragraphs and items gather here and reach its unit when it closes (one join, so
    a list of 10,000 items costs linear time)."""

    index: int  # the list unit's place in `units`
    marker: Marker
    paragraphs: bool  # items one per paragraph (else one per line, closed at once)
    texts: list[str] = field(default_factory=list)  # paragraphs after the first
    items: list[ListItem] = field(default_factory=list)  # items after the first paragraph's
    page_end: int | None = None


class _Tree:
    def __init__(self, limits: StructureLimits, markdown: bool) -> None:
        self.limits, self.markdown = limits, markdown
        self.sections: list[Section] = []
        self.units: list[Unit] = []
        self.stack: list[_Open] = []
        self.open_list: _OpenList | None = None

    @property
    def current(self) -> str | None:
        return self.stack[-1].section.id if self.stack else None

    def add(self, para: _Para, by_rule: bool) -> None:
        if para.kind == "table":
            self._close_list()
            self.units.append(Unit("table", para.text, self.current, para.page_start, para.page_end,
                                   table=para.table))
            return
        heading = self._heading(para, by_rule)
        if heading is not None:
            self._close_list()
            self._open_section(*heading, para)
            return
        self._paragraph(para)

    # -- headings --------------------------------------------------------------------------------------------------

    def _heading(self, para: _Para, by_rule: bool) -> tuple[str, int | None] | None:
        """(title, level if known) when the paragraph is a heading of the section tree."""
        if len(self.sections) >= self.limits.max_sections:
            return None
        text = " ".join(para.text.split())
        marked = markdown_heading(para.text) if (self.markdown or by_rule) else None
        if marked is not None:
            return marked[1], marked[0]
        if para.kind == "heading":
            return text, para.level or numbered_level(text)
        if by_rule and looks_like_heading(para.text) and not is_caption(text) and item_marker(text) is None:
            return text, numbered_level(text)
        return None

    def _open_section(self, title: str, level: int | None, para: _Para) -> None:
        guessed = level is None
        if level is None:
            top = self.stack[-1] if self.stack else None
            level = 1 if top is None else (top.section.level if top.guessed else top.section.level + 1)
        level = max(1, min(level, self.limits.max_depth))
        while self.stack and self.stack[-1].section.level >= level:
            self.stack.pop()
        parent = self.stack[-1].section if self.stack else None
        section = Section(id=f"s{len(self.sections) + 1}", title=title, level=level,
                          parent=parent.id if parent else None, path=(*(parent.path if parent else ()), title),
                          page_start=para.page_start, page_end=para.page_end)
        self.sections.append(section)
        self.stack.append(_Open(section, guessed))
        self.units.append(Unit("heading", para.text, section.id, para.page_start, para.page_end))

    # -- paragraphs and lists ----------------------------------------------------------------------------------------

    def _paragraph(self, para: _Para) -> None:
        marker = item_marker(para.text)
        open_list = self.open_list
        if marker is not None and open_list is not None and open_list.paragraphs and continues(open_list.marker,
                                                                                               marker):
            self._extend_list(open_list, para, marker)
            return
        self._close_list()
        lines = _line_list(para.text)
        if lines is not None:
            lead, items = lines
            self._start_list(para, items, lead, paragraphs=False)
            self._close_list()
        elif marker is not None and starts_list(marker):
            self._start_list(para, [item(para.text, marker)], None, paragraphs=True, marker=marker)
        else:
            self.units.append(Unit("paragraph", para.text, self.current, para.page_start, para.page_end))

    def _start_list(self, para: _Para, items: list[ListItem], own_lead: str | None, *, paragraphs: bool,
                    marker: Marker | None = None) -> None:
        text, page_start, lead = para.text, para.page_start, own_lead or ""
        previous = self.units[-1] if self.units else None
        if not own_lead and previous is not None and previous.kind == "paragraph" and \
                previous.section == self.current:
            announced = lead_in(previous.text)
            if announced is not None:
                lead = announced
                if announced == " ".join(previous.text.split()):  # a short lead-in paragraph joins the list
                    self.units.pop()
                    text, page_start = f"{previous.text}\n\n{para.text}", previous.page_start
            else:
                lead = introduction(previous.text) or ""
        self.units.append(Unit("list", text, self.current, page_start, para.page_end, lead_in=lead,
                               items=tuple(items)))
        self.open_list = _OpenList(len(self.units) - 1, marker or Marker("", "bullet", None, 0), paragraphs)

    @staticmethod
    def _extend_list(open_list: _OpenList, para: _Para, marker: Marker) -> None:
        open_list.texts.append(para.text)
        open_list.items.append(item(para.text, marker))
        open_list.page_end = para.page_end if para.page_end is not None else open_list.page_end
        open_list.marker = marker

    def _close_list(self) -> None:
        """A 'list' of one item with no lead-in is a paragraph that happens to start with a number."""
        open_list, self.open_list = self.open_list, None
        if open_list is None:
            return
        unit = self.units[open_list.index]
        if open_list.texts:
            unit = replace(unit, text="\n\n".join([unit.text, *open_list.texts]),
                           page_end=open_list.page_end if open_list.page_end is not None else unit.page_end,
                           items=(*unit.items, *open_list.items))
            self.units[open_list.index] = unit
        if len(unit.items) < 2 and lead_in(unit.lead_in) is None:
            self.units[open_list.index] = Unit("paragraph", unit.text, unit.section, unit.page_start,
                                               unit.page_end)

    def finish(self) -> DocStructure:
        self._close_list()
        units = _rejoined(self.units)
        return DocStructure("document", _with_page_ends(self.sections, units), units)


# a note at a page's foot ("1 https://…", "2 Any mention of commercial products …"): read between a list's items
# where the list runs on over the page break
_FOOTNOTE = re.compile(r"^\s*\d{1,2}\s+\S")
MAX_FOOTNOTES = 8  # notes read between the two parts of a list at most


def _rejoined(units: list[Unit]) -> list[Unit]:
    """A list a page break cut in two, the page's footnotes read between its items, as one list again: a list
    with no lead-in of its own, of the same section and kind of marker, after only footnotes and a page turn
    ("The rest of the document is organized as follows:" had two sections listed, then four more)."""
    out: list[Unit] = []
    for unit in units:
        if unit.kind != "list" or unit.lead_in or not unit.items:
            out.append(unit)
            continue
        k, first = len(out) - 1, max(-1, len(out) - 1 - MAX_FOOTNOTES)  # a page's few notes, not a run of thousands
        while k > first and out[k].kind == "paragraph" and out[k].section == unit.section \
                and _FOOTNOTE.match(out[k].text):
            k -= 1
        before = out[k] if k >= 0 else None
        if (k < len(out) - 1 and before is not None
                and before.kind == "list" and before.section == unit.section and before.items
                and _family(before.items[-1].marker) == _family(unit.items[0].marker)
                and (before.page_end or 0) < (unit.page_start or 0)):
            out[k] = replace(before, text=f"{before.text}\n\n{unit.text}", page_end=unit.page_end,
                             items=(*before.items, *unit.items))
            continue
        out.append(unit)
    return out


def _family(marker: str) -> str:
    found = item_marker(f"{marker} x")
    return found.family if found is not None else marker


def _line_list(paragraph: str) -> tuple[str | None, list[ListItem]] | None:
    """A paragraph of item lines, optionally after a first line that announces them ('Steps:\\n- a\\n- b')."""
    items = line_items(paragraph)
    if items is not None:
        return None, items
    first, _, rest = paragraph.strip().partition("\n")
    if rest and first.rstrip().endswith(":"):
        items = line_items(rest)
        if items is not None:
            return " ".join(first.split()), items
    inline = inline_items(paragraph)
    if inline is not None:
        return inline[0] or None, inline[1]
    return None


def _with_page_ends(sections: list[Section], units: list[Unit]) -> list[Section]:
    """Each section's last page is the last page of anything inside it, sub-sections included."""
    last: dict[str, int] = {}
    parents = {s.id: s.parent for s in sections}
    for unit in units:
        section, page = unit.section, unit.page_end
        while section is not None and page is not None:
            last[section] = max(last.get(section, page), page)
            section = parents.get(section)
    return [replace(s, page_end=last.get(s.id, s.page_end)) for s in sections]
