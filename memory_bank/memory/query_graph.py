"""Query Graph: summarised memory for coarse retrieval (DESIGN §1).

The structure is a `networkx.Graph` whose nodes carry a typed `Node` payload under the `node` attribute. There
is one edge type, *related*; conflicts are not edges but `PendingConflict` records kept beside the graph until
cross-validation resolves them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum

import networkx as nx
import numpy as np

from ..limits import (
    MAX_BODY,
    MAX_KEYWORDS,
    MAX_LINE,
    MAX_NAME,
    MAX_SOURCES,
    MAX_URL,
    shorten,
    shorten_name,
    shorten_path,
)
from ..text.furniture import Role
from ..text.pages import page_span, pages_label, printed_pages


@dataclass(frozen=True)
class Source:
    """Where a node's content came from: a file with a page range, a URL, or a named text.

    Pages are PDF page numbers (what retrieval and re-reading use); `printed_start`/`printed_end` are the page
    numbers printed on the first and last of them, when known, for citations a reader can follow on paper.
    """

    name: str
    page_start: int | None = None
    page_end: int | None = None
    url: str | None = None
    entry_ids: tuple[str, ...] = ()
    printed_start: str | None = None
    printed_end: str | None = None
    section: tuple[str, ...] = ()  # the section path it was read from, titles top down ("3 ...", "3.2 ...")

    def __post_init__(self) -> None:
        """Within the export schema's bounds whatever made it (a file, a web page, a heading of 30,000
        characters): the store writes sources as export records, and one it refused stopped all saving."""
        object.__setattr__(self, "name", shorten_name(self.name, MAX_NAME))  # as an export may hold it
        if self.url is not None:
            object.__setattr__(self, "url", shorten(self.url, MAX_URL))
        object.__setattr__(self, "section", shorten_path(tuple(self.section)))

    @property
    def printed_pages(self) -> dict[int, str]:
        return printed_pages(self.page_start, self.page_end, self.printed_start, self.printed_end)

    def label(self) -> str:
        """'file, §3.2.1 Device Agent/Gateway-Based Deployment, p. 14 (PDF p. 22)'."""
        name = self.url or self.name if self.page_start is None else self.name
        return place_label(name, self.section, page_span(self.page_start, self.page_end), self.printed_pages)


def section_label(path: tuple[str, ...] | list[str]) -> str:
    """How a citation names a section: its own title, marked '§' ('§2.1 Tenets of Zero Trust')."""
    return f"§{path[-1]}" if path else ""


def place_label(name: str, section: tuple[str, ...] | list[str], pages: tuple[int, ...] | list[int],
                printed: dict[int, str]) -> str:
    """'file, §3.2.1 Device Agent/Gateway-Based Deployment, p. 14 (PDF p. 22)', any part absent left out: the
    one way sources, passages, evidence lines and citations name a place."""
    place = [name] if name else []
    if section:
        place.append(section_label(section))
    if pages:
        place.append(pages_label(tuple(pages), printed))
    return ", ".join(place)


@dataclass
class Node:
    id: str
    summary: str
    context: str
    keywords: list[str]
    embedding: np.ndarray | None = None
    timestamp: float = field(default_factory=time.time)
    sources: list[Source] = field(default_factory=list)
    merged_from: list[str] = field(default_factory=list)
    kind: str = "text"  # "text", "image", or "section" (a section of a document, summarising its children)
    role: Role = Role.BODY  # body text, or document furniture (contents, notice, ...) that ranks below it
    title: str = ""  # the node's short name, unique within the task (its section's title and what sets it apart)

    def bound(self) -> Node:
        """Held to the export schema's bounds in place (summary, topic, keywords, title, sources), so the store
        can always write it; every way into the graph calls this (a model may answer with a topic of any size)."""
        self.summary = shorten(self.summary, MAX_BODY)
        self.context = shorten(self.context, MAX_LINE)
        self.title = shorten(self.title, MAX_LINE)
        if len(self.keywords) > MAX_KEYWORDS or any(len(k) > MAX_LINE for k in self.keywords):
            self.keywords = [shorten(k, MAX_LINE) for k in self.keywords[:MAX_KEYWORDS]]
        del self.sources[MAX_SOURCES:]
        return self

    def embedding_text(self) -> str:
        """What gets embedded and indexed: summary + context + keywords (DESIGN §2)."""
        return f"{self.summary}\n{self.context}\n{' '.join(self.keywords)}"

    def label(self) -> str:
        """What the graph and lists call the node: its title, or its topic line for nodes made before titles."""
        return self.title or self.context

    def section(self) -> tuple[str, ...]:
        """The section path of its first source that has one."""
        return next((s.section for s in self.sources if s.section), ())

    def pages(self) -> list[int]:
        found: set[int] = set()
        for s in self.sources:
            found.update(page_span(s.page_start, s.page_end))
        return sorted(found)

    def printed_pages(self) -> dict[int, str]:
        """PDF page -> printed page over all sources, for the pages known (see `text.pages`)."""
        return {page: label for s in self.sources for page, label in s.printed_pages.items()}


class Relation(str, Enum):
    """Judged relation between two nodes, in priority order (DESIGN §1)."""

    CONFLICT = "conflict"
    MERGE = "merge"
    RELATED = "related"
    UNRELATED = "unrelated"

    @property
    def priority(self) -> int:
        return list(Relation).index(self)


@dataclass
class PendingConflict:
    id: str
    node_a: str
    node_b: str
    description: str
    created: float = field(default_factory=time.time)
    status: str = "pending"  # "pending" | "resolved" | "dismissed"
    resolved_at: float | None = None
    resolution: str = ""
    merged_into: str | None = None
    # the side whose claim the cross-validation rejected (an id from before the merge), when it said which
    rejected_node: str | None = None

    @property
    def node_ids(self) -> tuple[str, str]:
        return (self.node_a, self.node_b)


class QueryGraph:
    """The graph of nodes. Mutated only through `GraphOps`, which keeps the retrieval index in step."""

    def __init__(self) -> None:
        self.graph = nx.Graph()

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.graph

    def get(self, node_id: str) -> Node:
        try:
            return self.graph.nodes[node_id]["node"]
        except KeyError:
            raise KeyError(f"no node {node_id!r} in the Query Graph") from None

    def nodes(self) -> list[Node]:
        return [data["node"] for _, data in self.graph.nodes(data=True)]

    def edges(self) -> list[tuple[str, str]]:
        return [tuple(sorted(e)) for e in self.graph.edges()]

    def add_node(self, node: Node) -> None:
        if node.id in self.graph:
            raise ValueError(f"node {node.id} already exists")
        self.graph.add_node(node.id, node=node.bound())

    def remove_node(self, node_id: str) -> None:
        self.graph.remove_node(node_id)

    def add_edge(self, a: str, b: str) -> bool:
        """Add a related edge; False when it is a self loop or already there."""
        if a == b or self.graph.has_edge(a, b):
            return False
        for n in (a, b):
            self.get(n)
        self.graph.add_edge(a, b)
        return True

    def remove_edge(self, a: str, b: str) -> None:
        self.graph.remove_edge(a, b)

    def neighbors(self, node_id: str) -> list[str]:
        return list(self.graph.neighbors(node_id))

    def merge(self, old_ids: list[str], new_node: Node) -> list[str]:
        """Replace `old_ids` by `new_node`, which inherits all their edges (de-duplicated, no self loops).

        Returns the inherited neighbour ids.
        """
        inherited: list[str] = []
        for old in old_ids:
            for n in self.neighbors(old):
                if n not in old_ids and n not in inherited:
                    inherited.append(n)
        for old in old_ids:
            self.remove_node(old)
        self.add_node(new_node)
        for n in inherited:
            self.add_edge(new_node.id, n)
        return inherited
