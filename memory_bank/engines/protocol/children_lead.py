"""The sentence that announces a section's sub-sections as the items of a list: "The Company's material cash
requirements include the following contractual obligations." before the sub-headings "Debt", "Leases",
"Manufacturing Purchase Obligations", ….

A list's lead-in is read with the list ("The risks include:"), so a question for "material cash requirements"
finds the list by it. Sub-sections have no lead-in of their own in a section's outline: the announcing sentence
is the last passage of the section's own text, right before its first sub-heading, and their titles name no
requirement. So it is found where the question's search found it, among the local passages, and only when it is
that last passage and announces what follows.
"""

from __future__ import annotations

import re

from ...memory.outline import Outline
from ...retrieval.view import MemoryView, Passage
from ...text.split import split_sentences

# "… include the following contractual obligations.", "… were as follows:", "… described below:", "…:"
_ANNOUNCES = re.compile(r"\b(?:the\s+following|as\s+follows|below)\b|:\s*$", re.IGNORECASE)
MAX_LEAD_CHARS = 400  # a lead-in is one short sentence
MIN_CHILDREN = 2  # sub-sections that make a list


def announces(sentence: str) -> bool:
    """Does the sentence announce what follows it?"""
    return len(sentence) <= MAX_LEAD_CHARS and _ANNOUNCES.search(sentence) is not None


def children_leads(view: MemoryView, passages: list[Passage]) -> dict[tuple[str, ...], str]:
    """Section path -> the sentence announcing its sub-sections, for the sections whose own text ends, among the
    passages found, with such a sentence."""
    out: dict[tuple[str, ...], str] = {}
    for passage in passages:
        if not passage.section or passage.section in out:
            continue
        said = split_sentences(passage.text)
        if not said or not announces(said[-1]) or not _last_of_its_own(view, passage) \
                or not _has_sub_sections(view, passage.section):
            continue
        out[passage.section] = said[-1]
    return out


def _has_sub_sections(view: MemoryView, path: tuple[str, ...]) -> bool:
    """Does the section at `path` have sub-sections enough to be a list (its outline's children)?"""
    node = next((n for n in view.section_nodes() if n.section() == path), None)
    outline = next((o for e in view.entries_for(node.id) if (o := Outline.from_metadata(e.metadata)) is not None),
                   None) if node is not None else None
    return outline is not None and len(outline.children) >= MIN_CHILDREN


def _last_of_its_own(view: MemoryView, passage: Passage) -> bool:
    """Is the passage the last one read in its section itself (not in a sub-section): right before the first
    sub-heading?"""
    own = [node for node in view.in_section(passage.section)
           if any(source.section == passage.section for source in node.sources)]
    return bool(own) and any(e.entry_id == passage.entry_id for e in view.entries_for(own[-1].id))
