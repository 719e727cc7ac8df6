"""A section's themes: the names a whole part of the documents keeps saying, which a sentence of it need not repeat.

The near-miss checks (constraints.py, slots.py) read a name of the question that a sentence and its neighbours do
not say as a constraint the sentence fails ("Who mutated the Thals …?" against a sentence on the Kaleds), except a
name of the sentence's topic: its document's and sections' titles. A part of a document is also about the names
it says throughout: an article on a football game says "NFL" in a quarter of its paragraphs, one on an inventor
says "AC" in as many, and its sentences leave them unsaid as they leave the title unsaid ("The Carolina Panthers
became one of only ten teams to have completed a regular season with only one loss" answers "How many NFL teams
…?"). A name said in at least `THEME_SHARE` of the passages read under the sentence's top section, and in at least
`THEME_PASSAGES` of them, is such a theme; a name a near miss swaps in is said in a paragraph or two.

A whole document is about what its cover names: the country and agency it speaks for ("U.S. Department of
Commerce" on a NIST publication's cover), and its body says "federal agencies" without repeating "U.S."; so "How
long have U.S. federal agencies been …?" meets its sentence (`cover_themes`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...retrieval.view import MemoryView
from ...text.furniture import Role
from .constraints import named, said_term
from .specifics import specific_terms

THEME_SHARE = 0.2  # said in at least this share of the section's passages
THEME_PASSAGES = 5  # and in at least this many of them (a short section has no themes)


def section_themes(question: str, sections: Iterable[tuple[str, ...]], view: MemoryView
                   ) -> dict[tuple[str, ...], tuple[str, ...]]:
    """For each top section path, the question's names (specifics.specific_terms) that its passages say
    throughout, every word of a name whose meeting word they say; only sections with such a name are keys."""
    terms = specific_terms(question)
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    if not terms:
        return out
    for path in dict.fromkeys(sections):
        if not path:
            continue
        texts = [" ".join(e.text for e in view.entries_for(node.id)) for node in view.in_section(path)]
        needed = max(THEME_PASSAGES, THEME_SHARE * len(texts))
        # a name is a theme by the word that meets it: "Peyton Manning" of an article saying "Manning" throughout
        themes = tuple(t for group, word in named(question, terms)
                       if sum(said_term(word, text) for text in texts) >= needed for t in group)
        if themes:
            out[path] = themes
    return out


def cover_themes(question: str, view: MemoryView) -> dict[str, tuple[str, ...]]:
    """For each document (source name), the question's names its cover says: only cover pages, as a notice
    ("Intellectual Property" read as furniture in a filing) may be body text about anything."""
    terms = specific_terms(question)
    covers: dict[str, list[str]] = {}
    if not terms:
        return {}
    for node in view.front_matter():
        if node.role is Role.COVER and node.sources:
            covers.setdefault(node.sources[0].name, []).extend(e.text for e in view.entries_for(node.id))
    groups = named(question, terms)
    out: dict[str, tuple[str, ...]] = {}
    for source, texts in covers.items():
        cover = " ".join(texts)
        themes = tuple(t for group, word in groups if said_term(word, cover) for t in group)
        if themes:
            out[source] = themes
    return out
