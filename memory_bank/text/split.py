"""Text helpers shared by every engine: tokens, token estimates, sentences, chunking.

Token counts are estimates (no tokenizer download: `tiktoken` fetches its tables from the network). One token is
taken as ~4 characters of English, which errs on the large side for prose so chunks stay inside the window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-']*[A-Za-z0-9]|[A-Za-z0-9]")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")

STOPWORDS = frozenset("""
a an and are as at be been being but by can could did do does doing for from had has have having he her here
hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other
our ours out over own same she should so some such than that the their theirs them then there these they this
those through to too under until up very was we were what when where which while who whom why will with would
you your yours also may might must shall about above after again against all any because before below between
both during each few further s t don now ve ll re d m o y use used using within without via per e g i e
""".split())


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without stopwords: the vocabulary of BM25 and keyword matching."""
    return [w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in STOPWORDS]


def stem(word: str) -> str:
    """Crude suffix stripping so that "founded" meets "found" and "elections" meets "election" in word
    matching."""
    for suffix in ("ies", "ing", "ed", "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> list[str]:
    return [stem(w) for w in tokenize(text)]


def words(text: str) -> list[str]:
    return text.split()


def estimate_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def split_sentences(text: str) -> list[str]:
    parts = _SENTENCE_END.split(" ".join(text.split()))
    return [p.strip() for p in parts if p.strip()]


def split_paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


@dataclass(frozen=True)
class Chunk:
    text: str
    page_start: int | None = None
    page_end: int | None = None


def _hard_split(paragraph: str, budget: int) -> list[str]:
    """A paragraph longer than the budget is cut at sentence ends, then at word boundaries."""
    pieces: list[str] = []
    current = ""
    for sentence in split_sentences(paragraph) or [paragraph]:
        while estimate_tokens(sentence) > budget:
            cut = sentence[: budget * 4].rsplit(" ", 1)[0] or sentence[: budget * 4]
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
            if i == 0 and out and _runs_on(out[-1][0], paragraph):
                previous, first, _ = out[-1]
                out[-1] = (f"{previous} {paragraph}", first, number)
            else:
                out.append((paragraph, number, number))
    return out


def _runs_on(before: str, after: str) -> bool:
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
        for piece in ([text] if estimate_tokens(text) <= budget_tokens else _hard_split(text, budget_tokens)):
            cost = estimate_tokens(piece) + 1
            if buf and size + cost > budget_tokens:
                flush()
            buf.append(piece)
            size += cost
            pages.extend(p for p in (first, last) if p is not None)
    flush()
    return chunks
