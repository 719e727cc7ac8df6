"""Section nodes: one node per section of a document that summarises its children (DESIGN §1, RAPTOR-like).

A section node's text is the section's outline made of the document's own words: its title, its opening
sentence, every list it holds (the lead-in, then each item's first sentence, numbered), its tables' captions and
row labels, and each sub-section's title with its opening sentence. A question that asks for a list, steps,
kinds or "how many" reaches the section and sees all its items at once, where the passages show two or three.
Section nodes are linked by the document's structure (`related` edges to their passages and to their parent
section), never judged by the analysis agent: they restate their children and would look like duplicates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..loaders.document import Document
from ..memory.interaction_tree import Attachment, new_id
from ..memory.outline import MAX_ENTRIES, MAX_TEXT, OUTLINE_KEY, Outline, OutlineChild, OutlineItem, OutlineList
from ..memory.query_graph import Node, Source
from ..retrieval.embedding import Embedder
from ..structure.model import DocStructure, Section, Unit
from ..text.split import split_sentences
from ..text.tokens import tokenize
from .graph_ops import GraphOps, RawEntry
from .titles import Titles

STRUCTURE_KEY = "structure"  # entry metadata: what kind of unit the entry holds ("section", "list", "table", ...)


@dataclass(frozen=True)
class OutlineConfig:
    max_items: int = 25  # list items shown per list
    max_children: int = 25  # sub-sections listed
    max_rows: int = 12  # table row labels listed
    max_words: int = 40  # per line
    max_edges: int = 40  # passages a section node links to
    keywords: int = 6
    embed_words: int = 64  # of the outline embedded: its head says the topic; the whole would cost NIST 1.7 s


def _digest(text: str, words: int) -> str:
    """The outline's first words: the title, the opening sentence and the first items or sub-sections."""
    return " ".join(text.split()[:words])


def first_sentence(text: str, limit: int) -> str:
    sentences = split_sentences(text)
    return _trim(sentences[0] if sentences else text, limit)


def _trim(text: str, limit: int) -> str:
    words = text.split()
    return " ".join(words) if len(words) <= limit else " ".join(words[:limit]) + " …"


def outline_lines(section: Section, structure: DocStructure, config: OutlineConfig) -> list[str]:
    """The section's outline, one line each: what its node shows and its entry holds."""
    mine = [u for u in structure.units_in(section.id) if u.kind != "heading"]
    lines = [section.title]
    opening = structure.opening(section.id)
    if opening is not None:
        lines.append(first_sentence(opening.text, config.max_words))
    for unit in mine:
        if unit.kind == "list":
            lines.extend(_list_lines(unit, config))
        elif unit.kind == "table" and unit.table is not None:
            labels = [r.label for r in unit.table.rows if r.label][: config.max_rows]
            caption = unit.table.caption or "Table"
            lines.append(_trim(f"{caption}: {'; '.join(labels)}", config.max_words * 2))
    children = structure.children(section.id)
    for child in children[: config.max_children]:
        lines.extend(_child_lines(child, structure, config))
    if len(children) > config.max_children:
        lines.append(f"… and {len(children) - config.max_children} more sub-sections")
    return list(dict.fromkeys(line for line in lines if line.strip()))


def _list_lines(unit: Unit, config: OutlineConfig) -> list[str]:
    lines = [_trim(unit.lead_in, config.max_words)] if unit.lead_in else []
    for item in unit.items[: config.max_items]:
        lines.append(f"{item.marker} {_trim(item.first_sentence, config.max_words)}")
    if len(unit.items) > config.max_items:
        lines.append(f"… and {len(unit.items) - config.max_items} more items ({len(unit.items)} in all)")
    return lines


def _child_lines(child: Section, structure: DocStructure, config: OutlineConfig) -> list[str]:
    """The sub-section's title, then its opening sentence on a line of its own: every line of an outline is
    the document's own words, so an answer may quote it."""
    opening = structure.opening(child.id)
    if opening is None:
        return [child.title]
    return [child.title, first_sentence(opening.text, config.max_words)]


def outline_data(section: Section, structure: DocStructure) -> Outline:
    """The outline as typed data (see `memory.outline`): what an answer counts and quotes, sentences whole."""
    mine = [u for u in structure.units_in(section.id) if u.kind == "list"]
    lists = [OutlineList(lead_in=_bounded(u.lead_in), count=len(u.items),
                         items=[OutlineItem(marker=i.marker[:16], text=_bounded(i.first_sentence))
                                for i in u.items[:MAX_ENTRIES]])
             for u in mine[:MAX_ENTRIES]]
    children = []
    for child in structure.children(section.id)[:MAX_ENTRIES]:
        opening = structure.opening(child.id)
        children.append(OutlineChild(title=_bounded(child.title),
                                     opening=_bounded(first_sentence(opening.text, MAX_TEXT)) if opening else ""))
    opening = structure.opening(section.id)
    return Outline(title=_bounded(section.title), lists=lists, children=children,
                   opening=_bounded(first_sentence(opening.text, MAX_TEXT)) if opening else "")


