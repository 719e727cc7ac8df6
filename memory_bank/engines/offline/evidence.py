"""Evidence: the sentences of the documents an answer is drawn from, each with where it was read."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ...memory.query_graph import Node
from ...memory.store import claim_key
from ...retrieval.view import Passage
from ...text.furniture import Role
from .classification import is_heading
from .nlp import is_leader_line, sentences

_TITLE_WORD = r"(?:[A-Z][\w.&'’-]*,?|and|of|the)"
_ADDRESS = re.compile(rf"^\s*(?:To|Dear)\s+the\s+{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,14}}\s*[.:,]?\s*$")
_ROW_NAMES = re.compile(r"^[^.;:]{1,160}:+\s+(?:[^;]{1,120};\s+){2,}[^;]{0,119}[^;.]$")


LEAD_IN_WORDS = 8


@dataclass(frozen=True)
class Evidence:
    """A sentence of the documents and where it came from."""

    text: str
    node_id: str
    source: str = ""
    pages: tuple[int, ...] = ()
    prior: float = 0.0  # how strongly retrieval ranked the text it came from, in [0, 1]
    role: Role = Role.BODY  # the role of the node it came from: furniture is cited only when body text fails
    printed: tuple[tuple[int, str], ...] = ()  # (PDF page, printed page) for the pages known: hashable
    position: int = -1  # its place among its node's sentences (document order); -1 when not known
    section: tuple[str, ...] = ()  # the section path it was read in
    row: bool = False  # a table row's line (label and cells), not a sentence of prose
    themes: tuple[str, ...] = ()  # names of the question its top section says throughout (themes.py)

    @property
    def lead_in(self) -> bool:
        """A short lead-in of a list ("The risks include:") says nothing by itself: no closest passage to show. A
        long one ("The office publishes its reports every ten years, which include:") still says something."""
        return self.text.rstrip().endswith(":") and len(self.text.split()) <= LEAD_IN_WORDS


def node_evidence(quote: str, node: Node) -> Evidence:
    """`quote` cited at a node's place: its file, pages, printed pages and section (a list's section node, a
    cover, a publication's list of figures)."""
    source = node.sources[0] if node.sources else None
    return Evidence(quote, node.id, source.name if source else "", tuple(node.pages()), 1.0, node.role,
                    tuple(sorted(node.printed_pages().items())), 0, node.section())


def passage_evidence(quote: str, passage: Passage, role: Role = Role.BODY) -> Evidence:
    """`quote` cited at the place of a passage local search found (a reference entry, a signature line)."""
    return Evidence(quote, passage.node_ids[0] if passage.node_ids else "", passage.source, passage.pages, 1.0, role,
                    tuple(sorted(passage.printed_pages.items())), section=passage.section)


# a sentence that goes on telling of the same subject as the one before it ("He died in 1227 …", "This system
# contains …"); "His friends thought …" tells of others
GOES_ON = re.compile(r"^\s*(?:he|she|it|they|this|these|those)\b(?!')", re.IGNORECASE)


def distinct(evidence: list[Evidence]) -> list[Evidence]:
    """The evidence without repeated sentences (the first kept): the same sentence read twice is one sentence. Where
    it was read matters for what comes after it: a list item's first sentence is read in its section's outline,
    where the next item follows it, and in the item's own passage, where the item goes on ("• ID management
    system: This is responsible for … . This system contains the necessary subject information (e.g., name, …)");
    the sentence kept is placed where it goes on, when only there the next sentence continues it."""
    at = {(ev.node_id, ev.position): ev for ev in evidence if ev.position >= 0}
    seen: dict[str, int] = {}
    out: list[Evidence] = []
    for ev in evidence:
        key = claim_key(ev.text)
        if not key:
            continue
        if key not in seen:
            seen[key] = len(out)
            out.append(ev)
        elif not _goes_on(out[seen[key]], at) and _goes_on(ev, at):
            out[seen[key]] = replace(out[seen[key]], node_id=ev.node_id, position=ev.position)
    return out


def _goes_on(ev: Evidence, at: Mapping[tuple[str, int], Evidence]) -> bool:
    after = at.get((ev.node_id, ev.position + 1)) if ev.position >= 0 else None
    return after is not None and GOES_ON.match(after.text) is not None


def words_in(evidence: list[Evidence]) -> int:
    """How long the sentences are, in words: what a word budget counts."""
    return sum(len(ev.text.split()) for ev in evidence)


def answerable(sentence: str) -> bool:
    """Contents lines and headings are no evidence: they name a topic and answer nothing; nor is an outline's
    line naming a table's rows ("Table: iPhone (1); Mac (1); iPad (1)"), whose numbers are in the rows, nor a
    letter's address ("To the Shareholders and the Board of Directors of Apple Inc.", the auditor's report). A
    filing's signature ("By: /s/ Timothy D. Cook Timothy D. Cook Chief Executive Officer") is short and ends
    without a stop like a heading, and it is what says who holds the title."""
    return (not is_leader_line(sentence) and (not is_heading(sentence) or "/s/" in sentence)
            and not _ROW_NAMES.match(sentence) and not _ADDRESS.match(sentence) and not cut_off(sentence))


# words a sentence does not end on: it was cut, its end in a passage the reader does not see
_RUNS_ON = frozenset("a an the of in on at to for from by with and or".split())


def cut_off(sentence: str) -> bool:
    """Does the sentence stop mid-way ("We recorded $493 million … in connection with the 2022 Restructuring Plan
    in", its end past a page break in a passage of its own)? An answer ending so says less than it seems to,
    or the wrong thing. A list's "…; and" is an item's end, not a cut."""
    words = sentence.rsplit(None, 2)
    return len(words) == 3 and words[2] in _RUNS_ON and words[1][-1:].isalnum()


def split_evidence(text: str, node_id: str, source: str, pages: tuple[int, ...], prior: float,
                   role: Role = Role.BODY, printed: Mapping[int, str] | None = None,
                   section: tuple[str, ...] = ()) -> list[Evidence]:
    """Every answerable sentence of a text, numbered in document order."""
    known = tuple(sorted((printed or {}).items()))
    return [Evidence(s, node_id, source, pages, prior, role, known, i, section)
            for i, s in enumerate(s for s in sentences(text) if answerable(s))]
