"""The adapter: the only boundary to the outer agent framework (DESIGN §4).

Prompt enhancement wraps the Insight Doc in <task>...</task> and the memory retrieved for the pending task in
<memory>...</memory>, each within its token budget; a run with long-term memory puts its <long_term> block (built
and escaped by `long_term/injection.py`) between them. Every piece of text that came from documents or the web goes
through `escape_tags`, so a document cannot close these blocks or forge a tool call.
"""

from __future__ import annotations

from ..engines.protocol.escaping import escape_tags
from ..engines.protocol.memory_block import MemoryBlockBuilder
from ..memory.insight_doc import InsightDoc, PendingTask
from ..memory.query_graph import Node
from ..retrieval.view import MemoryView
from ..text.tokens import chars_for_tokens, estimate_tokens


def format_node(index: int, node: Node) -> str:
    """A whole node (topic, keywords, summary): the old per-node view, kept for diagnostics."""
    sources = "; ".join(s.label() for s in node.sources) or "unknown source"
    return (f"Memory {index} [node:{escape_tags(node.id)}] ({escape_tags(sources)})\n"
            f"Topic: {escape_tags(node.context)}\n"
            f"Keywords: {escape_tags(', '.join(node.keywords))}\n"
            f"Summary: {escape_tags(node.summary)}")


def format_task_block(doc: InsightDoc, budget_tokens: int) -> str:
    """The Insight Doc as the agent reads it, within `budget_tokens`: the goal and the next task always; the
    completed sub-tasks newest first while they fit (older ones are counted, not shown)."""
    room = chars_for_tokens(budget_tokens)
    goal = _clip(f"Goal: {escape_tags(doc.task_goal)}", room // 3)
    task = doc.next_task
    next_line = _clip(f"Next task: [{task.type.value}] {escape_tags(task.description)}" if task
                      else "Next task: none (the goal is reached)", room // 3)
    room -= len(goal) + len(next_line) + 2
    done: list[str] = []
    for i, t in reversed(list(enumerate(doc.completed_tasks, 1))):
        line = (f"  {i}. [{t.type.value}] {escape_tags(t.description)} -> {t.status.value}"
                + (f": {escape_tags(t.context)}" if t.context else ""))
        if len(line) + 1 + _DONE_HEADER > room:
            break
        done.insert(0, line)
        room -= len(line) + 1
    lines = [goal]
    if doc.completed_tasks:
        hidden = len(doc.completed_tasks) - len(done)
        lines.append("Completed sub-tasks" + (f" ({hidden} earlier not shown):" if hidden else ":"))
        lines.extend(done)
    lines.append(next_line)
    return "\n".join(lines)


_DONE_HEADER = len("Completed sub-tasks (000 earlier not shown):") + 1  # the longest header line, newline included


def _clip(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[: max(0, limit - 1)] + "…"


def task_query(doc: InsightDoc, task: PendingTask | None) -> str:
    """What to retrieve memory for: the task, and the goal unless the task already states it."""
    if task is None:
        return ""
    if doc.task_goal and doc.task_goal in task.description:
        return task.description
    return f"{task.description} {doc.task_goal}".strip()


class Adapter:
    def __init__(self, view: MemoryView, memory_budget_tokens: int, task_budget_tokens: int) -> None:
        self.blocks = MemoryBlockBuilder(view)
        self.memory_budget = memory_budget_tokens
        self.task_budget = task_budget_tokens
        self.long_term_block = ""  # set for the length of a run by the long-term hook (run/long_term.py)

    def memory_block(self, query: str, budget_tokens: int | None = None) -> tuple[str, list[Node]]:
        """The <memory> block for `query` within `budget_tokens` (the settings' budget by default)."""
        return self.blocks.build(query, budget_tokens or self.memory_budget)

    def enhance(self, doc: InsightDoc, task: PendingTask | None = None) -> tuple[str, list[Node]]:
        """The enhanced prompt for the pending task, and the nodes shown in it; each block within its budget."""
        task = task or doc.next_task
        memory, nodes = self.memory_block(task_query(doc, task))
        task_block = format_task_block(doc, self.task_budget - estimate_tokens("<task>\n\n</task>"))
        long_term = f"{self.long_term_block}\n\n" if self.long_term_block else ""
        return f"<task>\n{task_block}\n</task>\n\n{long_term}{memory}", nodes
