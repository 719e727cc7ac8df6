"""Chunks: a document's paragraphs packed into pieces that fit an agent's window, with the pages they cover."""

from __future__ import annotations

from dataclasses import dataclass

from .split import split_paragraphs, split_sentences
from .tokens import STOPWORDS, chars_for_tokens, estimate_tokens


@dataclass(frozen=True)
class Piece:
    """Where one piece of a structural unit (a paragraph, a list item, a table row, a turn) sits in a chunk's
    text, and which unit it belongs to, so that clustering can keep units whole and clusters know their place."""

    start: int
    end: int
    unit: int  # index of the unit in the document's structure
    kind: str  # "heading", "paragraph", "item", "row", "turn"


@dataclass(frozen=True)
class Chunk:
    text: str
    page_start: int | None = None
    page_end: int | None = None
    pieces: tuple[Piece, ...] = ()  # empty for a chunk made from paragraphs alone


# A paragraph ending in one of these has finished its sentence; anything else may run on over a page break.
_SENTENCE_FINAL = (".", "!", "?", ":", ";", '"', "'", ")", "]", "”", "’")

# (text, first page, last page); pages are None for text without pages
PageParagraph = tuple[str, int | None, int | None]


def page_paragraphs(pages: list[tuple[int | None, str]]) -> list[PageParagraph]:
    """Paragraphs with the pages they sit on. A page's first paragraph that continues the previous page's last
    one (no sentence end before the break; a lower-case word after it, or a function word before it) is joined
    to it, so the page layout does not cut a sentence in two nodes."""
    out: list[PageParagraph] = []
    for number, text in pages:
        for i, paragraph in enumerate(split_paragraphs(text)):
            if i == 0 and out and runs_on(out[-1][0], paragraph):
                previous, first, _ = out[-1]
                out[-1] = (f"{previous} {paragraph}", first, number)
            else:
                out.append((paragraph, number, number))
    return out


def runs_on(before: str, after: str) -> bool:
    if before.endswith(_SENTENCE_FINAL):
        return False
    last_word = before.rsplit(None, 1)[-1].lower()
    return after[:1].islower() or last_word in STOPWORDS


def chunk_paragraphs(paragraphs: list[PageParagraph], budget_tokens: int) -> list[Chunk]:
    """Pack paragraphs into chunks of at most `budget_tokens`, cutting only between paragraphs (or, for an
    over-long paragraph, between its sentences). Page ranges follow the paragraphs."""
    chunks: list[Chunk] = []
    buf: list[str] = []
    pages: list[int] = []
    size = 0

    def flush() -> None:
        nonlocal buf, pages, size
        if buf:
            chunks.append(Chunk("\n\n".join(buf), min(pages) if pages else None, max(pages) if pages else None))
        buf, pages, size = [], [], 0

    for text, first, last in paragraphs:
        for piece in ([text] if estimate_tokens(text) <= budget_tokens else hard_split(text, budget_tokens)):
            cost = estimate_tokens(piece) + 1
            if buf and size + cost > budget_tokens:
                flush()
            buf.append(piece)
            size += cost
            pages.extend(p for p in (first, last) if p is not None)
    flush()
    return chunks


def hard_split(paragraph: str, budget: int) -> list[str]:
    """A paragraph longer than the budget is cut at sentence ends, then at word boundaries."""
    pieces: list[str] = []
    current = ""
    limit = chars_for_tokens(budget)
    for sentence in split_sentences(paragraph) or [paragraph]:
        while estimate_tokens(sentence) > budget:
            cut = sentence[:limit].rsplit(" ", 1)[0] or sentence[:limit]
            if current:
                pieces.append(current)
                current = ""
            pieces.append(cut)
            sentence = sentence[len(cut):].lstrip()
        if current and estimate_tokens(current) + estimate_tokens(sentence) + 1 > budget:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip()
    if current:
        pieces.append(current)
    return pieces
