"""The adapter: the only boundary to the outer agent framework (DESIGN §4).

Prompt enhancement wraps the Insight Doc in <task>...</task> and the memory retrieved for the pending task in
<memory>...</memory>, each within its token budget; a run with long-term memory puts its <long_term> block (built
and escaped by `long_term/injection.py`) between them. Every piece of text that came from documents or the web goes
through `escape_tags`, so a document cannot close these blocks or forge a tool call.

The evidence is selected once per task (`select`): the typed selection the <memory> block is rendered from is
the one handed to the executor, so the offline executor answers from exactly what an LLM would be shown and never
selects again. A question that asks several things gets each part's own selection beside the whole one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines.protocol.escaping import escape_tags
from ..engines.protocol.memory_block import MemoryBlockBuilder, Selection
from ..memory.insight_doc import InsightDoc, PendingTask, TaskType
from ..memory.query_graph import Node
from ..retrieval.view import MemoryView
from ..text.question_parts import question_parts
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
    """What to select evidence for: an answering task that restates the goal ("Answer the question from the
    documents: <goal>") asks the goal itself, its instruction words are no evidence to look for; any other task
    asks for itself and the goal."""
    if task is None:
        return ""
    if doc.task_goal and doc.task_goal in task.description:
        return doc.task_goal if task.type is TaskType.NORMAL else task.description
    return f"{task.description} {doc.task_goal}".strip()


@dataclass(frozen=True)
class Enhanced:
    """The enhanced prompt, the nodes shown in it, and the typed selection its <memory> block was rendered from."""

    prompt: str
    nodes: list[Node]
    selection: Selection


class Adapter:
    def __init__(self, view: MemoryView, memory_budget_tokens: int, task_budget_tokens: int) -> None:
        self.blocks = MemoryBlockBuilder(view)
        self.memory_budget = memory_budget_tokens
        self.task_budget = task_budget_tokens

    def memory_block(self, query: str, budget_tokens: int | None = None) -> tuple[str, list[Node]]:
        """The <memory> block for `query` within `budget_tokens` (the settings' budget by default)."""
        return self.blocks.build(query, budget_tokens or self.memory_budget)

    def select(self, query: str) -> Selection:
        """The evidence for `query` within the memory budget; a question that asks several things ("What are X,
        and how does Y decide?") also gets each part's own, in `parts` (the evidence for X is not Y's)."""
        selection = self.blocks.select(query, self.memory_budget)
        parts = question_parts(query, self.blocks.view.acronyms())
        if len(parts) > 1:
            selection.parts = [self.blocks.select(part, self.memory_budget) for part in parts]
        return selection

    def enhance(self, doc: InsightDoc, task: PendingTask | None = None, long_term_block: str = "") -> Enhanced:
        """The enhanced prompt for the pending task, the nodes shown in it and the selection behind its <memory>
        block; each block within its budget. `long_term_block`: the run's <long_term> block, already built
        within its own budget (`run/long_term_hook.py`), or none."""
        task = task or doc.next_task
        selection = self.select(task_query(doc, task))
        memory, nodes = self.blocks.render(selection)
        task_block = format_task_block(doc, self.task_budget - estimate_tokens("<task>\n\n</task>"))
        long_term = f"{long_term_block}\n\n" if long_term_block else ""
        return Enhanced(f"<task>\n{task_block}\n</task>\n\n{long_term}{memory}", nodes, selection)
