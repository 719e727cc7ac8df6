"""Sentences and paragraphs, as plain strings or as verbatim spans of the input.

Each boundary is defined once, here, so every engine cuts text at the same places. Spans keep character
offsets because several callers must cut the original text (cluster content is mapped back to PDF pages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .tokens import STOPWORDS

# A stop, then any closing quotes or brackets. A sentence break also needs the next sentence to open with a
# capital or a digit, so "3.5" and "e.g. this" are not breaks; a clause end (; and : count too) only needs
# whitespace after it: good enough for a place to cut an over-long passage, not for a sentence list.
_STOP = "[.!?]"
_CLAUSE_STOP = "[.!?;:]"
_CLOSERS = r"[\"')\]]*"
# a stop that ends a title, a company's form, a saint, a rank, a number's or a page's word or a month is no break
# ("the Apple Inc. 2022 Employee Stock Plan", "St. Joseph, Missouri", "Gen. Patton", "No. 9", "on Dec. 25")
_ABBREVIATIONS = ("Inc", "Corp", "Ltd", "Co", "Mr", "Mrs", "Ms", "Dr", "Jr", "Sr", "vs", "St", "Mt", "Ft", "Gen",
                  "Col", "Lt", "Capt", "Sgt", "Rev", "Prof", "Gov", "Sen", "Rep", "Fr", "No", "Nos", "Vol", "Fig",
                  "pp", "approx", "Jan", "Feb", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec")
# nor does a middle initial ("Richard F. Gordon"): a capital alone after a capitalised word; I, V and X are left
# out, since "World War I." ends sentences (lookbehinds are fixed-width: one per length of the word before)
_INITIAL = "".join(rf"(?<!\b[A-Z][a-z]{{{n}}} [A-HJ-UWYZ]\.)" for n in range(1, 12))
# and a run of initials is one name ("The T. T. Tsui Gallery", "by J. R. R. Tolkien"): no break after an initial
# that follows another, nor before one that another initial and a capitalised word follow
_INITIALS = r"(?<!\b[A-Z]\. [A-HJ-UWYZ]\.)(?!(?<=\s[A-HJ-UWYZ]\.)\s+[A-Z]\.\s+[A-Z])"
# nor do dotted initials before a capitalised word that is not a function word ("E.W. Scripps", "the U.S. Army";
# "in the U.S. The next year" and "S.W.A.T. That" still end there)
_FUNCTION_WORDS = "|".join(w.title() for w in sorted(STOPWORDS) if w.isalpha())
_DOTTED = rf"(?!(?<=\b[A-Z]\.[A-Z]\.){_CLOSERS}\s+(?!(?:{_FUNCTION_WORDS})\b)[A-Z][a-z])"
_NOT_AFTER = "".join(rf"(?<!\b{a}\.)" for a in _ABBREVIATIONS) + _INITIAL + _INITIALS + _DOTTED
_SENTENCE_BREAK = re.compile(rf"(?<={_STOP}){_NOT_AFTER}{_CLOSERS}\s+(?=[\"'(\[]?[A-Z0-9])")
# a table's footnote legend ("* Not meaningful", "* Not applicable", "* Less than 1%") that a PDF's text glues to the
# paragraph after the table: it ends there, or its "Not" negates the paragraph's first sentence
_LEGEND = re.compile(r"\s*+[*†‡]++[ \t]*+(?:not[ \t]++(?:meaningful|applicable|available)|n/?[am]|less[ \t]++than"
                     r"[ \t]++[\d.]{1,6}+[ \t]?%?)([ \t\n]++)(?=[A-Z])", re.IGNORECASE)
_CLAUSE_END = re.compile(rf"{_CLAUSE_STOP}{_CLOSERS}(?=\s)")
# A blank line (it may hold spaces) ends a paragraph.
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# A Markdown heading line is a sentence of its own: it has no full stop to end it, and glued to the sentence
# after it ("## Budget The Northwind project budget is ...") it would be quoted as part of that sentence.
_MARKDOWN_HEADING = re.compile(r"^[ \t]{0,3}(#{1,6}[ \t].*?)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Span:
    """A piece of the input with its character offsets, so callers can cut verbatim text."""

    start: int
    end: int
    text: str


def stripped_span(text: str, start: int, end: int) -> Span | None:
    """`text[start:end]` without its surrounding whitespace; None if nothing else is left."""
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    trail = len(piece.rstrip())
    return Span(start + lead, start + trail, piece[lead:trail]) if trail > lead else None


def sentence_breaks(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each gap between two sentences in `text[start:end]`: the closers and whitespace after a
    stop, or after a table’s footnote legend opening the text. Callers that know better (abbreviations) may
    skip some."""
    end = len(text) if end is None else end
    legend = _LEGEND.match(text, start, end)
    return [*([legend.span(1)] if legend else []), *(m.span() for m in _SENTENCE_BREAK.finditer(text, start, end))]


def split_sentences(text: str) -> list[str]:
    """Whitespace-normalised sentences, cut at every sentence break and at every blank line (a heading, a list
    item or a table row ends there without a full stop); a Markdown heading stands alone."""
    out: list[str] = []
    for i, block in enumerate(_MARKDOWN_HEADING.split(text)):
        if i % 2:  # the captured heading lines sit at the odd places of the split
            out.append(" ".join(block.split()))
            continue
        for paragraph in _PARAGRAPH_BREAK.split(block):
            flat = " ".join(paragraph.split())
            bounds = [0, *(offset for gap in sentence_breaks(flat) for offset in gap), len(flat)]
            out.extend(p.strip() for p in (flat[a:b] for a, b in zip(bounds[::2], bounds[1::2])) if p.strip())
    return out


def is_heading(paragraph: str) -> bool:
    """Whether every line of `paragraph` is a Markdown heading."""
    lines = [line for line in paragraph.splitlines() if line.strip()]
    return bool(lines) and all(_MARKDOWN_HEADING.fullmatch(line) for line in lines)


def clause_ends(text: str) -> list[int]:
    """Offsets just past each sentence or clause end (stop and closers) that whitespace follows."""
    return [m.end() for m in _CLAUSE_END.finditer(text)]


def cut_point(text: str, start: int, limit: int) -> int:
    """Where to end a piece of `text` begun at `start` that may not pass `limit`: the last sentence or clause
    end past a third of the room, else the last space there, else the hard limit."""
    window = text[start:limit]
    ends = [e for e in clause_ends(window) if e > len(window) // 3]
    if ends:
        return start + ends[-1]
    space = window.rfind(" ", len(window) // 3)
    return start + space if space > 0 else limit


def paragraph_breaks(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each blank-line gap between two paragraphs in `text[start:end]`."""
    end = len(text) if end is None else end
    return [m.span() for m in _PARAGRAPH_BREAK.finditer(text, start, end)]


def paragraph_spans(text: str) -> list[Span]:
    """Paragraphs as verbatim spans, without surrounding whitespace; blank paragraphs dropped."""
    bounds = [0, *(offset for gap in paragraph_breaks(text) for offset in gap), len(text)]
    spans = (stripped_span(text, a, b) for a, b in zip(bounds[::2], bounds[1::2]))
    return [s for s in spans if s is not None]


def split_paragraphs(text: str) -> list[str]:
    return [s.text for s in paragraph_spans(text)]
