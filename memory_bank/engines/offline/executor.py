"""Offline executor: carries out a pending task by reading memory directly (no LLM, no ReAct loop).

A NORMAL task is answered extractively, with citations, from the evidence the memory block for the question is
made of: the typed selection the adapter made for the task (`ExecutionInput.selection`, with each part's own for
a question that asks several things), never re-parsed from the block's text nor selected again here; weak
evidence gives an honest "not found". A
CROSS_VALIDATE task checks both sides of a conflict against the task's documents (`crossval.py`). What the
executor reads is recorded as the tool calls an agent would have made (search, deep_retrieval), with their real
outputs, so the run log shows the same trail as with the LLM engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...memory.insight_doc import TaskType
from ...memory.query_graph import place_label
from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...text.acronyms import shorten
from ...text.asks import item_noun, ordinal_word
from ...text.reader_concepts import in_document_terms
from ...text.tokens import bare_stems
from ...text.trends import names_no_subject
from ..models import Citation, ExecutionInput, ExecutionResult, ToolCallRecord
from ..protocol.figures import TableIndex
from ..protocol.memory_block import Selected, Selection, Sentence
from ..protocol.not_found import NOT_FOUND
from .acronym_answer import AcronymAnswerer
from .answering import Answer, AnswerConfig, Answerer, announces_list
from .constraints import other_forms
from .counted_list import HOW_MANY, counted_sentence, enumerated_count, says_more_of
from .crossval import CrossValidator
from .evidence import Evidence, answerable
from .figure_answer import (
    answering_rows,
    asks_amount,
    asks_choice,
    asks_comparison,
    asks_one_figure,
    compared_rows,
    figure_text,
    one_figure,
    row_evidence,
    rows_answer,
)
from .figure_cause import asks_cause, cause_answer, subject_row
from .front_matter import FrontMatterAnswerer
from .item_details import ItemDetails
from .language import hinted
from .list_answer import ListAnswerer, Listing, followed_item, ordinal, pointed_item, section_evidence
from .signer import signer_first
from .specifics import specific_terms
from .themes import section_themes
from .verdict import is_yes_no, verdict

NAMED_ABSENT = 3  # the answer names this many of the things the documents never mention
NAMED_CHARS = 60  # each at most this long: a question may be anything a user pastes
_EACH = re.compile(r"\b(?:each|both|either)\b", re.IGNORECASE)  # a part asked of every item an earlier part named
PART_WORDS = 35  # words per part of a multi-part answer
LIST_ITEMS = 6  # sentences read after one that announces a list
CLOSEST_SHARE = 0.6  # a "not found" shows the closest sentence when it says this share of the question's words


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
        # each part of a multi-part question gets a shorter answer, so the list stays readable
        self.part_answerer = Answerer(embedder, replace(answer_config or AnswerConfig(), max_words=PART_WORDS),
                                      lambda: self.view.acronyms())
        self.validator = CrossValidator(view, response_chars=self.config.response_chars)
        self.lists = ListAnswerer(view)
        self.details = ItemDetails(view, embedder)
        self.acronyms = AcronymAnswerer(view)
        self.front_matter = FrontMatterAnswerer(view)

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        task = inp.task
        if task.type is TaskType.CROSS_VALIDATE:
            if not task.conflict_id:
                return _failed("a CROSS_VALIDATE task needs the conflict_id of the conflict to validate")
            return self.validator.run(task.conflict_id)
        if task.type is TaskType.IMAGE_RECOGNITION:
            return _failed("image recognition is done by the recognizer, not the executor")
        if inp.selection is None:
            return _failed("a NORMAL task is answered from the evidence selected for it, and none was given")
        # one space between words, as question_parts reads it: the answer's patterns end on optional spaces and
        # marks, and a question with 50,000 spaces in it was tried at every split of them (hours, not seconds)
        question = " ".join(inp.task_goal.split()) or task.description
        result = self._answer(question, inp.selection)
        result.answer = hinted(result.answer, question, self.view.mentions)  # "not found": in another language?
        return result

    def _answer(self, question: str, selection: Selection) -> ExecutionResult:
        calls: list[ToolCallRecord] = []
        question = in_document_terms(question, self.view.long_forms)  # "CEO", "return capital": in the filing's words
        if len(selection.parts) > 1:
            return self._answer_parts(question, selection.parts, calls)
        evidence = self.evidence(selection, calls)
        expanded = self.acronyms.run(question) or self.front_matter.run(question)
        if expanded is not None:  # what an acronym stands for; who wrote the document, or when
            return ExecutionResult(answer=f"{expanded.text} ({_where(expanded.used[0])})", tool_calls=calls,
                                   citations=_citations(expanded), summary=_summary(expanded), success=True)
        if names_no_subject(question):  # "Is it improving, and why?" of nothing named
            said = f"{NOT_FOUND} The question does not say what it asks about: name the figure or the topic."
            return ExecutionResult(answer=said, tool_calls=calls, success=True, summary=said)
        yes_no = is_yes_no(question)
        row = subject_row(question, self.tables, self.view) if asks_cause(question) else None
        if row is not None:  # "What were total revenues in 2023 and what drove the change?": the row, its reason
            caused = cause_answer(question, row, evidence, self.answerer, _where, verdict if yes_no else None,
                                  self.tables, self.view)
            return _done(caused, calls)
        one = not yes_no and asks_one_figure(question)
        figure = one_figure(question, evidence, self.tables, self.view) if one else None
        if figure is not None:  # the row the question names, or "not found" when its tables stop short of the year
            return _done(figure, calls) if figure.found else ExecutionResult(
                answer=figure.text, tool_calls=calls, success=True, summary=figure.text.removeprefix(NOT_FOUND).strip())
        absent = self._absent(question)
        if absent:
            return self._not_mentioned(question, absent, evidence, calls)
        # "Was the 2022 effective tax rate lower than the statutory rate?" is judged, and shown, by its two rows
        rows = compared_rows(question, self.tables) if asks_comparison(question) else []
        items_asked = not (yes_no or rows or asks_choice(question))
        listing = self.lists.listing(question, selection) if items_asked else None
        counted = (counted_sentence(question, evidence, self._summary_of)
                   or enumerated_count(question, evidence)) if items_asked else None
        if listing is not None and counted is not None and says_more_of(question, counted, listing.said()):
            listing = None  # "the PDP is broken down into two logical components: …", not the three core ones
        if listing is not None:
            position = ordinal(question)
            if position is not None and not HOW_MANY.search(question):
                return self._pointed(question, listing, position, calls)
            return self._listed(question, listing, calls)
        if counted is not None:  # "We have three businesses: cloud and license; hardware; and services."
            return _done(counted, calls)
        # "How does Oracle return capital?": prose, not an equity statement's row; a comparison shows its rows
        # apart, so what the text says of it is its prose
        if rows or not asks_amount(question):
            evidence = [ev for ev in evidence if not ev.row] or evidence
        answer = self.answerer.answer(question, evidence)
        if not answer.found:
            answer = self._in_their_words(question, evidence) or answer
        if rows:
            opening = f"{verdict(question, answer.used[0].text)}. " if yes_no and answer.found else None
            return _done(rows_answer(question, answer, rows, self.view, _where, opening), calls)
        if not answer.found:
            return self._closest(question, answer.used[0] if answer.used else None, evidence, calls)
        answer = signer_first(question, answer, evidence, self.view)  # "Who audits …?" of a report that says "we"
        if yes_no:  # "Was the 2022 effective tax rate lower than …?": the verdict, the reason, the row's figure
            named = [r for r in answering_rows(question, self.tables, self.view)[:1] if r.value not in answer.text]
            used = [*answer.used, *(row_evidence(r, self.view.node(r.node_id)) for r in named)]
            answer = Answer(" ".join([f"{verdict(question, answer.used[0].text)}. {answer.text}",
                                      *(f"{r.statement()}." for r in named)]), used, answer.score)
        return _done(answer, calls)

    def _closest(self, question: str, best: Evidence | None, evidence: list[Evidence],
                 calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", and the closest thing the documents say when it is on the question's subject: the
        sentence of the evidence that says most of the question's words (at least `CLOSEST_SHARE`; the first in
        relevance order of those that say as much), a near miss a reader would otherwise take for the answer,
        labelled and cited."""
        why = f" The closest passage (node {best.node_id}) does not match the question." if best else ""
        summary = f"No passage of the documents answers the question.{why}"
        shares = [_said_share(question, ev.text) if not ev.lead_in else 0.0 for ev in evidence]
        top = max(range(len(evidence)), key=lambda i: (shares[i], -i), default=None)
        if top is None or shares[top] < CLOSEST_SHARE:
            return ExecutionResult(answer=NOT_FOUND, tool_calls=calls, success=True, summary=summary)
        near = evidence[top]
        return ExecutionResult(answer=f"{NOT_FOUND}\nThe closest they come ({_where(near)}): {near.text}",
                               tool_calls=calls, citations=_citations(Answer(near.text, [near], 0.0)),
                               success=True, summary=summary)

    def _in_their_words(self, question: str, evidence: list[Evidence]) -> Answer | None:
        """A question in the long form of an acronym the documents define, asked again in the short form their
        sentences use ("Risk Management Framework" -> "RMF"); the answer when that finds one."""
        short = shorten(question, self.view.acronyms())
        if short == question:
            return None
        answer = self.answerer.answer(short, evidence)
        return answer if answer.found else None

    def _absent(self, question: str) -> list[str]:
        """The names, numbers and terms the question asks about that the documents never mention."""
        terms = specific_terms(question)
        if not terms:
            return []
        forms = {t: (t, *other_forms(t)) for t in terms}  # "in Euros" of documents that write "€53,423"
        said = self.view.mentions([f for fs in forms.values() for f in fs])
        return [t for t, fs in forms.items() if not any(said[f] for f in fs)]

    def _not_mentioned(self, question: str, absent: list[str], evidence: list[Evidence],
                       calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", saying what the documents never mention, and the closest thing they do say, labelled."""
        named = ", ".join(f"“{_clip(t, NAMED_CHARS)}”" for t in absent[:NAMED_ABSENT])
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
        return ExecutionResult(answer=f"{text}\nThe closest they come ({_where(closest)}): {closest.text}",
                               tool_calls=calls, citations=_citations(answer), success=True,
                               summary=f"The documents never mention {named}; closest: node {closest.node_id}.")

    def _pointed(self, question: str, listing: Listing, position: int,
                 calls: list[ToolCallRecord]) -> ExecutionResult:
        """"What does the eighth tenet require?": that item of the list, or "not found" when the list is shorter
        (saying how long it is)."""
        text = pointed_item(listing, position)
        answer = self._list_answer(question, listing)
        if text is None and (position < 0 or position <= listing.count):
            text = answer.text  # an item of a list held only in part (it exists, unread): the list, with its count
        elif text is None:
            noun = item_noun(question) or "items"
            which = ordinal_word(position)
            text = (f"{NOT_FOUND} The documents list {listing.count} {_plural(noun)} "
                    f"({_where(answer.used[0])}); there is no {which} one.")
        return ExecutionResult(answer=text, tool_calls=calls, citations=_citations(answer), success=True,
                               summary=f"Item {position} of section node {listing.node.id} ({listing.title}).")

    def _answer_parts(self, question: str, selections: list[Selection],
                      calls: list[ToolCallRecord]) -> ExecutionResult:
        """A question that asks several things: each part answered from its own evidence, as a short list; a
        part the documents do not answer says so."""
        answerer = self.part_answerer
        parts = [s.question for s in selections]
        selected = [(s, self.evidence(s, calls)) for s in selections]
        listings = [None if is_yes_no(part) else self.lists.listing(part, selection)
                    for part, (selection, _) in zip(parts, selected)]
        absent = [self._absent(part) for part in parts]
        ranked = [answerer.rank(part, evidence) for part, (_, evidence) in zip(parts, selected)]
        openings = [answerer.opening(r) for r in ranked]
        answers: list[Answer] = []
        counts: list[Answer] = []  # the parts answered by a sentence that names the asked items
        for k, (part, ranking) in enumerate(zip(parts, ranked)):
            listing = listings[k]
            if absent[k]:  # it asks about something the documents never mention
                answers.append(Answer(text="", found=False))
                continue
            if listing is not None:  # a part that asks for a list is answered by the list
                answers.append(self._list_answer(part, listing))
                continue
            counted = counted_sentence(part, selected[k][1], self._summary_of)
            if counted is not None:  # "What are the two planes …?": the sentence naming both
                answers.append(counted)
                counts.append(counted)
                continue
            expanded = self.acronyms.run(part)
            if expanded is not None:  # "What does 'PA' stand for and what does it do?"
                answers.append(expanded)
                continue
            # "What was the effective tax rate in 2022, and why …?": the row, its year and unit; the sides of a
            # comparison ("Compare iPhone and iPad net sales: which grew, and why?") want what the text says of each
            one = asks_one_figure(part) and not is_yes_no(part) and not asks_choice(question)
            rows = answering_rows(part, self.tables, self.view) if one else []
            if rows:
                answers.append(Answer(figure_text(rows[0]), [row_evidence(rows[0], self.view.node(rows[0].node_id))],
                                      1.0))
                continue
            if self._detailed(part, listings[:k], parts, answers):  # "... and when is each a good fit?"
                answers.append(Answer("", [], 1.0))
                continue
            pointed = followed_item(part, listings[:k])
            if pointed is not None:  # "... and what does the first say?": the item of the list just given
                answers.append(pointed)
                continue
            # a sentence another item opens with, or one an earlier item shows, is not this item's filler
            said = {text for j, text in enumerate(openings) if j != k and text}
            said |= {ev.text for a in answers if a.found for ev in a.used}
            answer = answerer.answer_ranked(part, ranking, frozenset(said))
            if not answer.found and counts and _EACH.search(part):  # "… and what travels on each?": the
                answer = counts[-1]  # sentence naming the items says it of each (shown once)
            if answer.found and is_yes_no(part):
                answer.text = f"{verdict(part, answer.used[0].text)}. {answer.text}"
            answers.append(answer)
        if not any(a.found for a in answers):
            return ExecutionResult(answer=NOT_FOUND, tool_calls=calls, success=True,
                                   summary="No passage of the documents answers any part of the question.")
        lines = [(a.text if listing is not None else f"- {a.text} ({_where(a.used[0])})") if a.found
                 else f"- {part} {NOT_FOUND}" for part, a, listing in zip(parts, answers, listings)
                 if not a.found or a.text]
        lines = list(dict.fromkeys(lines))  # one passage answering two parts is shown once
        found = [a for a in answers if a.found]
        merged = Answer(text="\n".join(lines), used=[ev for a in found for ev in a.used], score=found[0].score)
        return _done(merged, calls)

    def _summary_of(self, node_id: str) -> str:
        """A node's text, which the counted sentence reads for what its passage says before it."""
        return self.view.node(node_id).summary

    def _detailed(self, part: str, earlier: list[Listing | None], parts: list[str], answers: list[Answer]) -> bool:
        """A part that asks something of every item of the list an earlier part gave: that list's answer is
        given again with each item's answer to it (item_details.py). False when no item's sub-section answers."""
        j, listing = next(((i, e) for i, e in reversed(list(enumerate(earlier))) if e is not None), (0, None))
        if listing is None:
            return False
        details = self.details.run(part, listing)
        if not any(details):
            return False
        texts = [d.text if d else None for d in details]
        answers[j] = Answer(self.lists.compose(parts[j], listing, texts),
                            [section_evidence(listing), *(d for d in details if d)], 1.0)
        return True

    def _list_answer(self, question: str, listing: Listing) -> Answer:
        return Answer(self.lists.compose(question, listing), [section_evidence(listing)], 1.0)

    def _listed(self, question: str, listing: Listing, calls: list[ToolCallRecord]) -> ExecutionResult:
        answer = self._list_answer(question, listing)
        return ExecutionResult(answer=answer.text, tool_calls=calls, citations=_citations(answer),
                               summary=f"Listed from section node {listing.node.id} ({listing.title}).", success=True)

    def evidence(self, selection: Selection, calls: list[ToolCallRecord] | None = None) -> list[Evidence]:
        """The sentences the selection's memory block is made of, node by node in relevance order (a node's
        sentences in document order). Recorded in `calls` as the calls an agent would have made: the local
        search the block ran, and a deep retrieval of each node shown. Public for bench/not_found_fit.py, which
        fits the `FoundModel` on exactly the evidence the product answers from."""
        calls = [] if calls is None else calls
        calls.append(ToolCallRecord(name="search", arguments={"query": selection.question, "scope": "local"},
                                    response="\n".join(f"[{p.where()}] {_clip(p.text, 300)}"
                                                       for p in selection.passages) or "no passage found"))
        evidence: list[Evidence] = []
        themes = section_themes(selection.question, (c.node.section()[:1] for c in selection.nodes), self.view)
        for chosen in selection.nodes:
            node = chosen.node
            calls.append(ToolCallRecord(name="deep_retrieval", arguments={"node_id": node.id},
                                        response=_clip(self.view.deep_retrieve(node.id, with_attachments=False)
                                                       .text(), self.config.response_chars)))
            prior = 1.0 / (1.0 + chosen.rank)
            evidence.extend(Evidence(s.text, node.id, s.source, s.pages, prior, node.role, s.printed, s.position,
                                     s.section, s.row is not None, themes.get(s.section[:1], ()))
                            for s in _with_lists(chosen) if answerable(s.text))
        return evidence


def _with_lists(chosen: Selected) -> list[Sentence]:
    """The node's shown sentences in document order; one that announces a list brings the items after it (the
    block shows what covers the question, and list items rarely repeat the question's words)."""
    out: list[Sentence] = []
    for shown in chosen.shown:
        out.append(shown)
        if announces_list(shown.text):
            items = [s for s in chosen.sentences if shown.position < s.position <= shown.position + LIST_ITEMS]
            out.extend(sorted(items, key=lambda s: s.position))
    return out


def _said_share(question: str, sentence: str) -> float:
    """The share of the question's words (stems, stopwords and possessives aside) the sentence says."""
    asked, said = (bare_stems(text) for text in (question, sentence))
    return len(asked & said) / len(asked) if asked else 0.0


def _plural(noun: str) -> str:
    return noun if noun.endswith("s") else f"{noun}s"


def _where(ev: Evidence) -> str:
    """'file, §2.1 Tenets of Zero Trust, p. 6 (PDF p. 15)': an item of a list answer names where its first
    sentence was read."""
    return place_label(ev.source, ev.section, ev.pages, dict(ev.printed)) or f"node {ev.node_id}"


def _citations(answer: Answer) -> list[Citation]:
    out: list[Citation] = []
    for ev in answer.used:
        if not any(c.node_id == ev.node_id for c in out):
            out.append(Citation(node_id=ev.node_id, source=ev.source, pages=list(ev.pages), quote=ev.text,
                                printed_pages=dict(ev.printed), section=list(ev.section)))
    return out


def _summary(answer: Answer) -> str:
    where = ", ".join(f"node {c.node_id}" + (f" ({c.source})" if c.source else "") for c in _citations(answer))
    return f"Answered from {where}: {_clip(answer.text, 200)}"


def _done(answer: Answer, calls: list[ToolCallRecord]) -> ExecutionResult:
    """A found answer as the run's result: its text, the calls that read it, its citations and summary."""
    return ExecutionResult(answer=answer.text, tool_calls=calls, citations=_citations(answer),
                           summary=_summary(answer), success=True)


def _failed(message: str) -> ExecutionResult:
    return ExecutionResult(answer=None, termination="error", success=False, summary=message)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + " … (truncated)"