def _bounded(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def worth_a_node(section: Section, structure: DocStructure, passages: list[str]) -> bool:
    """A section earns a node of its own when it gathers something: sub-sections, a list, or several passages
    (a section of one passage would be a copy of it)."""
    return bool(structure.children(section.id)) or item_count(section, structure) > 0 or len(passages) >= 2


def item_count(section: Section, structure: DocStructure) -> int:
    return sum(len(u.items) for u in structure.units_in(section.id) if u.kind == "list")


class SectionNodes:
    def __init__(self, ops: GraphOps, embedder: Embedder, config: OutlineConfig | None = None) -> None:
        self.ops, self.embedder = ops, embedder
        self.config = config or OutlineConfig()

    def run(self, doc: Document, structure: DocStructure, titles: Titles,
            attachments: tuple[Attachment, ...] = ()) -> list[Node]:
        """Add the document's section nodes (those not already there) and link them; returns the new ones."""
        if structure.kind != "document" or not structure.sections:
            return []
        passages, existing = self._document_nodes(doc.name)
        made: dict[str, Node] = {}
        raw: list[RawEntry] = []
        for section in structure.sections:
            if section.path in existing or not worth_a_node(section, structure, passages.get(section.path, [])):
                continue
            node, entry = self._node(doc, section, structure, titles, attachments)
            made[section.id] = node
            raw.append(entry)
        if not made:
            return []
        nodes = list(made.values())
        digests = [_digest(n.embedding_text(), self.config.embed_words) for n in nodes]
        for node, vector in zip(nodes, self.embedder.embed(digests)):
            node.embedding = vector
        self.ops.add_nodes(nodes, raw)
        self._link(structure, made, passages, existing)
        return nodes

    def _document_nodes(self, name: str) -> tuple[dict[tuple[str, ...], list[str]], dict[tuple[str, ...], str]]:
        """This document's passage node ids by section path, and its section nodes already made (a resumed
        or repeated ingestion adds only what is missing)."""
        passages: dict[tuple[str, ...], list[str]] = {}
        sections: dict[tuple[str, ...], str] = {}
        with self.ops.memory.read():
            for node in self.ops.graph.nodes():
                for source in node.sources:
                    if source.name != name or not source.section:
                        continue
                    if node.kind == "section":
                        sections[source.section] = node.id
                    else:
                        passages.setdefault(source.section, []).append(node.id)
        return passages, sections

    def _node(self, doc: Document, section: Section, structure: DocStructure, titles: Titles,
              attachments: tuple[Attachment, ...]) -> tuple[Node, RawEntry]:
        lines = outline_lines(section, structure, self.config)
        text = "\n".join(lines)
        parent = structure.section(section.parent)
        opening = lines[1] if len(lines) > 1 else ""
        context = _trim(f"{section.title}: {opening}" if opening else section.title, 24)
        printed = doc.page_labels
        source = Source(name=doc.name, page_start=section.page_start, page_end=section.page_end, url=doc.url,
                        printed_start=printed.get(section.page_start) if section.page_start else None,
                        printed_end=printed.get(section.page_end) if section.page_end else None,
                        section=section.path)
        node = Node(id=new_id(), summary=text, context=context, keywords=self._keywords(lines), sources=[source],
                    kind="section", title=titles.section(section.title, parent.title if parent else None))
        metadata = {"source": doc.name, "path": doc.path, "url": doc.url, "kind": doc.kind,
                    "page_start": section.page_start, "page_end": section.page_end,
                    "printed_start": source.printed_start, "printed_end": source.printed_end,
                    STRUCTURE_KEY: "section", "section": list(section.path),
                    "items": item_count(section, structure), "subsections": len(structure.children(section.id)),
                    OUTLINE_KEY: outline_data(section, structure).model_dump(mode="json")}
        return node, RawEntry(text, metadata, attachments)

    def _keywords(self, lines: list[str]) -> list[str]:
        counts = Counter(word for line in lines for word in tokenize(line) if not word.isdigit())
        return [word for word, _ in counts.most_common(self.config.keywords)]

    def _link(self, structure: DocStructure, made: dict[str, Node], passages: dict[tuple[str, ...], list[str]],
              existing: dict[tuple[str, ...], str]) -> None:
        for section in structure.sections:
            node = made.get(section.id)
            if node is None:
                continue
            for passage in passages.get(section.path, [])[: self.config.max_edges]:
                self.ops.add_edge(node.id, passage)
            parent = structure.section(section.parent)
            if parent is not None:
                parent_id = made[parent.id].id if parent.id in made else existing.get(parent.path)
                if parent_id is not None:
                    self.ops.add_edge(node.id, parent_id)
