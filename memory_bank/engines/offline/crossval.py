"""Cross-validation of a pending conflict against the task's own documents.

Both nodes are read in full (deep retrieval of their entries), aligned word by word to find the slot where they
disagree, and each variant is searched for in the other documents of the task. The variant that more independent
passages repeat is supported; a tie is reported as undecided rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView, Passage
from ..models import Citation, Claim, ExecutionResult, ToolCallRecord, Verdict
from .contradiction import Substitution, align, align_tokens
from .results import clip
from .validation_text import undecided, verdict

_ALNUM = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Support:
    value: str
    passages: list[Passage]

    def note(self) -> str:
        if not self.passages:
            return "no other passage of the documents repeats it"
        where = "; ".join(p.where() for p in self.passages[:3])
        return f"{len(self.passages)} other passage(s) of the documents repeat it ({where})"


class CrossValidator:
    def __init__(self, view: MemoryView, k: int = 8, response_chars: int = 1500) -> None:
        self.view = view
        self.k = k
        self.response_chars = response_chars

    def run(self, conflict_id: str) -> ExecutionResult:
        conflict = self.view.conflict(conflict_id)
        a, b = self.view.node(conflict.node_a), self.view.node(conflict.node_b)
        calls: list[ToolCallRecord] = []
        lost = self.view.rejected_entries()  # a claim that lost a cross-validation is no side and no support
        raw_a, own_a = self._deep(a, calls, lost)
        raw_b, own_b = self._deep(b, calls, lost)
        sub = _main_substitution(raw_a, raw_b)
        if sub is None:
            text = (f"Moot: the texts of node {a.id} and node {b.id} no longer differ in a value "
                    f"({conflict.description}).")
            return ExecutionResult(answer=text, summary=text, tool_calls=calls, success=True,
                                   verdict=Verdict(moot=True))
        passages = self._search(sub, calls, exclude=own_a | own_b | lost)
        support_a = Support(sub.ours, [p for p in passages if _contains(p.text, sub.ours)
                                       and not _contains(p.text, sub.theirs)])
        support_b = Support(sub.theirs, [p for p in passages if _contains(p.text, sub.theirs)
                                         and not _contains(p.text, sub.ours)])
        return self._result(a, b, support_a, support_b, calls)

    def _deep(self, node: Node, calls: list[ToolCallRecord], lost: set[str]) -> tuple[str, set[str]]:
        entries = self.view.entries_for(node.id)
        text = "\n\n".join(e.text for e in entries if e.entry_id not in lost) or node.summary
        calls.append(ToolCallRecord(name="deep_retrieval", arguments={"node_id": node.id},
                                    response=clip(text, self.response_chars)))
        return text, {e.entry_id for e in entries}

    def _search(self, sub: Substitution, calls: list[ToolCallRecord], exclude: set[str]) -> list[Passage]:
        found: dict[str, Passage] = {}
        for value in (sub.ours, sub.theirs):
            query = f"{sub.before} {value}".strip()
            hits = self.view.search_passages(query, self.k)
            calls.append(ToolCallRecord(name="search", arguments={"query": query, "scope": "local"},
                                        response="\n".join(f"[{p.where()}] {clip(p.text, 300)}" for p in hits)
                                        or "no passage found"))
            for p in hits:
                if p.entry_id not in exclude:
                    found.setdefault(p.entry_id, p)
        return list(found.values())

    def _result(self, a: Node, b: Node, support_a: Support, support_b: Support,
                calls: list[ToolCallRecord]) -> ExecutionResult:
        side_a = (a.id, support_a.value, support_a.note())
        side_b = (b.id, support_b.value, support_b.note())
        if len(support_a.passages) == len(support_b.passages):
            text = undecided(side_a, side_b)
            summary = f"Cross-validation could not decide between \"{support_a.value}\" and \"{support_b.value}\"."
            return ExecutionResult(answer=text, summary=summary, tool_calls=calls, success=True, verdict=Verdict())
        win, lose = (side_a, side_b) if len(support_a.passages) > len(support_b.passages) else (side_b, side_a)
        winner = support_a if win is side_a else support_b
        citations = [Citation(node_id=p.node_ids[0], source=p.source, pages=list(p.pages), quote=clip(p.text, 200),
                              printed_pages=p.printed_pages, section=list(p.section))
                     for p in winner.passages if p.node_ids]
        summary = (f"The documents support \"{win[1]}\" (node {win[0]}) over \"{lose[1]}\" (node {lose[0]}): "
                   f"{len(winner.passages)} passage(s) agree.")
        decided = Verdict(supported=Claim(node_id=win[0], value=win[1]), rejected=Claim(node_id=lose[0], value=lose[1]))
        return ExecutionResult(answer=verdict(win, lose), summary=summary, tool_calls=calls,
                               citations=citations, success=True, verdict=decided)


def _main_substitution(raw_a: str, raw_b: str) -> Substitution | None:
    distinct = align(align_tokens(raw_a), align_tokens(raw_b)).distinct
    return _figures_only(distinct[0]) if distinct else None


def _figures_only(sub: Substitution) -> Substitution:
    """The slot's figures when both sides have differing ones: two notes phrase one budget differently ("budget
    is 9" / "with a budget of 5"), and a third document repeats the figure, not the phrasing around it."""
    ours = [t.text for t in align_tokens(sub.ours) if t.text[0].isdigit()]
    theirs = [t.text for t in align_tokens(sub.theirs) if t.text[0].isdigit()]
    if ours and theirs and ours != theirs:
        return Substitution(" ".join(ours), " ".join(theirs), sub.before)
    return sub


def _contains(text: str, value: str) -> bool:
    """Word-sequence containment, blind to case, punctuation and spacing ("1,234" matches "1 , 234")."""
    needle = " ".join(_ALNUM.findall(value.lower()))
    hay = " ".join(_ALNUM.findall(text.lower()))
    return bool(needle) and f" {needle} " in f" {hay} "

