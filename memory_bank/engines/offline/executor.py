"""Offline executor: carries out a pending task by reading memory directly (no LLM, no ReAct loop).

A NORMAL task is answered extractively, with citations, from the evidence the memory block for the question is
made of: the typed selection the adapter made for the task (`ExecutionInput.selection`, with each part's own for
a question that asks several things, `parts_answer.py`), never re-parsed from the block's text nor selected again
here (`evidence_reader.py`). The question is read once (`asked.py`) and tried with three strategies in turn:
answers that settle it outright (`direct_answers.py`: an acronym, a figure's row, names the documents never
mention), answers laid out by the document's structure (`structured_answers.py`: a list, a count, a
sub-section's steps, compared sections), and the ranked prose (`prose_answer.py`), where weak evidence gives an
honest "not found" (`not_found_answer.py`). A
CROSS_VALIDATE task checks both sides of a conflict against the task's documents (`crossval.py`). What the
executor reads is recorded as the tool calls an agent would have made (search, deep_retrieval), with their real
outputs, so the run log shows the same trail as with the LLM engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...memory.insight_doc import TaskType
from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...text.reader_concepts import in_document_terms
from ...text.self_statements import asked_of_documents
from ..models import ExecutionInput, ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from ..protocol.memory_block import Selection
from .acronym_answer import AcronymAnswerer
from .answering import AnswerConfig, Answerer
from .apparatus import ApparatusCounter
from .asked import Asked
from .crossval import CrossValidator
from .direct_answers import DirectAnswers
from .evidence import Evidence
from .evidence_reader import EvidenceReader
from .front_matter import FrontMatterAnswerer
from .item_details import ItemDetails
from .item_sentence import stated
from .language import hinted
from .list_answer import ListAnswerer
from .not_found_answer import NotFoundAnswers
from .parts_answer import PartReaders, PartsAnswerer
from .prose_answer import ProseAnswer
from .results import done_placed, failed
from .signed_roles import SignedRoles
from .structured_answers import StructuredAnswers

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
        self.roles = SignedRoles(view)
        self.not_found = NotFoundAnswers(view, self.answerer)
        # each part of a multi-part question gets a shorter answer, so the list stays readable
        self.parts = PartsAnswerer(PartReaders(
            Answerer(embedder, replace(answer_config or AnswerConfig(), max_words=PART_WORDS),
                     lambda: self.view.acronyms()), self.lists,
            ItemDetails(view, embedder), self.acronyms, self.roles, tables, view, self.reader.run,
            self.not_found.absent,
            self._summary_of))
        # the strategies a single question is tried with, in this order (each reads the one `Asked`)
        self.direct = DirectAnswers(view, tables, self.answerer, self.acronyms, self.front_matter, self.roles,
                                   ApparatusCounter(view), self.not_found)
        self.structured = StructuredAnswers(view, self.answerer, self.lists, self._summary_of, tables)
        self.prose = ProseAnswer(view, tables, self.answerer, self.not_found)

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
        # "We are a single-site organization …. Can we still benefit …?": what is asked of the documents; then
        # "CEO", "return capital", "drawback" in the filing's words
        question = in_document_terms(asked_of_documents(question), self.view.long_forms, self.view.mentions,
                                     self.view.acronyms(), self.view.acronyms_said)
        if len(selection.parts) > 1:
            behind = self.front_matter.behind(question)  # "Which body oversaw …, and which group …?": one passage
            if behind is not None:
                return done_placed(behind, calls)
            return self.parts.run(question, selection.parts, calls)
        asked = Asked.read(question, selection, self.evidence(selection, calls), self.view, self.tables)
        for strategy in (self.direct, self.structured):
            result = strategy.run(asked, calls)
            if result is not None:
                return result
        return self.prose.run(asked, calls)

    def _summary_of(self, node_id: str) -> str:
        """A node's text, which the counted sentence reads for what its passage says before it."""
        return self.view.node(node_id).summary

    def evidence(self, selection: Selection, calls: list[ToolCallRecord] | None = None) -> list[Evidence]:
        """The sentences the selection's memory block is made of (evidence_reader.py). Public for
        bench/not_found_fit.py, which fits the `FoundModel` on exactly the evidence the product answers from."""
        return self.reader.run(selection, [] if calls is None else calls)

