"""Calls the rules make unnecessary: an LLM agent is asked only where its answer can change what happens
(issue 29, item 1). Where a rule already decides, the offline agent's answer stands and no call is made:

- structure: a cluster of a sentence or two is its own summary (the offline structurer keeps it whole; a 30-50 %
  summary of it is a fragment). On the notes sample the local model, given five such clusters in one call, wrote
  the first one's summary five times, so nodes of other sections carried the "9 million" budget. A cluster of
  document furniture (a table of contents, a notice, a reference list) is summarised offline too: it is cited only
  when no body sentence answers, and on the NIST PDF it is 8 % of the words, more of the tokens (leaders, URLs);
- integration: nodes whose texts all sit inside one of them (a duplicate) merge into that text; and a conflict
  the documents decided (a typed verdict naming the supported and the rejected side) merges as decided, the
  rejected claim kept as a noted variant. The local model, asked, returned no rejected side and wrote the
  losing figure into the merged summary;
- classification: a chunk whose document structure is known (a section's title, a list, a table, a conversation's
  turns) is cut along it: sections never share a cluster, a list stays with its lead-in, a long section is cut at
  its least similar sentences, and the section's title names each cluster. The model would only redraw those
  lines: on the NIST PDF the local 1.5B model, given 18 passages, named 8 topics and labelled every passage with
  the first, and the six classification calls of 19 pages cost 769 of 2,245 model seconds;
- cross-validation: the offline validator counts the independent passages that repeat each side; when they
  decide, that is the validation (no ReAct steps); only an undecided conflict goes to the LLM executor.

Each decision by a rule is published (`RuleDecided`), so the run log says which calls were not made and why.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from ..errors import MemoryBankError
from ..events import RuleDecided
from ..memory.insight_doc import TaskType
from .base import Agent, batch_of, plan_of
from .models import (
    AnalysisInput,
    ClassificationInput,
    ExecutionInput,
    ExecutionResult,
    IntegrationInput,
    StructureInput,
)

In = TypeVar("In")
Out = TypeVar("Out")

_NORM = re.compile(r"[^0-9a-z]+")
_STRUCTURED = frozenset({"heading", "item", "row", "turn"})  # unit kinds that only a known structure has


class KeepsWhole(Protocol):
    def keeps_whole(self, inp: StructureInput) -> bool: ...


class RuleFirst(Generic[In, Out]):
    """The offline agent answers the inputs `decides` names a reason for, with no call; the rest go to the LLM
    agent, in its own batches."""

    def __init__(self, llm: Agent[In, Out], offline: Agent[In, Out], decides: Callable[[In], str | None],
                 publish: Callable[[RuleDecided], None]) -> None:
        self.name = getattr(llm, "name", getattr(offline, "name", "agent"))
        self._llm, self._offline, self._decides, self._publish = llm, offline, decides, publish

    def run(self, inp: In) -> Out:
        reason = self._decides(inp)
        return self._llm.run(inp) if reason is None else self._by_rule(inp, reason)

    def plan_batches(self, inputs: Sequence[In]) -> list[list[int]]:
        asking = [i for i, inp in enumerate(inputs) if self._decides(inp) is None]
        groups = plan_of(self._llm, [inputs[i] for i in asking])
        return [[asking[j] for j in g] for g in groups] + [[i] for i in range(len(inputs)) if i not in asking]

    def run_batch(self, inputs: Sequence[In]) -> list[Out | MemoryBankError]:
        reasons = [self._decides(inp) for inp in inputs]
        asking = [inp for inp, reason in zip(inputs, reasons) if reason is None]
        answered = iter(batch_of(self._llm, asking) if asking else [])
        return [next(answered) if reason is None else self._by_rule(inp, reason)
                for inp, reason in zip(inputs, reasons)]

    def _by_rule(self, inp: In, reason: str) -> Out:
        self._publish(RuleDecided(agent=self.name, reason=reason))
        return self._offline.run(inp)


def structure_rule(offline: KeepsWhole) -> Callable[[StructureInput], str | None]:
    def decides(inp: StructureInput) -> str | None:
        if inp.furniture:
            return "document furniture (contents, notices, references) is cited only when no body text answers"
        if offline.keeps_whole(inp):
            return "a cluster of a sentence or two is its own summary"
        return None
    return decides


def analysis_rule(inp: AnalysisInput) -> str | None:
    """Why the new node needs no call, or None: every candidate is a passage of the new node's own document
    (one file). Its structure already relates them (section nodes link their passages), a merge of two of its
    passages is no duplicate to remove, and a figure two of them state differently is found by the detector,
    which guards every LLM judgement anyway; so the offline analysis judges them. A candidate of another file
    is the model's to judge. On the NIST PDF (one file) the analysis calls were 78 of 111 calls and 152k of
    208k prompt tokens (scripted model, counted)."""
    own = inp.new_node.documents
    if len(own) == 1 and inp.candidates and all(c.documents == own for c in inp.candidates):
        return f"every candidate is a passage of {own[0]}: its structure relates them"
    return None


def classification_rule(inp: ClassificationInput) -> str | None:
    """Why the chunk needs no call, or None: the document's own structure divides it. A chunk known only as
    untitled paragraphs (plain text without headings) is left to the model."""
    titled = {h.section for h in inp.units if h.section}
    if titled or any(h.kind in _STRUCTURED for h in inp.units):
        where = f" ({len(titled)} section{'s' * (len(titled) != 1)})" if titled else ""
        return f"the document's structure divides the chunk{where}: clustered along its sections, lists and tables"
    return None


def _flat(text: str) -> str:
    return " ".join(_NORM.sub(" ", text.lower()).split())


def integration_rule(inp: IntegrationInput) -> str | None:
    """Why the merge needs no call, or None: a decided conflict, or every text inside one of them."""
    verdict = inp.verdict
    ids = {g.node.id for g in inp.nodes_to_merge}
    if verdict is not None and verdict.moot:
        return "the two sides no longer state any value differently: merged as duplicates, nothing rejected"
    if verdict is not None and verdict.supported is not None and verdict.rejected is not None \
            and {verdict.supported.node_id, verdict.rejected.node_id} <= ids:
        return (f"the documents decided the conflict ({verdict.supported.value!r} over "
                f"{verdict.rejected.value!r}): merged as decided, the rejected claim kept as a variant")
    if inp.validation_result is not None or inp.conflict_description is not None:
        return None  # an undecided conflict: the LLM weighs the validation
    texts = [_flat(g.node.summary) for g in inp.nodes_to_merge]
    longest = max(texts, key=len)
    if all(t in longest for t in texts):
        return "a duplicate: every node's text is inside one of them, which is the merged text"
    return None


class ValidatedFirst:
    """The executor: a CROSS_VALIDATE task first by the documents' own count (the offline validator), the LLM
    executor only when that leaves the conflict undecided, and for every other task."""

    name = "react"

    def __init__(self, llm: Agent[ExecutionInput, ExecutionResult], offline: Agent[ExecutionInput, ExecutionResult],
                 publish: Callable[[RuleDecided], None]) -> None:
        self._llm, self._offline, self._publish = llm, offline, publish

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        if inp.task.type is TaskType.CROSS_VALIDATE and inp.task.conflict_id:
            result = self._offline.run(inp)
            if result.verdict is not None and result.verdict.decided and result.answer:
                self._publish(RuleDecided(agent=self.name, reason=f"cross-validation decided by the documents: "
                                                                  f"{result.answer[:200]}"))
                return result
        return self._llm.run(inp)
