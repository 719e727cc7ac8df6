"""Where a cluster sits in its document's structure: the unit (and so the section) its text came from.

The offline classifier slices cluster content verbatim from the chunk, so its place is found exactly; an LLM
may reflow the text, and then its opening words are looked up; a cluster that cannot be placed gets no section
rather than a guessed one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines.models import UnitHint
from ..structure.model import DocStructure, Section, Unit
from ..text.chunks import Chunk

_PROBE = 80  # characters of a reflowed cluster's opening looked up in the chunk


@dataclass(frozen=True)
class Place:
    unit: Unit  # the first unit of the cluster that is not a heading (the heading's when it is all heading)
    section: Section | None
    units: tuple[Unit, ...] = ()  # every unit the cluster holds a piece of, in order

    @property
    def path(self) -> tuple[str, ...]:
        return self.section.path if self.section else ()


def hints(chunk: Chunk, structure: DocStructure) -> list[UnitHint]:
    """The chunk's pieces as the classification agent's structure hints, each named by its section's title (a
    table's rows by the table's caption, when it has one)."""
    out: list[UnitHint] = []
    for piece in chunk.pieces:
        unit = structure.units[piece.unit]
        section = structure.section(unit.section)
        title = unit.table.caption if unit.table is not None and unit.table.caption else (
            section.title if section else "")
        out.append(UnitHint(start=piece.start, end=piece.end, kind=piece.kind, group=piece.unit, section=title))
    return out


def place(chunk: Chunk, structure: DocStructure, content: str) -> Place | None:
    if not chunk.pieces:
        return None
    start = chunk.text.find(content)
    if start < 0:
        probe = " ".join(content.split())[:_PROBE]
        start = chunk.text.find(probe) if probe else -1
    if start < 0:
        return None
    end = start + max(1, len(content))
    inside = [p for p in chunk.pieces if p.start < end and p.end > start]
    if not inside:
        return None
    body = [p for p in inside if p.kind != "heading"] or inside
    unit = structure.units[body[0].unit]
    units = tuple(structure.units[i] for i in dict.fromkeys(p.unit for p in inside))
    return Place(unit, structure.section(unit.section), units)
