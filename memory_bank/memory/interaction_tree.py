"""Interaction Tree: the read-only raw history behind the Query Graph (DESIGN §1).

Entries are never edited or deleted. A merge only re-links the old nodes' entries to the new node and appends a
`MergeEvent`, so deep retrieval of a merged node still reaches every original text.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..text.pages import page_span, pages_label, printed_pages


class AttachmentType(str, Enum):
    IMAGE = "image"
    DOCUMENT = "document"
    CODE = "code"


@dataclass(frozen=True)
class Attachment:
    id: str
    type: AttachmentType
    path: str  # a file path or URI, never the bytes
    description: str = ""
    mime: str = ""


@dataclass(frozen=True)
class InteractionEntry:
    entry_id: str
    text: str
    timestamp: float
    metadata: dict[str, Any] = field(default_factory=dict)
    attachments: tuple[Attachment, ...] = ()

    @property
    def pages(self) -> tuple[int, ...]:
        """The PDF pages the entry's text was read from (none for unpaged text)."""
        return page_span(self.metadata.get("page_start"), self.metadata.get("page_end"))

    @property
    def printed_pages(self) -> dict[int, str]:
        """PDF page -> printed page of the entry's first and last page, where known."""
        meta = self.metadata
        return printed_pages(meta.get("page_start"), meta.get("page_end"),
                             meta.get("printed_start"), meta.get("printed_end"))

    def pages_label(self) -> str:
        """'p. 5 (PDF p. 14)', 'pp. 3-4', or '' for unpaged text: how every reader names where it sits."""
        return pages_label(self.pages, self.printed_pages)

    @property
    def section(self) -> tuple[str, ...]:
        """The section path it was read in (titles, top down); none for entries of unstructured text or of an
        export made before sections were kept (anything but a list of strings is read as none)."""
        value = self.metadata.get("section")
        return tuple(str(t) for t in value) if isinstance(value, list | tuple) else ()


@dataclass(frozen=True)
class MergeEvent:
    event_id: str
    merged_node_ids: tuple[str, ...]
    new_node_id: str
    timestamp: float
    description: str
    kind: str = "merge"  # "merge" (duplicates) or "conflict" (resolved by cross-validation)


def new_id() -> str:
    return uuid.uuid4().hex[:12]


class InteractionTree:
    def __init__(self) -> None:
        self.entries: dict[str, InteractionEntry] = {}
        self.node_to_entries: dict[str, list[str]] = {}
        self.merge_events: list[MergeEvent] = []
        self._entry_nodes: dict[str, list[str]] = {}  # derived reverse of node_to_entries

    def add_entry(self, entry: InteractionEntry, node_ids: list[str] | tuple[str, ...] = ()) -> InteractionEntry:
        if entry.entry_id in self.entries:
            raise ValueError(f"entry {entry.entry_id} already exists; entries are never replaced")
        self.entries[entry.entry_id] = entry
        for node_id in node_ids:
            self.link(node_id, entry.entry_id)
        return entry

    def create_entry(self, text: str, node_ids: list[str] | tuple[str, ...] = (), *,
                     metadata: dict[str, Any] | None = None,
                     attachments: tuple[Attachment, ...] = ()) -> InteractionEntry:
        entry = InteractionEntry(new_id(), text, time.time(), dict(metadata or {}), attachments)
        return self.add_entry(entry, node_ids)

    def link(self, node_id: str, entry_id: str) -> None:
        linked = self.node_to_entries.setdefault(node_id, [])
        if entry_id not in linked:
            linked.append(entry_id)
            self._entry_nodes.setdefault(entry_id, []).append(node_id)

    def nodes_for(self, entry_id: str) -> list[str]:
        """Every node ever linked to the entry (merged-away ones included), in link order."""
        return list(self._entry_nodes.get(entry_id, []))

    def entries_for(self, node_id: str) -> list[InteractionEntry]:
        """The node's entries, oldest first."""
        entries = [self.entries[e] for e in self.node_to_entries.get(node_id, []) if e in self.entries]
        return sorted(entries, key=lambda e: e.timestamp)

    def record_merge(self, merged_ids: list[str], new_node_id: str, description: str,
                     kind: str = "merge") -> MergeEvent:
        """Re-link the old nodes' entries to the new node (old links stay, for lineage) and log the event."""
        for old in merged_ids:
            for entry_id in self.node_to_entries.get(old, []):
                self.link(new_node_id, entry_id)
        event = MergeEvent(new_id(), tuple(merged_ids), new_node_id, time.time(), description, kind)
        self.merge_events.append(event)
        return event

    def lineage(self, node_id: str) -> list[MergeEvent]:
        """Merge events that produced this node, directly or through earlier merges, oldest first."""
        by_new = {e.new_node_id: e for e in self.merge_events}
        found: list[MergeEvent] = []
        stack = [node_id]
        while stack:
            event = by_new.get(stack.pop())
            if event and event not in found:
                found.append(event)
                stack.extend(event.merged_node_ids)
        return sorted(found, key=lambda e: e.timestamp)
