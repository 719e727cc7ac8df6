"""`deep_retrieval`: a node's full interaction tree as the agent reads it (DESIGN §4).

Entries by time with their attachments' content: images as base64 data URIs, documents and code as text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import ToolError
from ..retrieval.deep_retrieval import DeepRetrieval
from .base import ToolResult, ToolSpec

SPEC = ToolSpec(
    name="deep_retrieval",
    description="Read the full raw source (interaction entries and attachments) behind a memory node.",
    parameters={"type": "object", "properties": {"node_id": {"type": "string"}}, "required": ["node_id"]},
)

ATTACHMENT_CHARS = 4_000


def deep_retrieval_json(dr: DeepRetrieval) -> str:
    entries = []
    for view in dr.entries:
        meta = view.entry.metadata
        entries.append({
            "entry_id": view.entry.entry_id, "timestamp": view.entry.timestamp, "source": meta.get("source"),
            "pages": [meta.get("page_start"), meta.get("page_end")],
            "where": view.entry.pages_label(),
            "text": view.entry.text,
            "attachments": [{"id": a.attachment.id, "type": a.attachment.type.value,
                             "path": a.attachment.path, "content": a.content[:ATTACHMENT_CHARS]
                             if a.attachment.type.value != "image" else a.content}
                            for a in view.attachments],
        })
    return json.dumps({"node_id": dr.node.id, "context": dr.node.context, "keywords": dr.node.keywords,
                       "summary": dr.node.summary, "neighbors": [n.id for n in dr.neighbors],
                       "merged_from": dr.node.merged_from, "entries": entries}, ensure_ascii=False)


class DeepRetrievalTool:
    spec = SPEC

    def __init__(self, deep_retrieve: Callable[[str], DeepRetrieval]) -> None:
        self.deep_retrieve = deep_retrieve

    def call(self, arguments: dict[str, Any]) -> ToolResult:
        node_id = str(arguments.get("node_id", "")).strip().removeprefix("node:")
        if not node_id:
            raise ToolError("deep_retrieval needs a 'node_id'")
        try:
            dr = self.deep_retrieve(node_id)
        except KeyError as exc:
            raise ToolError(f"no memory node {node_id!r}") from exc
        return ToolResult(deep_retrieval_json(dr), attachments=tuple(a for e in dr.entries for a in e.attachments))
