"""What every loader returns: the document's text per page plus metadata.

The pipeline chunks page text on blank lines and carries page numbers into node provenance, so loaders keep
paragraph structure and page boundaries and nothing else about layout.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    number: int | None  # 1-based page number for PDFs, None for formats without pages
    text: str


@dataclass(frozen=True)
class LoadedDocument:
    name: str  # display name (file name)
    path: str  # absolute path of the file on disk
    kind: str  # "pdf" | "text" | "markdown" | "html" | "image"
    pages: list[Page]  # one Page(None, text) for text formats; [] for images
    metadata: dict  # page_count, title, width/height/format, mime, ...

    @property
    def text(self) -> str:
        """All pages' text, paragraphs and pages separated by blank lines."""
        return "\n\n".join(page.text for page in self.pages if page.text)
