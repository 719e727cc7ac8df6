"""A section's outline as typed data: its lists (lead-in, count, items) and its sub-sections (title, opening).

Ingestion writes it into a section node's raw entry (metadata key `outline`) beside the outline's text, so an
answer can count a list's items and quote each one whole without reading the text back. An entry's metadata
may come from an imported export: it is validated here, bounded, and anything malformed reads as no outline.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from ..text.kinds import kind_forms
from ..text.tokens import stems

OUTLINE_KEY = "outline"
MAX_TEXT = 2_000  # characters of one item or opening sentence
MAX_ENTRIES = 200  # lists, items per list, sub-sections
# kinds of item any list is of: "What kinds of services ...?" names no kind a list must name; nor does "How many
# subsections does Section 6 …?" or "… topics …": a section's parts are its sub-sections whatever they are of
VAGUE_KINDS = frozenset({"kind", "type", "sort", "categor", "form", "variet", "class", "way", "ways", "thing", "item",
                         "section", "subsection", "sub-section", "chapter", "appendic", "topic"})
# a title's plural words (`plural_title`): "-s" but not "-ss" ("Components", not "Business"), and the irregular few
_PLURAL = re.compile(r"[^s]s$", re.IGNORECASE)
_PLURALS = frozenset({"criteria", "data", "people", "children", "media", "phenomena"})


def plural_title(title: str) -> frozenset[str]:
    """The stems of a title's plural words: the kinds its sub-sections can be. "Logical Components of …" has
    components for sub-sections, "Segment Information" has no segments (its sub-sections are kinds of information
    about them: "Disaggregation of Revenues", "Geographic Information")."""
    return frozenset(stems(" ".join(w for w in re.findall(r"[A-Za-z]+", title)
                                    if _PLURAL.search(w) or w.lower() in _PLURALS)))


HEAD_WORDS = 6  # a line names its own kind in its first words ("Cloud and license segment: …")


def head_stems(line: str) -> frozenset[str]:
    """The stems of a line's first `HEAD_WORDS` words: where an item says what it is. "… the number of products
    and competitors in our industry segments grows" mentions segments; it is not one."""
    return frozenset(stems(" ".join(line.split()[:HEAD_WORDS])))


def kind_named(noun: frozenset[str], title: frozenset[str], lead: frozenset[str],
               lines: list[frozenset[str]]) -> bool:
    """Whether a list is of the kind a question asks for (all as stems; the kind in any of its words, `kind_forms`:
    "stages" are named by "Steps"): the section's title names the kind, or the list's lead-in, or two of its lines
    at their head (`head_stems`). A list of something else ("such claims
    as: ... acquire companies") answers no "which companies", nor a list of claims two of which end on "our
    industry segments" "What are Oracle's business segments?"; a vague kind ("kinds", "types") or none is named
    by any list."""
    if not noun or noun & VAGUE_KINDS:
        return True
    return any(form <= title or form <= lead or sum(form <= line for line in lines) >= 2 for form in kind_forms(noun))


_QUESTIONS = frozenset(stems("questions"))


def questions_listed(noun: frozenset[str], lines: list[str]) -> int:
    """How many of the lines are questions, when the kind asked for is questions ("What basic questions does the
    CDM program want an agency to answer?" of "• What is connected? … • Who is using the network? …"): items
    worded as questions are of that kind whatever words they use. 0 for any other kind."""
    return sum("?" in line for line in lines) if noun == _QUESTIONS else 0


class OutlineItem(BaseModel):
    marker: str = Field(max_length=16)  # "1.", "(a)", "•"
    text: str = Field(max_length=MAX_TEXT)  # the item's first sentence, whole


class OutlineList(BaseModel):
    lead_in: str = Field("", max_length=MAX_TEXT)
    count: int = Field(ge=0)  # items in the list (more than `items` holds when it was cut)
    items: list[OutlineItem] = Field(default_factory=list, max_length=MAX_ENTRIES)


class OutlineChild(BaseModel):
    title: str = Field(max_length=MAX_TEXT)
    opening: str = Field("", max_length=MAX_TEXT)  # its first sentence, whole; "" when it opens with no text


class Outline(BaseModel):
    title: str = Field(max_length=MAX_TEXT)
    opening: str = Field("", max_length=MAX_TEXT)  # the section's own first sentence, whole ("" in older exports)
    lists: list[OutlineList] = Field(default_factory=list, max_length=MAX_ENTRIES)
    children: list[OutlineChild] = Field(default_factory=list, max_length=MAX_ENTRIES)

    def names_kind(self, noun: frozenset[str]) -> bool:
        """Whether the outline holds items of the kind a question asks for (`noun`: its stems) in one of its
        lists or in its sub-sections (`kind_named`)."""
        title = frozenset(stems(self.title))
        # a list's bullet is of the kind its first words say; a sub-section of the kind its title or opening says
        groups = [(title, lst.lead_in, [i.text for i in lst.items], head_stems) for lst in self.lists if lst.count >= 2]
        groups.append((plural_title(self.title), "", [f"{c.title} {c.opening}" for c in self.children],
                       lambda line: frozenset(stems(line))))
        return any(kind_named(noun, named, frozenset(stems(lead)), [read(line) for line in lines])
                   or questions_listed(noun, lines) >= 2 for named, lead, lines, read in groups)

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any]) -> Outline | None:
        """The outline an entry carries, or None (none there, or not a valid one)."""
        value = metadata.get(OUTLINE_KEY)
        if not isinstance(value, dict):
            return None
        try:
            return cls.model_validate(value)
        except ValidationError:
            return None
