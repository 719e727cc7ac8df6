"""The evidence an answer is drawn from: the sentences of the typed selection the memory block was made of,
never re-parsed from the block's text, recorded as the calls an agent would have made (a local search, a deep
retrieval of each node shown) with their real outputs, so the run log shows the same trail as the LLM engine's."""

from __future__ import annotations

from ...retrieval.view import MemoryView
from ..models import ToolCallRecord
from ..protocol.memory_block import Selected, Selection, Sentence
from .answering import announces_list
from .evidence import GOES_ON, Evidence, answerable
from .results import clip
from .themes import cover_themes, section_themes

LIST_ITEMS = 6  # sentences read after one that announces a list


class EvidenceReader:
    """`response_chars`: how much of a node's deep retrieval the run log's tool call keeps."""

    def __init__(self, view: MemoryView, response_chars: int) -> None:
        self.view = view
        self.response_chars = response_chars

    def run(self, selection: Selection, calls: list[ToolCallRecord]) -> list[Evidence]:
        """The sentences the selection's memory block is made of, node by node in relevance order (a node's
        sentences in document order), each call appended to `calls`."""
        calls.append(ToolCallRecord(name="search", arguments={"query": selection.question, "scope": "local"},
                                    response="\n".join(f"[{p.where()}] {clip(p.text, 300)}"
                                                       for p in selection.passages) or "no passage found"))
        evidence: list[Evidence] = []
        themes = section_themes(selection.question, (c.node.section()[:1] for c in selection.nodes), self.view)
        covers = cover_themes(selection.question, self.view)
        for chosen in selection.nodes:
            node = chosen.node
            calls.append(ToolCallRecord(name="deep_retrieval", arguments={"node_id": node.id},
                                        response=clip(self.view.deep_retrieve(node.id, with_attachments=False)
                                                      .text(), self.response_chars)))
            prior = 1.0 / (1.0 + chosen.rank)
            for owner, shown in _with_lists(chosen, selection.nodes):
                for s in (*_pointed_back_to(owner, shown), shown):
                    if answerable(s.text):
                        evidence.append(Evidence(s.text, owner.node.id, s.source, s.pages, prior, owner.node.role,
                                                 s.printed, s.position, s.section, s.row is not None,
                                                 (*themes.get(s.section[:1], ()), *covers.get(s.source, ()))))
        return evidence


def _pointed_back_to(owner: Selected, shown: Sentence) -> list[Sentence]:
    """The sentence before one that goes on telling of it ("This system contains the necessary subject
    information …" after "• ID management system: This is responsible for …"), when the block left it out of this
    node (it showed it once, in the section's outline, where the next item follows it): read here too, so the
    answer can tell the item with what it goes on to say."""
    if shown.position <= 0 or GOES_ON.match(shown.text) is None:
        return []
    if any(s.position == shown.position - 1 for s in owner.shown):
        return []
    return [s for s in owner.sentences if s.position == shown.position - 1][:1]


def _with_lists(chosen: Selected, nodes: list[Selected]) -> list[tuple[Selected, Sentence]]:
    """The node's shown sentences in document order, each with the node it is read in; one that announces a list
    brings the items after it (the block shows what covers the question, and list items rarely repeat the
    question's words). A lead-in that ends its passage ("Risks we may face in connection with our acquisition
    program include:", the chunk cut after it) is read, with its items, in a selected passage that holds it with
    what follows it (chunks overlap)."""
    out: list[tuple[Selected, Sentence]] = []
    for shown in chosen.shown:
        if not announces_list(shown.text):
            out.append((chosen, shown))
            continue
        owner, lead, items = chosen, shown, _items_after(chosen, shown)
        if not items:
            owner, lead, items = _held_elsewhere(shown, chosen, nodes) or (owner, lead, items)
        out += [(owner, lead), *((owner, s) for s in items)]
    return out


def _held_elsewhere(shown: Sentence, chosen: Selected,
                    nodes: list[Selected]) -> tuple[Selected, Sentence, list[Sentence]] | None:
    """Another selected node holding the same lead-in with items after it: that node, its copy, the items."""
    for other in nodes:
        if other is chosen:
            continue
        copy = next((s for s in other.sentences if s.text == shown.text), None)
        if copy is not None and (items := _items_after(other, copy)):
            return other, copy, items
    return None


def _items_after(chosen: Selected, lead: Sentence) -> list[Sentence]:
    """The sentences after `lead` in its node, in order, up to `LIST_ITEMS`."""
    return sorted((s for s in chosen.sentences if lead.position < s.position <= lead.position + LIST_ITEMS),
                  key=lambda s: s.position)
