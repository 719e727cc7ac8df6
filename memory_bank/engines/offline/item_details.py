"""What each item of a list says about a follow-up: "What deployment models … are described, and when is each a
good fit?", "What threats … are discussed and how can they be mitigated?".

The first part is answered by a section's sub-sections (one per model, one per threat); the second asks the same
thing of every one of them, and its answer is in each sub-section, not in one passage a search for "when is each a
good fit" would find. So each item's own sub-section is read, and its sentence closest to what the follow-up asks
becomes the item's detail: closest to the follow-up as asked ("when is each a good fit?" meets "This model is best
utilized for enterprises that …": the kind of statement asked for, whatever the item), then to the follow-up
asked of the item ("when is Enclave-Based Deployment a good fit?"), then saying the follow-up's own words
("mitigate"). The sentence the item already opens with is not repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...text.tokens import stems
from ..protocol.entry_lines import entry_sentences
from .evidence import Evidence, answerable
from .list_answer import Listing

# a follow-up that leans on the list just given: it names its items by a pronoun or "each"
_LEANS = re.compile(r"\b(?:each(?:\s+one)?(?:\s+of\s+them)?|every\s+one(?:\s+of\s+them)?|they|them|their|it|its)\b",
                    re.IGNORECASE)
_POSSESSIVE = frozenset({"their", "its"})
_POINTS_BACK = re.compile(r"^(?:this|these|that|those|it|they|such)\b", re.IGNORECASE)  # needs the one before
# what a kind of follow-up is said with in a document: "a good fit" is "best utilized for", "mitigated" is
# "reduce the risk"; a sentence saying one of them is what the follow-up asks for
_KINDS = (
    (re.compile(r"\b(?:fit|suit\w*|best|appropriate|recommended|use[ds]?\b|useful|ideal|choose|prefer\w*)",
                re.IGNORECASE),
     "best suited suitable useful ideal fit recommended utilized preferred advantage benefit"),
    (re.compile(r"\b(?:mitigat\w*|prevent\w*|protect\w*|defend\w*|counter\w*|address\w*|reduc\w*|handled?)",
                re.IGNORECASE), "mitigate reduce prevent protect defend counter address limit"),
    (re.compile(r"\b(?:advantages?|benefits?|pros|strengths?)\b", re.IGNORECASE), "advantage benefit strength"),
    (re.compile(r"\b(?:disadvantages?|drawbacks?|cons|downsides?|weakness\w*|limitations?|risks?)\b",
                re.IGNORECASE), "disadvantage drawback downside weakness limitation risk"),
)
_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+")


@dataclass(frozen=True)
class DetailConfig:
    """The weights of a sentence's closeness to the follow-up as asked, asked of the item, and its own words;
    `max_nodes` bounds the passages read per item (a sub-section rarely has more)."""

    as_asked: float = 1.0
    of_item: float = 0.5
    words: float = 0.3
    points_back: float = 0.15  # taken off a sentence that opens by pointing back ("This mitigates the risk")
    max_nodes: int = 12


def leans_on_list(part: str) -> bool:
    """Does this part ask something of the items of a list given before ("how can they be mitigated?")?"""
    return _LEANS.search(part) is not None


def asked_of(part: str, title: str) -> str:
    """The follow-up asked of one item: its pronoun or "each" replaced by the item's title, numbering aside."""
    name = _NUMBER.sub("", title).strip() or title

    def put(match: re.Match[str]) -> str:
        return f"{name}'s" if match.group(0).lower() in _POSSESSIVE else name

    return _LEANS.sub(put, part, count=1)


def cue_stems(part: str) -> set[str]:
    """The words a document says what the follow-up asks with (`_KINDS`), stemmed."""
    return {w for pattern, words in _KINDS if pattern.search(part) for w in stems(words)}


class ItemDetails:
    def __init__(self, view: MemoryView, embedder: Embedder, config: DetailConfig | None = None) -> None:
        self.view, self.embedder = view, embedder
        self.config = config or DetailConfig()

    def run(self, part: str, listing: Listing) -> list[Evidence | None]:
        """Per item of a list of sub-sections, its sub-section's sentence closest to `part`, or None (a
        sub-section with nothing read, or nothing but its opening). A list of items (not sub-sections) gets
        nothing: an item is one line, already shown."""
        if listing.numbered or not leans_on_list(part):
            return [None] * len(listing.items)
        base = listing.node.section()
        own = set(stems(_LEANS.sub(" ", part))) | cue_stems(part)
        as_asked = self.embedder.embed([part])[0]
        out: list[Evidence | None] = []
        for item in listing.items:
            evidence = [ev for ev in self._evidence(base + (item.label,)) if ev.text != item.text]
            if not evidence:
                out.append(None)
                continue
            vectors = self.embedder.embed([ev.text for ev in evidence])
            of_item = self.embedder.embed([asked_of(part, item.label)])[0]
            said = np.array([bool(own & set(stems(ev.text))) for ev in evidence], dtype=np.float32)
            c = self.config
            back = np.array([bool(_POINTS_BACK.match(ev.text)) for ev in evidence], dtype=np.float32)
            scores = (c.as_asked * (vectors @ as_asked) + c.of_item * (vectors @ of_item) + c.words * said
                      - c.points_back * back)
            out.append(evidence[int(np.argmax(scores))])
        return out

    def _evidence(self, path: tuple[str, ...]) -> list[Evidence]:
        """The sentences of the passages read under `path`, in document order."""
        evidence: list[Evidence] = []
        for node in self.view.in_section(path)[:self.config.max_nodes]:
            for entry in self.view.entries_for(node.id):
                printed = tuple(sorted(entry.printed_pages.items()))
                source = str(entry.metadata.get("source", ""))
                evidence.extend(Evidence(s, node.id, source, entry.pages, 0.5, node.role, printed, k, entry.section)
                                for k, s in enumerate(entry_sentences(entry)) if answerable(s))
        return evidence
