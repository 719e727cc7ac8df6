"""The answer from the ranked sentences of the evidence: the last strategy, which always answers (or says "not
found", with the closest thing the documents say).

The evidence is narrowed to what the question asks of it first (prose, not a statement's rows, unless an amount
is asked; a graph's presenting sentence only for what is graphed), ranked, and the best sentences composed; then
the answer is given the shape its question asks for: the rows a comparison names, the signer for "who", a
sub-section's title for "which", what follows for steps or advice, the reason for "and why", the verdict and
the row's figure for a yes/no question.
"""

from __future__ import annotations

from ...retrieval.view import MemoryView
from ...text.acronyms import shortened_for
from ...text.asks import asks_advice, asks_sequence, open_kind
from ...text.tokens import stems
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from .answering import SEQUENCE_SHARE, Answer, Answerer
from .asked import Asked
from .cited_work import with_cited_work
from .evidence import Evidence
from .figure_answer import answering_rows, asks_amount, row_evidence, rows_answer
from .figure_cause import asks_cause
from .graphic import asks_about_graphic, presents_graphic
from .inline_count import inline_count
from .inline_items import naming_first
from .kind_named import asked_kind
from .kind_sentences import kind_sentences
from .not_found_answer import NotFoundAnswers
from .read_on import read_on
from .reason_answer import with_reason
from .referent import titled_referent
from .results import done, where
from .signer import signer_first
from .verdict import verdict
from .verdict_passage import with_verdict


class ProseAnswer:
    def __init__(self, view: MemoryView, tables: TableIndex, answerer: Answerer, not_found: NotFoundAnswers) -> None:
        self.view, self.tables, self.answerer, self.not_found = view, tables, answerer, not_found

    def run(self, asked: Asked, calls: list[ToolCallRecord]) -> ExecutionResult:
        question, yes_no, rows = asked.question, asked.yes_no, asked.rows
        evidence = asked.evidence
        # "How does Oracle return capital?": prose, not an equity statement's row; a comparison shows its rows
        # apart, so what the text says of it is its prose
        if rows or not asks_amount(question):
            evidence = [ev for ev in evidence if not ev.row] or evidence
        if not asks_about_graphic(question):  # "The graph below compares …" answers what is graphed, nothing else
            evidence = [ev for ev in evidence if not presents_graphic(ev.text)] or evidence
        ranked = self.answerer.rank(question, evidence)
        answer = self.answerer.answer_ranked(question, ranked)
        kind = asked_kind(question)  # "What risks …?" (the documents' words for the kind included)
        plural = open_kind(question)  # "Which industries …?": no item noun, still items of a kind
        items_of = (asked.kind if asked.names_kind
                    else frozenset(stems(plural)) if plural and asked.items_asked else None)
        named = naming_first(ranked, items_of, kind) if answer.found and items_of is not None and ranked else None
        if named is not None:  # the evidence answers (its best sentence judged so); the sentence naming the items
            # no list holds ("the common elements (e.g., ID management, …)") opens the answer
            answer = self.answerer.compose(question, named.pool, named.order, answer.score)
        if not answer.found:
            answer = self._in_their_words(question, evidence) or answer
        if not answer.found and ranked is not None:  # "How many examples …?" of "(e.g., A, B, C)": counted
            answer = inline_count(question, ranked, self.answerer.config.found) or answer
        if rows:
            opening = f"{verdict(question, answer.used[0].text)}. " if yes_no and answer.found else None
            return done(rows_answer(question, answer, rows, self.view, where, opening), calls)
        if not answer.found:
            return self.not_found.closest(question, answer.used[0] if answer.used else None, evidence, calls)
        answer = signer_first(question, answer, evidence, self.view)  # "Who audits …?" of a report that says "we"
        answer = titled_referent(question, answer)  # "Which deployment model …?" of "… this model …": its title
        answer = with_cited_work(question, answer, self.view)  # "Who issued the memo …?" of "… [M-19-26].": its entry
        if (asks_sequence(question) or asks_advice(question)) and not yes_no:
            # "… how would it go about it?", "How should an agency decide …?": what follows its first sentence there
            answer = read_on(answer, self.view, int(SEQUENCE_SHARE * self.answerer.config.max_words))
        elif kind:  # "What risks come from …?": each sentence of its sub-section naming one
            answer = kind_sentences(answer, self.view, kind, int(SEQUENCE_SHARE * self.answerer.config.max_words))
        if yes_no and asks_cause(question):  # "Does a ZTA improve …, and why?": the claim, then its reason
            answer = with_reason(answer, ranked)
        if yes_no:  # "Was the 2022 effective tax rate lower than …?": the verdict, the reason, the row's figure
            named_rows = [r for r in answering_rows(question, self.tables, self.view)[:1] if r.value not in answer.text]
            answer = with_verdict(question, answer, self.view)
            used = [*answer.used, *(row_evidence(r, self.view.node(r.node_id)) for r in named_rows)]
            answer = Answer(" ".join([answer.text, *(f"{r.statement()}." for r in named_rows)]), used, answer.score)
        return done(answer, calls)

    def _in_their_words(self, question: str, evidence: list[Evidence]) -> Answer | None:
        """A question in the long form of an acronym the documents define, asked again in the short form their
        sentences use ("Risk Management Framework" -> "RMF"); the answer when that finds one."""
        short = shortened_for(question, self.view.acronyms(), [ev.text for ev in evidence])
        if short is None:  # no long form, or one the evidence says as often as its acronym: asked in their words
            return None
        answer = self.answerer.answer(short, evidence)
        return answer if answer.found else None
