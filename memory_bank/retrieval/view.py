"""The read-only view of one task's memory that engines and tools read through.

The offline executor answers from the memory itself (ranked nodes, their raw entries, local passages) instead of
through tool text, and the tools read it for the ReAct agent, so both need this structured view. `MemoryReader`
(reader.py) implements it over the live memory; tests can pass a small fake.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..memory.interaction_tree import InteractionEntry
from ..memory.query_graph import Node, PendingConflict, place_label
from ..text.pages import page_span, printed_pages

if TYPE_CHECKING:
    from .deep_retrieval import DeepRetrieval


@dataclass(frozen=True)
class Mentions:
    """Which of the task's raw passages say which terms (`said`: per passage, per term), from which follow how
    many passages say each term and how many say a set of them together."""

    said: tuple[tuple[bool, ...], ...]

    @property
    def passages(self) -> int:
        return len(self.said)

    def each(self, term: int) -> int:
        return sum(row[term] for row in self.said)

    def together(self, terms: Sequence[int]) -> int:
        return sum(all(row[t] for t in terms) for row in self.said)


@dataclass(frozen=True)
class Passage:
    """A piece of raw document text found by local search, with where it came from."""

    entry_id: str
    node_ids: tuple[str, ...]
    text: str
    score: float
    source: str
    page_start: int | None = None
    page_end: int | None = None
    printed_start: str | None = None  # page numbers printed on the first/last page, when known
    printed_end: str | None = None
    section: tuple[str, ...] = ()  # the section path it was read in, when the document had one

    @property
    def pages(self) -> tuple[int, ...]:
        return page_span(self.page_start, self.page_end)

    @property
    def printed_pages(self) -> dict[int, str]:
        return printed_pages(self.page_start, self.page_end, self.printed_start, self.printed_end)

    def where(self) -> str:
        """'file, §2 Zero Trust Basics, p. 5 (PDF p. 14)' (or fewer parts, the file alone at least): how tools
        and citations name the passage's place."""
        return place_label(self.source, self.section, self.pages, self.printed_pages)


class MemoryView(Protocol):
    def ranked(self, query: str, k: int | None = None,
               exclude: set[str] | None = None) -> list[tuple[Node, float]]:
        """Top-k nodes by hybrid score, best first (no neighbours)."""
        ...

    def retrieve(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        """Top-k in rank order, then their one-hop neighbours."""
        ...

    def node(self, node_id: str) -> Node: ...

    def neighbors(self, node_id: str) -> list[Node]: ...

    def section_nodes(self) -> list[Node]:
        """Every node that stands for a section of a document (kind "section")."""
        ...

    def front_matter(self) -> list[Node]:
        """The cover and notice nodes (title, authors, publisher, date), each document's in page order."""
        ...

    def in_section(self, path: tuple[str, ...]) -> list[Node]:
        """The passage nodes read in the section at `path` or below it, in the order they were made."""
        ...

    def entries_for(self, node_id: str) -> list[InteractionEntry]: ...

    def search_passages(self, query: str, k: int) -> list[Passage]:
        """Local search over the raw text of the task's own documents (interaction entries)."""
        ...

    def mentions(self, terms: list[str]) -> dict[str, bool]:
        """Whether the task's documents say each term anywhere (whole words, any case, hyphen or space)."""
        ...

    def passages_saying(self, groups: list[tuple[str, ...]]) -> Mentions:
        """Which raw passages say which group of term forms (a term and its other forms)."""
        ...

    def acronyms_said(self, pairs: list[tuple[str, str]]) -> set[str]:
        """Of the (acronym, long form) pairs, the acronyms the documents say in more passages than their long
        forms (their way of saying it), though not throughout (what the documents are about)."""
        ...

    def acronyms(self) -> dict[str, str]:
        """The acronyms the task's documents define ("RMF" -> "Risk Management Framework")."""
        ...

    def long_forms(self, terms: list[str]) -> dict[str, str]:
        """For each acronym among the terms that the documents write out more often than they say it, the long
        form they write ("CEO" -> "Chief Executive Officer")."""
        ...

    def conflict(self, conflict_id: str) -> PendingConflict: ...

    def rejected_entries(self) -> set[str]:
        """Ids of the entries whose claim lost a cross-validation (see `Memory.rejected_entries`)."""
        ...

    def table_entries(self) -> list[tuple[InteractionEntry, tuple[str, ...]]]:
        """The raw entries that hold table rows (metadata `rows`), each with the live nodes made from it."""
        ...

    def rejected_claims(self) -> set[str]:
        """Sentences only rejected entries say (see `Memory.rejected_claims`)."""
        ...

    def deep_retrieve(self, node_id: str, with_attachments: bool = True) -> DeepRetrieval:
        """A node's interaction tree with its attachments' content (see `DeepRetriever`)."""
        ...
