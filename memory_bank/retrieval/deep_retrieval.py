"""Deep retrieval: a node's full interaction tree (DESIGN §4).

Returns the node, its neighbours, its raw entries by time with their attachments' content (images as base64 data
URIs, documents and code as text) and its merge history. Attachment content is read on demand through a reader
passed in, so this module knows nothing about file formats. Every attachment is read from the bank's own storage
only (`bank_files`): an imported path that points anywhere else, or at anything but a regular file, is shown as
unreadable, and every read is capped in bytes.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..memory.bank_files import BankFiles, FileRejected
from ..memory.interaction_tree import Attachment, AttachmentType, InteractionEntry, MergeEvent
from ..memory.query_graph import Node
from ..memory.store import Memory

MAX_IMAGE_BYTES = 4_000_000
MAX_TEXT_CHARS = 40_000
MAX_CODE_BYTES = 4 * MAX_TEXT_CHARS  # UTF-8: at most four bytes a character
REJECTED_MARK = "[rejected by cross-validation] "

DocumentReader = Callable[[str, int | None, int | None], str]  # (path, page_start, page_end) -> text


@dataclass(frozen=True)
class AttachmentContent:
    attachment: Attachment
    content: str  # data URI for images, text otherwise; a clear note when it cannot be read
    ok: bool = True


@dataclass(frozen=True)
class EntryView:
    entry: InteractionEntry
    attachments: tuple[AttachmentContent, ...]
    rejected: bool = False  # its claim lost a cross-validation: kept for the record, marked for readers

    @property
    def pages(self) -> tuple[int | None, int | None]:
        return self.entry.metadata.get("page_start"), self.entry.metadata.get("page_end")

    @property
    def printed_pages(self) -> dict[int, str]:
        """PDF page -> printed page of the entry's first and last page, where known."""
        return self.entry.printed_pages


@dataclass(frozen=True)
class DeepRetrieval:
    node: Node
    neighbors: list[Node]
    entries: list[EntryView]
    merge_history: list[MergeEvent] = field(default_factory=list)

    def text(self) -> str:
        """The raw entries joined, oldest first: what an executor reads (a rejected claim says so)."""
        return "\n\n".join((REJECTED_MARK if e.rejected else "") + e.entry.text for e in self.entries)


def image_data_uri(data: bytes, name: str) -> str:
    if len(data) > MAX_IMAGE_BYTES:
        raise ValueError(f"image is over the {MAX_IMAGE_BYTES // 1024} KB inline limit")
    mime = mimetypes.guess_type(name)[0] or "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


class DeepRetriever:
    def __init__(self, memory: Memory, read_document: DocumentReader, files: BankFiles | None = None) -> None:
        self.memory = memory
        self.read_document = read_document
        self.files = files

    def _content(self, attachment: Attachment, entry: InteractionEntry) -> AttachmentContent:
        name = Path(attachment.path).name or attachment.id
        try:
            if self.files is None:
                raise FileRejected("this memory has no file storage")
            if attachment.type is AttachmentType.IMAGE:
                data = self.files.read(attachment.path, MAX_IMAGE_BYTES + 1)
                return AttachmentContent(attachment, image_data_uri(data, name))
            if attachment.type is AttachmentType.DOCUMENT:
                text = self.read_document(str(self.files.path_of(attachment.path)), entry.metadata.get("page_start"),
                                          entry.metadata.get("page_end"))
            else:
                text = self.files.read(attachment.path, MAX_CODE_BYTES).decode("utf-8", errors="replace")
            return AttachmentContent(attachment, text[:MAX_TEXT_CHARS])
        except (OSError, ValueError) as exc:
            return AttachmentContent(attachment, f"[cannot read {name}: {exc}]", ok=False)

    def run(self, node_id: str, with_attachments: bool = True) -> DeepRetrieval:
        node = self.memory.graph.get(node_id)
        rejected = self.memory.rejected_entries()
        entries = [EntryView(e, tuple(self._content(a, e) for a in e.attachments) if with_attachments else (),
                             rejected=e.entry_id in rejected)
                   for e in self.memory.tree.entries_for(node_id)]
        neighbors = [self.memory.graph.get(n) for n in self.memory.graph.neighbors(node_id)]
        return DeepRetrieval(node, neighbors, entries, self.memory.tree.lineage(node_id))
