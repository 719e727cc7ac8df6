"""Does a list meet what the question qualifies its items by, or does another place of the evidence?

"In a hybrid zero trust and perimeter-based enterprise, which shared components have to work under both models?"
asks for components, and the document's famous list of components (§3, PE/PA/PEP) is of that kind; but the
question qualifies them ("hybrid", "perimeter-based", "shared", "both models") by words that list never says,
while a sentence of §7.2 "Hybrid ZTA and Perimeter-Based Architecture" says most of them and names the items
inline ("common elements (e.g., ID management, device management, event logging)"). The kind of item alone picks
the wrong list; the qualifier picks the place. The qualifier's words are weighed by how rare they are among the
document's sections: "zero trust" is said by every section of a zero trust publication and tells no place apart.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...retrieval.view import MemoryView
from ...text.asks import ORDINALS, asked_part, item_noun
from ...text.coverage import coverage, idf_weights
from ...text.tokens import bare_stems
from .evidence import Evidence

# how many, which one or where: "How many …", "the five …", "the eighth tenet", "… in section 3.1" say no quality
_COUNTING = frozenset(bare_stems(" ".join([*ORDINALS, "many number count total section sections one two three four "
                                            "five six seven eight nine ten eleven twelve"])))
# a qualifier of a word or two ("… does Apple sell?") is met by many sentences by chance; one of four words or more
# describes a place ("a hybrid zero trust and perimeter-based enterprise")
MIN_WORDS = 4
MARGIN = 2.0  # another place says at least this many times the qualifier's weight the list says ...
MET = 0.5  # ... and at least this share of it


def qualifier_weights(question: str, view: MemoryView, ignored: Iterable[str] = ()) -> dict[str, float]:
    """The question's words besides the kind of item and the `ignored` ones (the verbs a question asks by, the
    document's own name), each weighed by its idf over the document's section nodes (each one's outline: its title,
    its opening, its lists, its sub-sections' titles); words no section says are left
    out: they tell no place apart."""
    noun = bare_stems(item_noun(question) or "")
    terms = {t for t in bare_stems(asked_part(question)) - noun - set(ignored) - _COUNTING if not t.isdigit()}
    sections = [[_said(view, node.id)] for node in view.section_nodes()]
    said = frozenset().union(*(s[0] for s in sections)) if sections else frozenset()
    kept = [t for t in sorted(terms) if t in said]
    return idf_weights(kept, sections) if kept else {}


def _said(view: MemoryView, node_id: str) -> frozenset[str]:
    return frozenset(bare_stems(" ".join(e.text for e in view.entries_for(node_id))))


def elsewhere(weights: dict[str, float], listed: str, section: tuple[str, ...], evidence: list[Evidence]) -> float:
    """How much better the best evidence sentence read outside the list's `section` (with the title of the
    sub-section it was read in) meets the qualifier than the list does (`listed`: its section's titles, its
    lead-in, its items): the other place's share when it says at least half of a qualifier of four words or
    more and twice what the list says, else 0.0."""
    if not weights:
        return 0.0
    mine = coverage(weights, bare_stems(listed))
    best = max((coverage(weights, bare_stems(f"{' '.join(ev.section[-1:])} {ev.text}")) for ev in evidence
                if not ev.row and ev.section[:len(section)] != section), default=0.0)
    return best if len(weights) >= MIN_WORDS and best >= MET and best >= MARGIN * mine else 0.0
