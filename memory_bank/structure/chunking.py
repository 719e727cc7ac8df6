"""Chunks made of structural units: cut only between units, or between the items of a list, the rows of a
table, never inside a turn (an over-long single paragraph or turn is cut at sentence ends, as before).

Each chunk says where every piece sits in its text and which unit it belongs to, so the classification agent
can keep a list with its lead-in, a table's rows together and a section's passages apart from the next
section's, and each cluster can be traced back to its section.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.chunks import Chunk, Piece, hard_split
from ..text.split import paragraph_spans
from ..text.tokens import estimate_tokens
from .model import DocStructure, Unit

SEPARATOR = "\n\n"


@dataclass(frozen=True)
class _Part:
    text: str
    unit: int
    kind: str
    page_start: int | None
    page_end: int | None


def unit_parts(index: int, unit: Unit, budget_tokens: int) -> list[_Part]:
    """A unit as the pieces chunking may cut between."""
    if unit.kind == "table":
        texts, kind = [line for line in unit.text.split("\n") if line.strip()], "row"
    elif unit.kind == "list":
        texts = [s.text for s in paragraph_spans(unit.text)]
        if len(texts) < 2:
            texts = [line for line in unit.text.split("\n") if line.strip()]
        kind = "item"
    else:
        texts, kind = [unit.text], unit.kind
    out: list[_Part] = []
    for text in texts:
        pieces = [text] if estimate_tokens(text) <= budget_tokens else hard_split(text, budget_tokens)
        out.extend(_Part(piece, index, kind, unit.page_start, unit.page_end) for piece in pieces)
    return out


def chunk_units(structure: DocStructure, budget_tokens: int) -> list[Chunk]:
    """Pack the structure's units, in order, into chunks of at most `budget_tokens`. A conversation's chunk
    holds one session: a classifier (an LLM above all) shown two sessions may make a cluster of both, and its
    turns would then cite the first session's date."""
    chunks: list[Chunk] = []
    parts: list[_Part] = []
    size = 0
    by_session = structure.kind == "transcript"
    for index, unit in enumerate(structure.units):
        new_session = by_session and bool(parts) and structure.units[parts[-1].unit].section != unit.section
        for part in unit_parts(index, unit, budget_tokens):
            cost = estimate_tokens(part.text) + 1
            if parts and (size + cost > budget_tokens or new_session):
                parts, carried = _without_trailing_headings(parts)
                chunks.append(_chunk(parts))
                parts, size = carried, sum(estimate_tokens(p.text) + 1 for p in carried)
            parts.append(part)
            size += cost
            new_session = False
    if parts:
        chunks.append(_chunk(parts))
    return chunks


def _without_trailing_headings(parts: list[_Part]) -> tuple[list[_Part], list[_Part]]:
    """A chunk never ends on headings: they go to the next chunk, with the text they head."""
    cut = len(parts)
    while cut > 1 and parts[cut - 1].kind == "heading":
        cut -= 1
    return parts[:cut], parts[cut:]


def _chunk(parts: list[_Part]) -> Chunk:
    pieces: list[Piece] = []
    offset = 0
    for part in parts:
        pieces.append(Piece(offset, offset + len(part.text), part.unit, part.kind))
        offset += len(part.text) + len(SEPARATOR)
    pages = [p for part in parts for p in (part.page_start, part.page_end) if p is not None]
    return Chunk(SEPARATOR.join(part.text for part in parts), min(pages) if pages else None,
                 max(pages) if pages else None, tuple(pieces))
