"""How many figures, tables, acronyms or references a publication has: counted from its apparatus.

"Going by its list of figures, how many diagrams does NIST SP 800-207 contain?", "How many abbreviations are spelled
out in the acronym appendix?", "How many works are listed in the reference list at the end of Appendix B?": no
sentence states these numbers, so the ranked sentences answered "not found". The publication's own lists do: its
List of Figures (each "Figure N:" once), List of Tables, acronym appendix (each acronym that opens an entry) and
reference lists (each "[key]" opening an entry). Which reference list, when there are several: the one whose
section path says most of the question's words, else the longest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from ...text.tokens import bare_stems
from .answering import Answer
from .evidence import node_evidence

MAX_SHOWN = 30  # items named in the answer; the count covers all of them
FEW = 10  # a reference list longer than this is shown by its keys
MAX_TEXT = 100_000  # characters of one list read
SEARCHED = 10  # passages searched for a list's section
LABEL_CHARS = 70  # an item shown at most this long (a reference entry by its key and the start of its title)

_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:[\w-]+\s+){0,2}?(?P<noun>figures|diagrams|illustrations|tables|acronyms|"
                       r"abbreviations|references|works|sources|citations|entries|publications)\b", re.IGNORECASE)
# the noun asked -> the apparatus counting it
_KIND = {"figures": "figure", "diagrams": "figure", "illustrations": "figure", "tables": "table",
         "acronyms": "acronym", "abbreviations": "acronym", "references": "reference", "works": "reference",
         "sources": "reference", "citations": "reference", "entries": "reference", "publications": "reference"}
_TITLES = {"figure": re.compile(r"^list\s+of\s+(?:figures|illustrations)\b", re.IGNORECASE),
           "table": re.compile(r"^list\s+of\s+tables\b", re.IGNORECASE),
           "acronym": re.compile(r"\b(?:acronyms|abbreviations)\b", re.IGNORECASE),
           "reference": re.compile(r"\b(?:references|bibliography|works\s+cited)\b", re.IGNORECASE)}
# a question whose "works", "sources" or "entries" are of a reference list says so
_QUERIES = {"figure": "List of Figures Figure", "table": "List of Tables Table", "acronym": "Acronyms Abbreviations",
            "reference": "References"}
_OF_DOCUMENT = re.compile(r"\b(?:this|the|its)\s+(?:document|publication|report|paper|guide|standard)\b|\blist\s+of\b|"
                          r"\b(?:contains?|includes?)\b|\bNIST\b|\bSP\b", re.IGNORECASE)
_OF_REFERENCES = re.compile(r"\b(?:reference|references|bibliography|cite[sd]?|cited)\b", re.IGNORECASE)
_NUMBERED = {"figure": re.compile(r"\bFigure\s+(?P<key>[A-Z]?-?\d+(?:\.\d+)?)\s*:\s*(?P<title>[^.\n]{1,120}?)"
                                  r"(?=\s*\.{3,}|\s+\d+\s|\n|$)"),
             "table": re.compile(r"\bTable\s+(?P<key>[A-Z]?-?\d+(?:\.\d+)?)\s*:\s*(?P<title>[^.\n]{1,120}?)"
                                 r"(?=\s*\.{3,}|\s+\d+\s|\n|$)")}
_REFERENCE = re.compile(r"(?:^|\n)\s*\[(?P<key>[^\]\n]{1,40})\]\s+(?P<title>[^\n]{1,120})")
_ACRONYM = re.compile(r"^[A-Z][A-Za-z0-9&/-]*[A-Z0-9]s?$")


@dataclass(frozen=True)
class Apparatus:
    kind: str  # figure, table, acronym, reference
    node: Node  # the section node of the list
    items: list[str]


def asked_apparatus(question: str) -> str | None:
    """The apparatus a "how many" question counts (figure, table, acronym, reference), or None."""
    match = _HOW_MANY.search(question)
    if match is None:
        return None
    kind = _KIND[match.group("noun").lower()]
    if kind == "reference" and match.group("noun").lower() != "references" and not _OF_REFERENCES.search(question):
        return None  # "How many sources feed the policy engine?" counts no reference list
    if kind in ("figure", "table") and not _OF_DOCUMENT.search(question):
        return None  # "How many figures did Apple report for iPhone sales?" asks no list of figures
    return kind


def items_of(kind: str, text: str) -> list[str]:
    """The items a list of that kind holds, each once, in order."""
    text = text[:MAX_TEXT]
    if kind in _NUMBERED:
        found = {m.group("key"): f"{kind.capitalize()} {m.group('key')}: {m.group('title').strip()}"
                 for m in _NUMBERED[kind].finditer(text)}
        return list(found.values())
    if kind == "reference":
        return list({m.group("key"): f"[{m.group('key')}] {m.group('title').strip()}"
                     for m in _REFERENCE.finditer(text)}.values())
    words = text.split()
    opening: dict[str, None] = {}  # each acronym opening an entry ("RMF NIST Risk Management Framework": RMF)
    for i, word in enumerate(words):
        if _acronym(word) and not (i and _acronym(words[i - 1])) and i + 1 < len(words) \
                and words[i + 1][:1].isupper():
            opening.setdefault(word, None)
    return list(opening)


def _cut(item: str) -> str:
    return item if len(item) <= LABEL_CHARS else item[:LABEL_CHARS].rsplit(" ", 1)[0] + " …"


def _acronym(word: str) -> bool:
    return bool(_ACRONYM.match(word)) and sum(c.isupper() or c.isdigit() for c in word) >= 2


class ApparatusCounter:
    def __init__(self, view: MemoryView) -> None:
        self.view = view

    def run(self, question: str) -> Answer | None:
        """"There are N figures …" with the list's items, cited at the list; None when the question counts no
        apparatus or the documents have no such list."""
        kind = asked_apparatus(question)
        if kind is None:
            return None
        found = self._lists(kind, question)
        if found is None:
            return None
        many = len(found.items) > FEW
        # a long reference list by its keys ("[M-19-26]"), a short one with its works' titles
        shown = [item.split("]")[0] + "]" if kind == "reference" and many else _cut(item)
                 for item in found.items[:MAX_SHOWN]]
        more = len(found.items) - len(shown)
        title = found.node.section()[-1] if found.node.section() else found.node.label()
        noun = {"figure": "figure", "table": "table", "acronym": "acronym", "reference": "entry"}[kind]
        counted = (f"There is 1 {noun}" if len(found.items) == 1
                   else f"There are {len(found.items)} {'entries' if kind == 'reference' else noun + 's'}")
        text = (f"{counted} in “{title}”: " + "; ".join(shown)
                + (f"; and {more} more" if more else "") + ".")
        return Answer(text, [node_evidence(f"{title}: " + "; ".join(shown), found.node)], 1.0)

    def _lists(self, kind: str, question: str) -> Apparatus | None:
        """The list of that kind the question means: of several, the one whose section path says most of the
        question's words, then the longest. Lists are found by their sections' titles (a front matter's "List of
        Figures" has no section node of its own: its passages name it)."""
        asked = bare_stems(question)
        paths = {n.section() for n in self.view.section_nodes()}
        paths |= {p.section for p in self.view.search_passages(_QUERIES[kind], SEARCHED)}
        lists: list[tuple[int, int, Apparatus]] = []
        for path in paths:
            if not path or not _TITLES[kind].search(path[-1]):
                continue
            nodes = self.view.in_section(path)
            text = "\n".join(e.text for n in nodes for e in self.view.entries_for(n.id))
            items = items_of(kind, text)
            if nodes and len(items) >= (1 if kind in _NUMBERED else 2):
                said = len(asked & bare_stems(" ".join(path)))
                lists.append((said, len(items), Apparatus(kind, nodes[0], items)))
        return max(lists, key=lambda f: (f[0], f[1]))[2] if lists else None
