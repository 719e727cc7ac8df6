"""The sentences around one sentence of the documents, in its passage as the document has it.

A document's passage nodes are cut by length, not by what they say: "This mitigates the risk but does not eliminate
it" opens the node after the sentence it comments on, and "Epic appealed the decision" may sit in the next node
after the ruling it appeals. So the sentences around one are read on into the node before or after it in its
section.
"""

from __future__ import annotations

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from .evidence import Evidence, split_evidence

SECTION_NODES = 60  # the passage nodes of a section searched for a sentence read from the section's own node


def node_sentences(view: MemoryView, node: Node) -> list[Evidence]:
    """Every answerable sentence of the node's raw entries, in document order, each citing its entry (its file,
    pages and section)."""
    return [ev for entry in view.entries_for(node.id)
            for ev in split_evidence(entry.text, node.id, str(entry.metadata.get("source", "")), entry.pages, 0.0,
                                     node.role, entry.printed_pages, tuple(entry.section))]


def around(view: MemoryView, ev: Evidence, count: int = 1) -> tuple[list[Evidence], list[Evidence]]:
    """Up to `count` sentences before the sentence and up to `count` after it, in document order; empty when it is
    not found among its section's passages. A sentence read from the section's own node (its opening, which the
    section node repeats) is found in the passage that says it."""
    nodes = view.in_section(ev.section)[:SECTION_NODES] if ev.section else []
    at = next((i for i, n in enumerate(nodes) if n.id == ev.node_id), None)
    window = nodes[max(0, at - 1): at + 2] if at is not None else nodes
    sentences = [ev for node in window for ev in node_sentences(view, node)]
    said = ev.text.removesuffix("…").rstrip()  # a section node's opening is cut short: "… based …"
    here = next((i for i, s in enumerate(sentences) if s.text == ev.text or s.text.startswith(said)), None)
    if here is None:
        return [], []
    return sentences[max(0, here - count): here], sentences[here + 1: here + count + 1]
