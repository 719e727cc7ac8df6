"""The sentence a list of sub-sections shows for each item when the items are claims: the one stating the claim.

"What are the threats associated with zero trust architecture?" is answered by §5's sub-sections, one per threat.
A threat, a risk or a benefit is a claim about what could happen, and a sub-section often opens with context
("In ZTA, the policy engine and policy administrator are the key components of the entire enterprise.") and states
the threat later ("Likewise, a compromised PA could allow access to resources that would otherwise not be
approved"). A reader shows such an item as its title and the sentence of its sub-section that best answers the
question for it: close in meaning to the question and to the item's title said as the kind asked for
("Denial-of-Service or Network Disruption threat"), saying that kind in the document's words (a threat is said by
"risk", "attack", "compromise"), and not what is done against it ("Enterprises can mitigate this threat by …")
unless the question asks for that (the opening stays when it states the claim best). Items that are things
(models, steps, scenarios, products) keep their first sentence: it says what the thing is ("In this deployment
model, the PEP is divided into two components …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...text.asks import item_noun
from ...text.tokens import stems
from ..protocol.entry_lines import entry_sentences
from .evidence import answerable
from .list_answer import Item, Listing

# what is done against a harm: a sentence saying it states the remedy, not the harm, unless the question asks so
_REMEDY_Q = re.compile(r"\b(?:mitigat\w*|prevent\w*|protect\w*|defend\w*|counter\w*|address\w*|reduc\w*|"
                       r"handled?|remed\w*|solutions?|avoid\w*)", re.IGNORECASE)
_REMEDY = frozenset(stems("mitigate mitigating mitigates reduce reduces prevent protect protected protection "
                          "defend counter remedy avoid detect should"))
# the claims a list may be asked for, each with the words a document states one in: a harm ("threats", "risks")
# in those of what could go wrong, a benefit in those of what is gained
_CLAIMS = (
    (re.compile(r"\b(?:threats?|risks?|dangers?|vulnerabilit(?:y|ies)|attacks?|weakness(?:es)?|drawbacks?|"
                r"disadvantages?|limitations?|challenges?)\b", re.IGNORECASE),
     frozenset(stems("threat risk attack attacker compromise compromised malicious danger vulnerable exploit subvert "
                     "disrupt drawback limitation challenge"))),
    (re.compile(r"\b(?:benefits?|advantages?|strengths?|gains?)\b", re.IGNORECASE),
     frozenset(stems("benefit advantage strength gain improve improves enables"))),
)
_POINTS_BACK = re.compile(r"^(?:this|these|that|those|it|they|such|likewise|like)\b", re.IGNORECASE)
_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+")


@dataclass(frozen=True)
class StatingConfig:
    """Weights of a sentence's closeness to the question and to the item named as the asked kind, of its saying
    that kind, and what is taken off a remedy or a sentence pointing back."""

    as_asked: float = 1.0
    of_item: float = 0.5
    kind: float = 0.3
    remedy: float = 0.3
    points_back: float = 0.3  # 0.1 let "Likewise, a compromised PA …" stand for 5.1 alone
    max_nodes: int = 12


def stated(question: str, listing: Listing, view: MemoryView, embedder: Embedder,
           config: StatingConfig | None = None) -> Listing:
    """The listing with each sub-section's sentence the one that states it for the question (a list's items,
    one line each, are left as they are)."""
    claims = [words for asked, words in _CLAIMS if asked.search(question)]
    if listing.numbered or not claims:
        return listing
    c = config or StatingConfig()
    noun = item_noun(question) or ""
    kind = set(stems(noun)).union(*claims)
    remedy = set() if _REMEDY_Q.search(question) else _REMEDY
    sections = _sentences(listing, view, c.max_nodes)
    asked = embedder.embed([question])[0]
    items = []
    for item, sentences in zip(listing.items, sections):
        if not sentences:
            items.append(item)
            continue
        title = _NUMBER.sub("", item.label).strip() or item.label
        vectors = embedder.embed(sentences)
        named = embedder.embed([f"{title} {noun}".strip()])[0]
        words = [set(stems(s)) for s in sentences]
        scores = (c.as_asked * (vectors @ asked) + c.of_item * (vectors @ named)
                  + c.kind * np.array([bool(kind & w) for w in words], dtype=np.float32)
                  - c.remedy * np.array([bool(remedy & w) for w in words], dtype=np.float32)
                  - c.points_back * np.array([bool(_POINTS_BACK.match(s)) for s in sentences], dtype=np.float32))
        items.append(Item(item.label, sentences[int(np.argmax(scores))]))
    return replace(listing, items=items)


def _sentences(listing: Listing, view: MemoryView, max_nodes: int) -> list[list[str]]:
    """Per item, the sentences of its sub-section in document order (its heading left out): the passages read
    under its path, else, for a sub-section whose passages were read in its parent's (a first sub-section with no
    node of its own), the parent's sentences from its heading up to the next item's heading."""
    base = listing.node.section()
    labels = [item.label for item in listing.items]
    parent = [s for node in view.in_section(base)[:max_nodes * len(labels)]
              for entry in view.entries_for(node.id) for s in entry_sentences(entry)]
    out = []
    for label in labels:
        own = [s for node in view.in_section((*base, label))[:max_nodes]
               for entry in view.entries_for(node.id) for s in entry_sentences(entry)]
        if not own and label in parent:
            start = parent.index(label) + 1
            end = next((k for k in range(start, len(parent)) if parent[k] in labels), len(parent))
            own = parent[start:end]
        out.append([s for s in own if s != label and answerable(s)])
    return out
