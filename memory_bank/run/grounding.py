"""Citations for an answer that names none: each claim traced to the sentence of memory that says it.

An LLM is asked to cite `[node:id]`, and a small local model mostly does not (the 1.5B model cited nothing in
the NIST and notes runs of bench/local_llm.py), which leaves the user an answer they cannot check. So when an
answer cites nothing, each of its sentences is matched against the raw sentences of the nodes the agent was
shown: a node is cited when one of its sentences holds most of an answer sentence's words (idf-weighted, so
"the" does not count and "PEP" does), with that sentence as the quote and its own file and pages. Nothing is
cited when nothing holds the answer's words: an answer of the model's own invention stays uncited, visibly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from ..engines.models import Citation
from ..memory.interaction_tree import InteractionEntry
from ..memory.query_graph import Node
from ..text.coverage import coverage, idf_weights
from ..text.split import split_sentences
from ..text.tokens import stems

MIN_SUPPORT = 0.6  # share of an answer sentence's (idf-weighted) words one memory sentence must hold
MIN_WORDS = 4  # answer sentences with fewer content words ("Yes.") prove nothing either way
MAX_CITED = 3
# the claims traced are those in the answer's first this many characters (a few screens): tracing splits the
# answer into words and weighs each claim against every shown sentence, which for a megabyte answer held some
# 16 bytes a character at once and took minutes, to cite at most MAX_CITED nodes
MAX_GROUNDED_CHARS = 20_000


def ground(answer: str, nodes: Iterable[Node], entries_of: Callable[[str], list[InteractionEntry]],
           rejected: AbstractSet[str] = frozenset()) -> list[Citation]:
    """Citations of the shown nodes whose sentences hold the answer's sentences, best supported first."""
    evidence: list[tuple[Node, InteractionEntry, str, frozenset[str]]] = []
    unique = {node.id: node for node in nodes}
    for node in unique.values():
        for entry in entries_of(node.id):
            if entry.entry_id not in rejected:  # a claim that lost a cross-validation supports nothing
                evidence.extend((node, entry, s, frozenset(stems(s))) for s in split_sentences(entry.text))
    if not evidence:
        return []
    groups = [[e[3]] for e in evidence]
    best: dict[str, tuple[float, Citation]] = {}
    for claim in split_sentences(answer[:MAX_GROUNDED_CHARS]):
        words = idf_weights(stems(claim), groups)
        if len(words) < MIN_WORDS:
            continue
        score, (node, entry, sentence, _) = max(((coverage(words, e[3]), e) for e in evidence),
                                                key=lambda pair: pair[0])
        if score >= MIN_SUPPORT and score > best.get(node.id, (0.0, None))[0]:
            best[node.id] = (score, Citation(node_id=node.id, source=str(entry.metadata.get("source", "")),
                                             pages=list(entry.pages), quote=sentence,
                                             printed_pages=dict(entry.printed_pages),
                                             section=list(entry.section)))
    ranked = sorted(best.values(), key=lambda pair: -pair[0])
    return [citation for _, citation in ranked[:MAX_CITED]]
