"""Answers shaped by the document's structure: a list's items, a sentence counting them, a sub-section's steps
in order, or the sections a comparison names side by side.

Tried after `direct_answers.py` and before the ranked prose (`prose_answer.py`): a question asking for items is
answered from where the document lays them out, not from whichever sentence ranks first.
"""

from __future__ import annotations

from collections.abc import Callable

from ...retrieval.view import MemoryView
from ...text.asks import item_noun, ordinal_word
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from ..protocol.not_found import NOT_FOUND
from .answering import Answerer
from .asked import Asked
from .compared_sections import compared_sections
from .counted_list import HOW_MANY, counted_sentence, enumerated_count, says_more_of
from .list_answer import ListAnswerer, Listing
from .list_pointers import ordinal, pointed_item
from .named_agents import agents_count, people_count
from .results import citations, done, where
from .sides import asked_difference
from .table_list import table_list
from .titled_section import DOING_WORDS, in_order, within


class StructuredAnswers:
    def __init__(self, view: MemoryView, answerer: Answerer, lists: ListAnswerer,
                 summary_of: Callable[[str], str], tables: TableIndex) -> None:
        self.view, self.answerer, self.lists, self.summary_of = view, answerer, lists, summary_of
        self.tables = tables

    def run(self, asked: Asked, calls: list[ToolCallRecord]) -> ExecutionResult | None:
        """The structured answer when the document lays one out for the question, else None."""
        question, evidence = asked.question, asked.evidence
        items = asked.items_asked
        grouped = table_list(question, self.tables) if items else None
        if grouped is not None:  # "What gives rise to Apple's deferred tax assets?": the rows under that heading
            return done(grouped, calls)
        listing = self.lists.listing(question, asked.selection) if items else None
        counted = (counted_sentence(question, evidence, self.summary_of) or enumerated_count(question, evidence)
                   or agents_count(question, evidence) or people_count(question, evidence)) if items else None
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
                return self.pointed(question, listing, position, calls)
            return self._listed(question, listing, calls)
        if counted is not None:  # "We have three businesses: cloud and license; hardware; and services."
            return done(counted, calls)
        told = (in_order(within(asked.sections, DOING_WORDS, body=True), question)
                if items and asked_difference(question) is None else None)
        if told is not None:  # "What should administrators do when formulating policies …?": that sub-section
            return done(told, calls)
        compared = (None if asked.yes_no or asked.rows or asked_difference(question) is not None
                    else compared_sections(question, asked.titled, self.answerer))
        if compared is not None:  # "How does a pure ZTA compare with a hybrid one?": each sub-section's opening
            # ("How does X differ from Y?" asks what sets them apart: `Answerer.compose` puts it first)
            return done(compared, calls)
        return None

    def pointed(self, question: str, listing: Listing, position: int,
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


def _plural(noun: str) -> str:
    return noun if noun.endswith("s") else f"{noun}s"
