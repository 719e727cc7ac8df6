"""`Document`: one type from loading to ingestion — the text per page plus where it came from.

Loaders return it for files; pasted text, a visited web page and an image's description are documents too
(`Document.from_text`), so the ingestion pipeline takes one type whatever the origin. The pipeline chunks page
text on blank lines and carries page numbers (and the printed page labels beside them) into node provenance.

What only the loader can see of a document's shape travels as typed `Block`s beside the page text: a heading
with its level (from a PDF's outline, its layout, Markdown or HTML), a table with its row labels and column
headers (from the characters' positions). The structure stage (`memory_bank.structure`) builds the section tree,
lists and conversations from them; a page without blocks is read from its text alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..limits import MAX_URL, shorten, shorten_name

BlockKind = Literal["paragraph", "heading", "table"]


@dataclass(frozen=True)
class TableRow:
    label: str  # the row's label ("Purchases of marketable securities"); "" for a row of values only
    cells: tuple[str, ...]  # one value per column of the table, "" where the row has none


@dataclass(frozen=True)
class Table:
    """A table as rows with their labels, the column headers (years) and the unit attached, so that one row
    read alone still says what its numbers are."""

    caption: str  # its title ("CONSOLIDATED STATEMENTS OF CASH FLOWS"); "" when none was found
    columns: tuple[str, ...]  # the header of each value column ("2022", "2021"); "" where none was found
    rows: tuple[TableRow, ...]
    unit: str = ""  # "millions", "in thousands, except per share amounts", ... ; "" when not stated

    def row_text(self, row: TableRow) -> str:
        """'Purchases of marketable securities | 2022: (76,923) | 2021: (109,558) (millions)'."""
        cells = [f"{column}: {cell}" if column else cell
                 for column, cell in zip(self.columns, row.cells) if cell]
        text = " | ".join([row.label, *cells] if row.label else cells)
        return f"{text} ({self.unit})" if self.unit and cells else text

    def text(self) -> str:
        """The caption, then one row a line: one paragraph (no blank line), so a table chunks as one unit."""
        lines = [self.caption] if self.caption else []
        lines.extend(self.row_text(row) for row in self.rows)
        return "\n".join(line for line in lines if line)


@dataclass(frozen=True)
class Block:
    """One paragraph-level piece of a page as the loader saw it. `text` is exactly what the page text holds
    for it (the page text is its blocks' texts joined by blank lines)."""

    text: str
    kind: BlockKind = "paragraph"
    level: int | None = None  # a heading's depth (1 = top) when the source says it (outline, #, <h2>)
    table: Table | None = None  # set for kind "table"


@dataclass(frozen=True)
class Page:
    number: int | None  # 1-based page number for PDFs, None for formats without pages
    text: str
    label: str | None = None  # the page number printed on it ("iii", "5"), when the PDF tells; never guessed
    blocks: tuple[Block, ...] = ()  # the page's paragraphs typed by the loader; () when it only has text

    @classmethod
    def from_blocks(cls, number: int | None, blocks: list[Block], label: str | None = None) -> Page:
        kept = tuple(b for b in blocks if b.text.strip())
        return cls(number, "\n\n".join(b.text for b in kept), label, kept)


@dataclass(frozen=True)
class Document:
    name: str  # display name (file name, page title, "pasted text")
    path: str | None  # absolute path of the file on disk; None for text that never was a file
    kind: str  # "pdf" | "text" | "markdown" | "html" | "image" | "web"
    pages: list[Page]  # one Page(None, text) for text formats; [] for an image not yet described
    metadata: dict = field(default_factory=dict)  # page_count, title, width/height/format, mime, ...
    url: str | None = None  # where a web page was read from

    def __post_init__(self) -> None:
        """A name of any length (an API caller's, a page title) is shortened at entry, keeping its extension,
        to the bound the memory and its exports hold every name to (`limits`)."""
        object.__setattr__(self, "name", shorten_name(self.name))
        if self.url is not None:
            object.__setattr__(self, "url", shorten(self.url, MAX_URL))

    @classmethod
    def from_text(cls, text: str, name: str, *, kind: str = "text", path: str | None = None,
                  url: str | None = None) -> Document:
        """Unpaged text as a document: pasted notes, a visited page's evidence, an image's description."""
        return cls(name=name, path=path, kind=kind, pages=[Page(None, text)], url=url)

    @property
    def page_texts(self) -> list[tuple[int | None, str]]:
        return [(page.number, page.text) for page in self.pages]

    @property
    def page_labels(self) -> dict[int, str]:
        """PDF page number -> printed page label, for the pages that have one (see `text.pages`)."""
        return {page.number: page.label for page in self.pages if page.number is not None and page.label}

    @property
    def text(self) -> str:
        """All pages' text, paragraphs and pages separated by blank lines."""
        return "\n\n".join(page.text for page in self.pages if page.text)
