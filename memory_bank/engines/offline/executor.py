"""Offline executor: carries out a pending task by reading memory directly (no LLM, no ReAct loop).

A NORMAL task is answered extractively, with citations, from the evidence the memory block for the question is
made of: the typed selection the adapter made for the task (`ExecutionInput.selection`, with each part's own for
a question that asks several things, `parts_answer.py`), never re-parsed from the block's text nor selected again
here (`evidence_reader.py`); weak evidence gives an honest "not found" (`not_found_answer.py`). A
CROSS_VALIDATE task checks both sides of a conflict against the task's documents (`crossval.py`). What the
executor reads is recorded as the tool calls an agent would have made (search, deep_retrieval), with their real
outputs, so the run log shows the same trail as with the LLM engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...memory.insight_doc import TaskType
from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...text.acronyms import shortened_for
from ...text.asks import asks_advice, asks_sequence, item_noun, kind_is_head, ordinal_word
from ...text.reader_concepts import in_document_terms
from ...text.trends import names_no_subject
from ..models import ExecutionInput, ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from ..protocol.memory_block import Selection
from ..protocol.not_found import NOT_FOUND
from .acronym_answer import AcronymAnswerer
from .answering import SEQUENCE_SHARE, Answer, AnswerConfig, Answerer
from .compared_sections import compared_sections
from .counted_list import HOW_MANY, counted_sentence, enumerated_count, says_more_of
from .crossval import CrossValidator
from .evidence import Evidence
from .evidence_reader import EvidenceReader
from .figure_answer import (
    answering_rows,
    asks_amount,
    asks_choice,
    asks_comparison,
    asks_one_figure,
    compared_rows,
    one_figure,
    row_evidence,
    rows_answer,
)
from .figure_cause import asks_cause, cause_answer, subject_row
from .front_matter import FrontMatterAnswerer
from .graphic import asks_about_graphic, presents_graphic
from .inline_items import naming_first
from .item_details import ItemDetails
from .item_sentence import stated
from .language import hinted
from .list_answer import ListAnswerer, Listing, ordinal, pointed_item
from .moved_choice import moved_choice
from .named_agents import agents_count
from .not_found_answer import NotFoundAnswers
from .parts_answer import PartReaders, PartsAnswerer
from .read_on import read_on
from .reason_answer import with_reason
from .referent import titled_referent
from .results import citations, done, failed, summary, where
from .sides import asked_difference
from .signer import signer_first
from .titled_section import DOING_WORDS, in_order, titled_evidence, within
from .verdict import is_yes_no, verdict
from .verdict_passage import with_verdict

PART_WORDS = 35  # words per part of a multi-part answer


@dataclass(frozen=True)
class ExecutorConfig:
    """`response_chars`: how much of a node's deep retrieval the run log's tool call keeps."""

    response_chars: int = 1500


class OfflineExecutor:
    name = "executor"

    def __init__(self, embedder: Embedder, view: MemoryView, tables: TableIndex,
                 config: ExecutorConfig | None = None, answer_config: AnswerConfig | None = None) -> None:
        self.view = view
        self.tables = tables  # the rows a figure or a comparison is read from (shared with the memory block)
        self.config = config or ExecutorConfig()
        self.answerer = Answerer(embedder, answer_config, lambda: self.view.acronyms())
        self.reader = EvidenceReader(view, self.config.response_chars)
        self.validator = CrossValidator(view, response_chars=self.config.response_chars)
        self.lists = ListAnswerer(view, stating=lambda q, listing: stated(q, listing, view, embedder))
        self.acronyms = AcronymAnswerer(view)
        self.front_matter = FrontMatterAnswerer(view)
        self.not_found = NotFoundAnswers(view, self.answerer)
        # each part of a multi-part question gets a shorter answer, so the list stays readable
        self.parts = PartsAnswerer(PartReaders(
            Answerer(embedder, replace(answer_config or AnswerConfig(), max_words=PART_WORDS),
                     lambda: self.view.acronyms()), self.lists,
            ItemDetails(view, embedder), self.acronyms, tables, view, self.reader.run, self.not_found.absent,
            self._summary_of))

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        task = inp.task
        if task.type is TaskType.CROSS_VALIDATE:
            if not task.conflict_id:
                return failed("a CROSS_VALIDATE task needs the conflict_id of the conflict to validate")
            return self.validator.run(task.conflict_id)
        if task.type is TaskType.IMAGE_RECOGNITION:
            return failed("image recognition is done by the recognizer, not the executor")
        if inp.selection is None:
            return failed("a NORMAL task is answered from the evidence selected for it, and none was given")
        # one space between words, as question_parts reads it: the answer's patterns end on optional spaces and
        # marks, and a question with 50,000 spaces in it was tried at every split of them (hours, not seconds)
        question = " ".join(inp.task_goal.split()) or task.description
        result = self._answer(question, inp.selection)
        if result.answer:  # "What is an NPE?": its long form first
            result.answer = self.acronyms.named(question, result.answer)
        result.answer = hinted(result.answer, question, self.view.mentions)  # "not found": in another language?
        return result

    def _answer(self, question: str, selection: Selection) -> ExecutionResult:
        calls: list[ToolCallRecord] = []
        # "CEO", "return capital", "drawback": in the filing's words
        question = in_document_terms(question, self.view.long_forms, self.view.mentions)
        if len(selection.parts) > 1:
            return self.parts.run(question, selection.parts, calls)
        sections = titled_evidence(question, self.view)
        titled = within(sections)
        evidence = self.evidence(selection, calls) + [ev for section in titled for ev in section]
        expanded = self.acronyms.run(question) or self.front_matter.run(question)
        if expanded is not None:  # what an acronym stands for; who wrote the document, or when
            return ExecutionResult(answer=f"{expanded.text} ({where(expanded.used[0])})", tool_calls=calls,
                                   citations=citations(expanded), summary=summary(expanded), success=True)
        if names_no_subject(question):  # "Is it improving, and why?" of nothing named
            said = f"{NOT_FOUND} The question does not say what it asks about: name the figure or the topic."
            return ExecutionResult(answer=said, tool_calls=calls, success=True, summary=said)
        chosen = moved_choice(question, evidence)
        if chosen is not None:  # "Which of the segments had lower net sales in 2022 than in 2021, and why?"
            return done(chosen, calls)
        yes_no = is_yes_no(question)
        row = subject_row(question, self.tables, self.view) if asks_cause(question) else None
        if row is not None:  # "What were total revenues in 2023 and what drove the change?": the row, its reason
            caused = cause_answer(question, row, evidence, self.answerer, where, verdict if yes_no else None,
                                  self.tables, self.view)
            return done(caused, calls)
        one = not yes_no and asks_one_figure(question)
        figure = one_figure(question, evidence, self.tables, self.view) if one else None
        if figure is not None:  # the row the question names, or "not found" when its tables stop short of the year
            return done(figure, calls) if figure.found else ExecutionResult(
                answer=figure.text, tool_calls=calls, success=True, summary=figure.text.removeprefix(NOT_FOUND).strip())
        absent = self.not_found.absent(question)
        if absent:
            return self.not_found.not_mentioned(question, absent, evidence, calls)
        # "Was the 2022 effective tax rate lower than the statutory rate?" is judged, and shown, by its two rows
        rows = compared_rows(question, self.tables, moved=not yes_no) if asks_comparison(question) else []
        items_asked = not (yes_no or rows or asks_choice(question))
        listing = self.lists.listing(question, selection) if items_asked else None
        counted = (counted_sentence(question, evidence, self._summary_of) or enumerated_count(question, evidence)
                   or agents_count(question, evidence)) if items_asked else None
        if listing is not None and not self.lists.meets(question, listing, evidence):
            listing = None  # a list that says none of what the question qualifies its items by, while a place does
        if counted is not None and not self.lists.met_by(question, counted.text,
                                                         self.view.node(counted.used[0].node_id), evidence):
            counted = None  # a sentence naming such items: "the PEP … may be broken into two components: …"
        if listing is not None and counted is not None and says_more_of(question, counted, listing.said()):
            listing = None  # "the PDP is broken down into two logical components: …", not the three core ones
        if listing is not None:
            position = ordinal(question)
            if position is not None and not HOW_MANY.search(question):
                return self._pointed(question, listing, position, calls)
            return self._listed(question, listing, calls)
        if counted is not None:  # "We have three businesses: cloud and license; hardware; and services."
            return done(counted, calls)
        told = (in_order(within(sections, DOING_WORDS, body=True), question)
                if items_asked and asked_difference(question) is None else None)
        if told is not None:  # "What should administrators do when formulating policies …?": that sub-section
            return done(told, calls)
        compared = (None if yes_no or rows or asked_difference(question) is not None
                    else compared_sections(question, titled, self.answerer))
        if compared is not None:  # "How does a pure ZTA compare with a hybrid one?": each sub-section's opening
            # ("How does X differ from Y?" asks what sets them apart: `Answerer.compose` puts it first)
            return done(compared, calls)
        # "How does Oracle return capital?": prose, not an equity statement's row; a comparison shows its rows
        # apart, so what the text says of it is its prose
        if rows or not asks_amount(question):
            evidence = [ev for ev in evidence if not ev.row] or evidence
        if not asks_about_graphic(question):  # "The graph below compares …" answers what is graphed, nothing else
            evidence = [ev for ev in evidence if not presents_graphic(ev.text)] or evidence
        ranked = self.answerer.rank(question, evidence)
        answer = self.answerer.answer_ranked(question, ranked)
        named = naming_first(ranked) if (answer.found and items_asked and item_noun(question) and kind_is_head(question)
                                         and ranked) else None
        if named is not None:  # the evidence answers (its best sentence judged so); the sentence naming the items
            # no list holds ("the common elements (e.g., ID management, …)") opens the answer
            answer = self.answerer.compose(question, named.pool, named.order, answer.score)
        if not answer.found:
            answer = self._in_their_words(question, evidence) or answer
        if rows:
            opening = f"{verdict(question, answer.used[0].text)}. " if yes_no and answer.found else None
            return done(rows_answer(question, answer, rows, self.view, where, opening), calls)
        if not answer.found:
            return self.not_found.closest(question, answer.used[0] if answer.used else None, evidence, calls)
        answer = signer_first(question, answer, evidence, self.view)  # "Who audits …?" of a report that says "we"
        answer = titled_referent(question, answer)  # "Which deployment model …?" of "… this model …": its title
        if (asks_sequence(question) or asks_advice(question)) and not yes_no:
            # "… how would it go about it?", "How should an agency decide …?": what follows its first sentence there
            answer = read_on(answer, self.view, int(SEQUENCE_SHARE * self.answerer.config.max_words))
        if yes_no and asks_cause(question):  # "Does a ZTA improve …, and why?": the claim, then its reason
            answer = with_reason(answer, ranked)
        if yes_no:  # "Was the 2022 effective tax rate lower than …?": the verdict, the reason, the row's figure
            named = [r for r in answering_rows(question, self.tables, self.view)[:1] if r.value not in answer.text]
            answer = with_verdict(question, answer, self.view)
            used = [*answer.used, *(row_evidence(r, self.view.node(r.node_id)) for r in named)]
            answer = Answer(" ".join([answer.text, *(f"{r.statement()}." for r in named)]), used, answer.score)
        return done(answer, calls)

    def _summary_of(self, node_id: str) -> str:
        """A node's text, which the counted sentence reads for what its passage says before it."""
        return self.view.node(node_id).summary

    def _in_their_words(self, question: str, evidence: list[Evidence]) -> Answer | None:
        """A question in the long form of an acronym the documents define, asked again in the short form their
        sentences use ("Risk Management Framework" -> "RMF"); the answer when that finds one."""
        short = shortened_for(question, self.view.acronyms(), [ev.text for ev in evidence])
        if short is None:  # no long form, or one the evidence says as often as its acronym: asked in their words
            return None
        answer = self.answerer.answer(short, evidence)
        return answer if answer.found else None

    def _pointed(self, question: str, listing: Listing, position: int,
                 calls: list[ToolCallRecord]) -> ExecutionResult:
        """"What does the eighth tenet require?": that item of the list, or "not found" when the list is shorter
        (saying how long it is)."""
        text = pointed_item(listing, position)
        answer = self.lists.answer(question, listing)
        if text is None and (position < 0 or position <= listing.count):
            text = answer.text  # an item of a list held only in part (it exists, unread): the list, with its count
        elif text is None:
            noun = item_noun(question) or "items"
            which = ordinal_word(position)
            text = (f"{NOT_FOUND} The documents list {listing.count} {_plural(noun)} "
                    f"({where(answer.used[0])}); there is no {which} one.")
        return ExecutionResult(answer=text, tool_calls=calls, citations=citations(answer), success=True,
                               summary=f"Item {position} of section node {listing.node.id} ({listing.title}).")

    def _listed(self, question: str, listing: Listing, calls: list[ToolCallRecord]) -> ExecutionResult:
        answer = self.lists.answer(question, listing)
        return ExecutionResult(answer=answer.text, tool_calls=calls, citations=citations(answer),
                               summary=f"Listed from section node {listing.node.id} ({listing.title}).", success=True)

    def evidence(self, selection: Selection, calls: list[ToolCallRecord] | None = None) -> list[Evidence]:
        """The sentences the selection's memory block is made of (evidence_reader.py). Public for
        bench/not_found_fit.py, which fits the `FoundModel` on exactly the evidence the product answers from."""
        return self.reader.run(selection, [] if calls is None else calls)


def _plural(noun: str) -> str:
    return noun if noun.endswith("s") else f"{noun}s"
