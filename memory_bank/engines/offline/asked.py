"""The question as the offline executor reads it, once: its evidence and what kind of answer it asks for.

Each answer strategy (`direct_answers.py`, `structured_answers.py`, `prose_answer.py`) decides from this one
reading, so none of them reads the question or gathers the evidence again, and the order they are tried in is
the only thing the executor keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...retrieval.view import MemoryView
from ...text.asks import item_noun, kind_is_head
from ...text.tokens import stems
from ..protocol.figures import NamedRow, TableIndex
from ..protocol.memory_block import Selection
from .evidence import Evidence
from .figure_answer import asks_choice, asks_comparison, compared_rows
from .titled_section import titled_evidence, within
from .verdict import is_yes_no


@dataclass(frozen=True)
class Asked:
    """`sections`: every sentence of the sub-sections the question names by title; `evidence`: the selection's
    sentences and those of `titled`; `rows`: the table rows a comparison names ("Was the 2022 effective tax rate
    lower than the statutory rate?" is judged, and shown, by its two rows)."""

    question: str
    selection: Selection
    sections: list[list[Evidence]]
    titled: list[list[Evidence]]  # the named sub-sections short enough to read whole (`titled_section.within`)
    evidence: list[Evidence]
    yes_no: bool
    rows: list[NamedRow]

    @classmethod
    def read(cls, question: str, selection: Selection, selected: list[Evidence], view: MemoryView,
             tables: TableIndex) -> Asked:
        sections = titled_evidence(question, view)
        titled = within(sections)
        yes_no = is_yes_no(question)
        rows = compared_rows(question, tables, moved=not yes_no) if asks_comparison(question) else []
        return cls(question, selection, sections, titled, selected + [ev for section in titled for ev in section],
                   yes_no, rows)

    @property
    def items_asked(self) -> bool:
        """Whether the answer may be a list, a count or a sub-section's items: not a verdict, a comparison of
        rows, or a choice between named things."""
        return not (self.yes_no or self.rows or asks_choice(self.question))

    @property
    def kind(self) -> frozenset[str]:
        """The stems of the kind of item asked for ("segments" of "What are Oracle's business segments?")."""
        return frozenset(stems(item_noun(self.question) or ""))

    @property
    def names_kind(self) -> bool:
        """"Which components …", "What are the tenets …": the question's head is the kind of item it asks for."""
        return self.items_asked and bool(item_noun(self.question)) and kind_is_head(self.question)
