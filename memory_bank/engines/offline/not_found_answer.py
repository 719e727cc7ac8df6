"""Honest "not found" answers: what the documents never mention of the question's names, and the closest thing
they do say on its subject, labelled and cited, a near miss a reader would otherwise take for the answer."""

from __future__ import annotations

from ...retrieval.view import MemoryView
from ...text.tokens import bare_stems
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.not_found import NOT_FOUND
from .answering import Answer, Answerer
from .constraints import other_forms
from .evidence import Evidence
from .results import citations, clip, where
from .specifics import specific_terms

NAMED_ABSENT = 3  # the answer names this many of the things the documents never mention
NAMED_CHARS = 60  # each at most this long: a question may be anything a user pastes
CLOSEST_SHARE = 0.6  # a "not found" shows the closest sentence when it says this share of the question's words


class NotFoundAnswers:
    def __init__(self, view: MemoryView, answerer: Answerer) -> None:
        self.view = view
        self.answerer = answerer

    def absent(self, question: str) -> list[str]:
        """The names, numbers and terms the question asks about that the documents never mention."""
        terms = specific_terms(question)
        if not terms:
            return []
        forms = {t: (t, *other_forms(t)) for t in terms}  # "in Euros" of documents that write "€53,423"
        said = self.view.mentions([f for fs in forms.values() for f in fs])
        return [t for t, fs in forms.items() if not any(said[f] for f in fs)]

    def not_mentioned(self, question: str, absent: list[str], evidence: list[Evidence],
                      calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", saying what the documents never mention, and the closest thing they do say, labelled."""
        named = ", ".join(f"“{clip(t, NAMED_CHARS)}”" for t in absent[:NAMED_ABSENT])
        if len(absent) > NAMED_ABSENT:
            named += f" and {len(absent) - NAMED_ABSENT} more names"
        text = f"{NOT_FOUND} They never mention {named}."
        ranked = self.answerer.rank(question, evidence)
        closest = next((ranked.pool[i] for i in (ranked.body() or ranked.order) if not ranked.pool[i].lead_in),
                       None) if ranked is not None else None
        if closest is None:
            return ExecutionResult(answer=text, tool_calls=calls, success=True,
                                   summary=f"The documents never mention {named}.")
        answer = Answer(closest.text, [closest], 0.0)
        return ExecutionResult(answer=f"{text}\nThe closest they come ({where(closest)}): {closest.text}",
                               tool_calls=calls, citations=citations(answer), success=True,
                               summary=f"The documents never mention {named}; closest: node {closest.node_id}.")

    @staticmethod
    def closest(question: str, best: Evidence | None, evidence: list[Evidence],
                calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", and the closest thing the documents say when it is on the question's subject: the
        sentence of the evidence that says most of the question's words (at least `CLOSEST_SHARE`; the first in
        relevance order of those that say as much)."""
        why = f" The closest passage (node {best.node_id}) does not match the question." if best else ""
        summary = f"No passage of the documents answers the question.{why}"
        shares = [_said_share(question, ev.text) if not ev.lead_in else 0.0 for ev in evidence]
        top = max(range(len(evidence)), key=lambda i: (shares[i], -i), default=None)
        if top is None or shares[top] < CLOSEST_SHARE:
            return ExecutionResult(answer=NOT_FOUND, tool_calls=calls, success=True, summary=summary)
        near = evidence[top]
        return ExecutionResult(answer=f"{NOT_FOUND}\nThe closest they come ({where(near)}): {near.text}",
                               tool_calls=calls, citations=citations(Answer(near.text, [near], 0.0)),
                               success=True, summary=summary)


def _said_share(question: str, sentence: str) -> float:
    """The share of the question's words (stems, stopwords and possessives aside) the sentence says."""
    asked, said = (bare_stems(text) for text in (question, sentence))
    return len(asked & said) / len(asked) if asked else 0.0
