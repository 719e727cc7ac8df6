"""Words for one kind of item: a reader asks for the "stages" of a road map whose sections the document calls
"Steps", for the "considerations" it lists as "factors". A list is of the asked kind when it names any of them.

Only kinds of item a list is made of are grouped (the nouns `text.asks` knows), each group of words a document
and its reader use for one another; a word with another sense beside ("means", "models") is left out, and so are
the reader's words for what is for or against a thing ("dangers", "drawbacks", "benefits"), which
`reader_concepts.py` widens only where the documents never say them (a section of "Threats" is no answer to "What
dangers … in handing ZTA administration to software agents?").
"""

from __future__ import annotations

from types import MappingProxyType

from .tokens import stem

_GROUPS = (
    "steps stages phases",
    "components parts elements pieces constituents",
    "ways methods approaches techniques",
    "factors considerations criteria",
    "goals objectives",
    "requirements prerequisites",
    "examples instances",
    "scenarios cases",
    "principles tenets",
    "variations variants",
)


# each word's group, as stems (read only)
_GROUP_OF = MappingProxyType({word: group for group in (frozenset(stem(w) for w in g.split()) for g in _GROUPS)
                              for word in group})


def kind_forms(noun: frozenset[str]) -> list[frozenset[str]]:
    """`noun` (stems), then `noun` with its head word in each other word of its group: {"stag"} -> [{"stag"},
    {"phas"}, {"step"}]."""
    forms = [noun]
    for word in sorted(noun):
        forms += [(noun - {word}) | {other} for other in sorted(_GROUP_OF.get(word, frozenset()) - {word})]
    return forms
