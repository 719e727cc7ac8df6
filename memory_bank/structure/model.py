"""The shape of one document as the memory keeps it: a section tree and the units read in order.

A unit is what chunking never cuts: a paragraph, a heading, a list with its lead-in, a table, a conversation
turn. Every unit names the section it sits in, so every node and raw entry made from it can say where it was
read ("§3.2.1 Device Agent/Gateway-Based Deployment, p. 14", "Session 3 (8 May 2023)").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..loaders.document import Table
from ..text.split import split_sentences

UnitKind = Literal["heading", "paragraph", "list", "table", "turn"]
StructureKind = Literal["document", "transcript"]


@dataclass(frozen=True)
class Section:
    id: str  # unique within the document: "s1", "s2", ... in reading order
    title: str  # as printed: "3.2.1 Device Agent/Gateway-Based Deployment", "Item 7. Management's ...", "Session 3"
    level: int  # 1 = top
    parent: str | None  # the enclosing section's id
    path: tuple[str, ...]  # titles from the top down, this one last
    page_start: int | None = None
    page_end: int | None = None
    date: str | None = None  # a conversation session's date, as written


@dataclass(frozen=True)
class ListItem:
    marker: str  # "1.", "a)", "•"
    text: str  # the item's whole text, marker left out

    @property
    def first_sentence(self) -> str:
        sentences = split_sentences(self.text)
        return sentences[0] if sentences else self.text


@dataclass(frozen=True)
class Unit:
    kind: UnitKind
    text: str  # the unit's text as chunking and the raw entry take it
    section: str | None  # id of the section it sits in; None before the first heading
    page_start: int | None = None
    page_end: int | None = None
    lead_in: str = ""  # a list's opening sentence(s) ("... the following tenets:")
    items: tuple[ListItem, ...] = ()  # a list's items, in order
    table: Table | None = None
    speaker: str | None = None  # a turn's speaker
    date: str | None = None  # a turn's session date


@dataclass
class DocStructure:
    kind: StructureKind
    sections: list[Section] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    # sections by id, built on first look-up: ingestion looks up a section per chunk piece and per cluster, and
    # a long conversation has thousands of sessions (rebuilt when the list grows or shrinks)
    _index: dict[str, Section] = field(default_factory=dict, init=False, repr=False, compare=False)
    # sub-sections and units by section id, likewise: a section node's outline reads its section's units and
    # each sub-section's opening, for every section (a scan of every unit each time is sections x units)
    _kids: dict[str | None, list[Section]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _kids_of: int = field(default=-1, init=False, repr=False, compare=False)
    _held: dict[str | None, list[Unit]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _held_of: int = field(default=-1, init=False, repr=False, compare=False)

    def section(self, section_id: str | None) -> Section | None:
        if section_id is None:
            return None
        return self._by_id().get(section_id)

    def children(self, section_id: str | None) -> list[Section]:
        if self._kids_of != len(self.sections):
            self._kids, self._kids_of = {}, len(self.sections)
            for s in self.sections:
                self._kids.setdefault(s.parent, []).append(s)
        return list(self._kids.get(section_id, ()))

    def units_in(self, section_id: str | None) -> list[Unit]:
        """The units that sit directly in the section (not in its sub-sections), in reading order."""
        if self._held_of != len(self.units):
            self._held, self._held_of = {}, len(self.units)
            for u in self.units:
                self._held.setdefault(u.section, []).append(u)
        return list(self._held.get(section_id, ()))

    def opening(self, section_id: str | None) -> Unit | None:
        """The section's first paragraph: what its outline quotes for it."""
        return next((u for u in self.units_in(section_id) if u.kind == "paragraph"), None)

    def _by_id(self) -> dict[str, Section]:
        if len(self._index) != len(self.sections):
            self._index = {s.id: s for s in self.sections}
        return self._index
