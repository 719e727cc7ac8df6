"""`Document`: one type from loading to ingestion — the text per page plus where it came from.

Loaders return it for files; pasted text, a visited web page and an image's description are documents too
(`Document.from_text`), so the ingestion pipeline takes one type whatever the origin. The pipeline chunks page
text on blank lines and carries page numbers (and the printed page labels beside them) into node provenance, so
loaders keep paragraph structure and page boundaries and nothing else about layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Page:
    number: int | None  # 1-based page number for PDFs, None for formats without pages
    text: str
    label: str | None = None  # the page number printed on it ("iii", "5"), when the PDF tells; never guessed


@dataclass(frozen=True)
class Document:
    name: str  # display name (file name, page title, "pasted text")
    path: str | None  # absolute path of the file on disk; None for text that never was a file
    kind: str  # "pdf" | "text" | "markdown" | "html" | "image" | "web"
    pages: list[Page]  # one Page(None, text) for text formats; [] for an image not yet described
    metadata: dict = field(default_factory=dict)  # page_count, title, width/height/format, mime, ...
    url: str | None = None  # where a web page was read from

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
