"""The adapter: the only boundary to the outer agent framework (DESIGN §4).

Prompt enhancement wraps the Insight Doc in <task>...</task> and the memory retrieved for the pending task in
<memory>...</memory>. Every piece of text that came from documents or the web goes through `escape_tags`, so a
document cannot close these blocks or forge a tool call.
"""

from __future__ import annotations

from ..engines.protocol.escaping import escape_tags
from ..memory.insight_doc import InsightDoc, PendingTask
from ..memory.query_graph import Node
from ..retrieval.view import MemoryView

NO_MEMORY = "(no related memory yet)"


def format_node(index: int, node: Node) -> str:
    sources = "; ".join(s.label() for s in node.sources) or "unknown source"
    return (f"Memory {index} [node:{node.id}] ({escape_tags(sources)})\n"
            f"Topic: {escape_tags(node.context)}\n"
            f"Keywords: {escape_tags(', '.join(node.keywords))}\n"
            f"Summary: {escape_tags(node.summary)}")


def format_task_block(doc: InsightDoc) -> str:
    lines = [f"Goal: {escape_tags(doc.task_goal)}"]
    if doc.completed_tasks:
        lines.append("Completed sub-tasks:")
        for i, t in enumerate(doc.completed_tasks, 1):
            lines.append(f"  {i}. [{t.type.value}] {escape_tags(t.description)} -> {t.status.value}"
                         + (f": {escape_tags(t.context)}" if t.context else ""))
    task = doc.next_task
    lines.append(f"Next task: [{task.type.value}] {escape_tags(task.description)}" if task
                 else "Next task: none (the goal is reached)")
    return "\n".join(lines)


class Adapter:
    def __init__(self, view: MemoryView) -> None:
        self.view = view

    def memory_nodes(self, query: str, k: int | None = None) -> list[Node]:
        return self.view.retrieve(query, k) if query.strip() else []

    def memory_block(self, query: str, k: int | None = None) -> tuple[str, list[Node]]:
        nodes = self.memory_nodes(query, k)
        body = "\n\n".join(format_node(i, n) for i, n in enumerate(nodes, 1)) or NO_MEMORY
        hint = ("\n\nTo read a memory's full source text, call deep_retrieval with its node id."
                if nodes else "")
        return f"<memory>\n{body}{hint}\n</memory>", nodes

    def enhance(self, doc: InsightDoc, task: PendingTask | None = None) -> tuple[str, list[Node]]:
        """The enhanced prompt for the pending task, and the nodes shown in it."""
        task = task or doc.next_task
        query = f"{task.description} {doc.task_goal}" if task else ""
        memory, nodes = self.memory_block(query)
        return f"<task>\n{format_task_block(doc)}\n</task>\n\n{memory}", nodes
