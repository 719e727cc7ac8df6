"""Answers that do not need the ranked evidence: tried first, each settles the question outright.

What an acronym stands for; who wrote the document or when; who holds an office a filing's signatures name; how
many figures, tables, acronyms or references a publication lists; a question naming nothing to ask about; a choice
between named segments by how they moved; a figure with what drove it; one figure from its table row; a question
whose names the documents never mention ("not found", saying which).
"""

from __future__ import annotations

from ...retrieval.view import MemoryView
from ...text.trends import names_no_subject
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from ..protocol.not_found import NOT_FOUND
from .acronym_answer import AcronymAnswerer
from .answering import Answerer
from .apparatus import ApparatusCounter
from .asked import Asked
from .figure_answer import asks_one_figure, one_figure
from .figure_cause import asks_cause, cause_answer, subject_row
from .front_matter import FrontMatterAnswerer
from .moved_choice import moved_choice
from .not_found_answer import NotFoundAnswers
from .results import done, done_placed, where
from .signed_roles import SignedRoles
from .verdict import verdict


class DirectAnswers:
    def __init__(self, view: MemoryView, tables: TableIndex, answerer: Answerer, acronyms: AcronymAnswerer,
                 front_matter: FrontMatterAnswerer, roles: SignedRoles, apparatus: ApparatusCounter,
                 not_found: NotFoundAnswers) -> None:
        self.view, self.tables, self.answerer = view, tables, answerer
        self.acronyms, self.front_matter, self.not_found = acronyms, front_matter, not_found
        self.roles, self.apparatus = roles, apparatus

    def run(self, asked: Asked, calls: list[ToolCallRecord]) -> ExecutionResult | None:
        """The answer when one of these kinds settles the question, else None (the next strategy's turn)."""
        question, evidence = asked.question, asked.evidence
        expanded = (self.acronyms.run(question) or self.front_matter.run(question) or self.roles.run(question)
                    or self.apparatus.run(question))
        if expanded is not None:  # what an acronym stands for; who wrote the document, or when; who holds an office;
            # how many figures, tables, acronyms or references it has
            return done_placed(expanded, calls)
        if names_no_subject(question):  # "Is it improving, and why?" of nothing named
            said = f"{NOT_FOUND} The question does not say what it asks about: name the figure or the topic."
            return ExecutionResult(answer=said, tool_calls=calls, success=True, summary=said)
        chosen = moved_choice(question, evidence)
        if chosen is not None:  # "Which of the segments had lower net sales in 2022 than in 2021, and why?"
            return done(chosen, calls)
        row = subject_row(question, self.tables, self.view) if asks_cause(question) else None
        if row is not None:  # "What were total revenues in 2023 and what drove the change?": the row, its reason
            caused = cause_answer(question, row, evidence, self.answerer, where, verdict if asked.yes_no else None,
                                  self.tables, self.view)
            return done(caused, calls)
        one = not asked.yes_no and asks_one_figure(question)
        figure = one_figure(question, evidence, self.tables, self.view) if one else None
        if figure is not None:  # the row the question names, or "not found" when its tables stop short of the year
            return done(figure, calls) if figure.found else ExecutionResult(
                answer=figure.text, tool_calls=calls, success=True, summary=figure.text.removeprefix(NOT_FOUND).strip())
        absent = self.not_found.absent(question)
        if absent:
            return self.not_found.not_mentioned(question, absent, evidence, calls)
        return None
