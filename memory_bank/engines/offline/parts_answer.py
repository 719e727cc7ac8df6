"""A question that asks several things ("What are the tenets, and what does the first require?"): each part
answered from its own evidence, as a short list; a part the documents do not answer says so. A later part may
lean on an earlier one: asked of each item of the list it gave, of one item of it, or of the items a sentence
named."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...retrieval.view import MemoryView
from ...text.question_parts import asked_parts
from ...text.self_statements import asked_of_documents
from ...text.tokens import bare_stems
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.figures import NamedRow, TableIndex
from ..protocol.memory_block import Selection
from ..protocol.not_found import NOT_FOUND
from .acronym_answer import AcronymAnswerer
from .alignment import spelled_by, spelled_forms
from .answering import SEQUENCE_SHARE, Answer, Answerer
from .cited_work import with_cited_work
from .counted_list import counted_sentence
from .evidence import Evidence, distinct, words_in
from .figure_answer import (
    asks_choice,
    asks_comparison,
    asks_one_figure,
    compared_rows,
    one_figure,
    row_evidence,
)
from .follow_on import followed_on
from .inline_count import inline_count
from .item_details import ItemDetails
from .kind_named import asked_kind
from .kind_sentences import kind_sentences
from .list_answer import ListAnswerer, Listing, section_evidence
from .list_pointers import followed_item
from .passage import around
from .ranking import Ranked
from .results import done, where
from .signed_roles import SignedRoles
from .table_list import asks_extreme, table_list
from .titled_section import own_sentences
from .verdict import is_yes_no
from .verdict_passage import with_verdict

PASSAGE_WORDS = 220  # a sub-section answering every part is read whole up to this long (a list answer's budget)
_PROSE_END = (".", "!", "?", ".)", ".”", '."')  # a passage's sentences end so; a table's lines do not
MERGE_POOL = 3  # the best sentences of a later part's ranking an earlier part's answer may answer it by
_ACRONYM = re.compile(r"\b[A-Z][A-Za-z0-9&]{1,9}\b")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_RELATIVE_TIME = bare_stems("year years before earlier prior previous ago later after")  # "since" asks when it began
_EACH = re.compile(r"\b(?:each|both|either)\b", re.IGNORECASE)  # a part asked of every item an earlier part named


@dataclass(frozen=True)
class PartReaders:
    """What a part is read with: `answerer` gives each part a shorter answer, so the list stays readable;
    `evidence` reads a part's selection (recording its calls); `absent` names what the documents never mention;
    `summary_of` gives a node's text, which a counted sentence reads for what its passage says before it."""

    answerer: Answerer
    lists: ListAnswerer
    details: ItemDetails
    acronyms: AcronymAnswerer
    roles: SignedRoles
    tables: TableIndex
    view: MemoryView
    evidence: Callable[[Selection, list[ToolCallRecord]], list[Evidence]]
    absent: Callable[[str], list[str]]
    summary_of: Callable[[str], str]


class PartsAnswerer:
    def __init__(self, readers: PartReaders) -> None:
        self.r = readers

    def run(self, question: str, selections: list[Selection], calls: list[ToolCallRecord]) -> ExecutionResult:
        r = self.r
        answerer = r.answerer
        parts = [asked_of_documents(s.question) for s in selections]  # a part without the user's own case
        leans = _pointed(question, parts)
        selected = [(s, r.evidence(s, calls)) for s in selections]
        listings = [None if is_yes_no(part) else r.lists.listing(part, selection)
                    for part, (selection, _) in zip(parts, selected)]
        absent = [r.absent(part) for part in parts]
        ranked = [answerer.rank(part, evidence) for part, (_, evidence) in zip(parts, selected)]
        openings = [answerer.opening(rk) for rk in ranked]
        answers: list[Answer] = []
        counts: list[Answer] = []  # the parts answered by a sentence that names the asked items
        prose = 0  # the parts answered by their ranked sentences (no list, row, acronym …)
        whole = [listing is not None for listing in listings]  # answers shown as they are: a list, a table's rows
        rows_listed = False  # a part answered by a table's rows, which name the largest and smallest
        for k, (part, ranking) in enumerate(zip(parts, ranked)):
            listing = listings[k]
            if absent[k]:  # it asks about something the documents never mention
                answers.append(Answer(text="", found=False))
                continue
            if listing is not None:  # a part that asks for a list is answered by the list
                answers.append(r.lists.answer(part, listing))
                continue
            grouped = table_list(part, r.tables, question) if not is_yes_no(part) else None
            if grouped is not None:  # "What gives rise to its deferred tax assets, …?": the rows under that heading
                answers.append(grouped)
                whole[k] = rows_listed = True
                continue
            if rows_listed and asks_extreme(part):
                answers.append(Answer("", [], 1.0))  # "…, and which item was the biggest?": the rows' answer says
                continue
            counted = counted_sentence(part, selected[k][1], r.summary_of)
            if counted is not None:  # "What are the two planes …?": the sentence naming both
                answers.append(counted)
                counts.append(counted)
                continue
            expanded = r.acronyms.run(part) or r.roles.run(part)
            if expanded is not None:  # "What does 'PA' stand for and what does it do?"; "Who chairs the board?"
                answers.append(expanded)
                continue
            # "What was the effective tax rate in 2022, and why …?": the row, its year and unit; the sides of a
            # comparison ("Compare iPhone and iPad net sales: which grew, and why?") want what the text says of each
            one = asks_one_figure(part) and not is_yes_no(part) and not asks_choice(question)
            figure = one_figure(part, selected[k][1], r.tables, r.view) if one else None
            if figure is not None:  # as asked alone: the row, or the sentence giving it in the part's terms
                answers.append(figure)
                continue
            moved = _moved_row(part, question, r.tables)
            if moved is not None:  # "… and how much did they grow?": the row with its years, as asked alone
                answers.append(Answer(moved.shown(), [row_evidence(moved, r.view.node(moved.node_id))], 1.0))
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
            if answer.found and k and not self._says_own(part, parts[0], answer.used[0], ranking):
                answer = Answer(text="", used=answer.used, score=answer.score, found=False)
            if not answer.found and counts and _EACH.search(part):  # "… and what travels on each?": the
                answer = counts[-1]  # sentence naming the items says it of each (shown once)
            if not answer.found and ranking is not None:  # "How many examples …, and …?" of "(e.g., A, B, C)"
                answer = inline_count(part, ranking, answerer.config.found) or answer
            if not answer.found:  # "Who runs TIC, and what is it meant to establish?": one sentence says both
                answer = self._answered_before(part, parts[0], ranking, answers) or answer
            if leans[k] and not (answer.found and answer.used[0].section in _sections(answers)):
                # "Has X been changing, and what made that possible?", "What does SDP stand for, and what does the
                # PA do when a ZTA is built that way?": said beside the earlier answer, not elsewhere
                answer = self._beside(part, parts[0], ranking, answers, frozenset(said)) or answer
            # "… and what risks come from …?": each sentence of the lead's sub-section naming one
            if answer.found and all(answer is not a for a in answers) and (kind := asked_kind(part)):
                answer = kind_sentences(answer, r.view, kind, int(SEQUENCE_SHARE * r.answerer.config.max_words))
            if answer.found and answer.text and all(answer is not a for a in answers):  # "What is an NPE, …?":
                answer.text = r.acronyms.named(part, answer.text)  # its long form first, as asked alone
                answer = with_cited_work(part, answer, r.view)  # "Who issued the memo …?": the cited entry too
            on = followed_on(part, parts[0], answers[0], self._following) if k and is_yes_no(parts[0]) else None
            if on is not None:  # "Does Oracle own …, and where is it?": said with the verdict, or right after it
                answer = on
            if answer.found and is_yes_no(part) and all(answer is not a for a in answers):  # an earlier part's
                answer = with_verdict(part, answer, r.view)
            answers.append(answer)
            prose += 1
        passage = self._one_passage(parts, answers, prose)
        if passage is not None:  # every part answered from one short sub-section: that sub-section, whole
            return done(passage, calls)
        return _merged(parts, answers, whole, calls)

    def _one_passage(self, parts: list[str], answers: list[Answer], prose: int) -> Answer | None:
        """The sub-section every part's answer opens in, read whole in its order, when it is short prose
        (`PASSAGE_WORDS`): "Which information kept for monitoring … becomes a target for attackers, and how should
        it be protected?" is all of "5.5 Storage of System and Network Information", whose last sentence (the
        protection: "the most restrictive access policies …") no part's best sentences reached. Only when every
        part was answered by its ranked sentences, each by another sentence (one sentence answering two parts
        answers them already), none a verdict; not a passage holding a table or a list's lines."""
        if prose != len(parts) or any(is_yes_no(p) for p in parts) or not all(a.found and a.used
                                                                                  for a in answers):
            return None
        leads = [a.used[0] for a in answers]
        section = leads[0].section
        if (not section or len({ev.text for ev in leads}) < len(leads)
                or any(ev.section != section or ev.row for ev in leads)):
            return None
        read = distinct(own_sentences(section, self.r.view))
        if (not read or words_in(read) > PASSAGE_WORDS
                or not all(ev.text.rstrip().endswith(_PROSE_END) and not ev.row for ev in read)):
            return None
        return Answer(" ".join(ev.text for ev in read), read, max(a.score for a in answers))

    def _following(self, ev: Evidence, count: int) -> list[Evidence]:
        return around(self.r.view, ev, count)[1]

    def _answered_before(self, part: str, first: str, ranked: Ranked | None, answers: list[Answer]) -> Answer | None:
        """The answer of an earlier part that shows a sentence this part's ranking puts first, or among its best
        few meeting its constraints and judged to answer it: that sentence answers both (shown once), which the
        part alone, its subject said in the earlier part, was not judged to ("… and what is it meant to establish?",
        "… and what other position does he hold?"). None when no earlier part shows one."""
        if ranked is None:
            return None
        found = self.r.answerer.config.found.found
        best = ranked.body()[:MERGE_POOL]
        for i in best:
            if not self._says_own(part, first, ranked.pool[i], ranked):
                continue
            if i == best[0] or (not ranked.near_miss(i) and found(ranked.signals(i))):
                shown = next((a for a in answers if a.found and ranked.pool[i].text in {ev.text for ev in a.used}),
                             None)
                if shown is not None:
                    return shown
        return None

    def _beside(self, part: str, first: str, ranked: Ranked | None, answers: list[Answer],
                said: frozenset[str]) -> Answer | None:
        """A later part that asks more of the earlier part's subject ("… and what made that possible?") is
        answered where the earlier part's answer was read: the best sentence of its ranking in that answer's
        section, not shown yet, that says a word of the part's own and meets its constraints; None when there is
        none, or the part asks nothing of that subject."""
        if ranked is None or not bare_stems(part) & bare_stems(first):
            return None
        sections = _sections(answers)
        pool = ranked.pool
        beside = [i for i in ranked.body() if pool[i].section in sections and pool[i].text not in said
                  and not ranked.near_miss(i) and self._says_own(part, first, pool[i], None)]
        if not beside:
            return None
        return self.r.answerer.compose(part, pool, beside, ranked.scores[beside[0]], said)

    def _says_own(self, part: str, first: str, ev: Evidence, ranked: Ranked | None) -> bool:
        """Does the sentence (with its neighbours in its passage and its section's titles) say a word of the later
        part's own, one the first part does not say (or its acronym)? A part that names the first part's subject
        ("what is Oracle's CTO's salary?", its "his" read as the subject) meets that part's sentences by the
        subject's words alone: they answer it only when they say what it asks of the subject ("establish" of "what
        is TIC meant to establish?"). True when the part says nothing the first one does not."""
        acronyms = self.r.view.acronyms()
        # "What does SDP stand for?": its subject said again in a later part may be the long form
        before = bare_stems(" ".join([first, *(acronyms[w] for w in _ACRONYM.findall(first) if w in acronyms)]))
        own = bare_stems(part) - before
        if not own or not bare_stems(part) & before:
            return True
        if ranked is None:  # the sentence alone
            near = ev.text
        else:  # with its neighbours; a word its section is titled by is its topic
            near = " ".join(e.text for e in ranked.pool if e.node_id == ev.node_id
                            and abs(e.position - ev.position) <= 1)
            near = " ".join([near or ev.text, *ev.section])
        if len(set(_YEAR.findall(near))) >= 2:  # "… and what was it a year before?" of "2.31% and 0.06% as of
            own -= _RELATIVE_TIME  # September 24, 2022 and September 25, 2021": its dates say the year before
        return not own or bool(own & (bare_stems(near) | spelled_by(spelled_forms(part, acronyms), near)))

    def _detailed(self, part: str, earlier: list[Listing | None], parts: list[str], answers: list[Answer]) -> bool:
        """A part that asks something of every item of the list an earlier part gave: that list's answer is
        given again with each item's answer to it (item_details.py). False when no item's sub-section answers."""
        j, listing = next(((i, e) for i, e in reversed(list(enumerate(earlier))) if e is not None), (0, None))
        if listing is None:
            return False
        details = self.r.details.run(part, listing)
        if not any(details):
            return False
        texts = [d.text if d else None for d in details]
        answers[j] = Answer(self.r.lists.compose(parts[j], listing, texts),
                            [section_evidence(listing), *(d for d in details if d)], 1.0)
        return True


def _pointed(question: str, parts: list[str]) -> list[bool]:
    """Which parts point back at the first part's subject, read as it (`question_parts`): those whose words are not
    the question's own ("what made that possible?" asked as "what made the way … possible?")."""
    asked = asked_parts(question)
    if len(asked) != len(parts):
        return [False] * len(parts)
    return [" ".join(a.lower().split()) != " ".join(p.lower().split()) for a, p in zip(asked, parts)]


def _moved_row(part: str, question: str, tables: TableIndex) -> NamedRow | None:
    """The one row a part asks how it moved ("how much did Oracle's total revenues grow?"), when it shows that
    (`compared_rows`); None for a part comparing several things, whose sides the text says, or a yes/no part."""
    if is_yes_no(part) or asks_choice(question) or not asks_comparison(part):
        return None
    rows = compared_rows(part, tables, moved=True)
    return rows[0] if len(rows) == 1 else None


def _sections(answers: list[Answer]) -> set[tuple[str, ...]]:
    """The sections the found answers' sentences were read in."""
    return {ev.section for a in answers if a.found for ev in a.used if ev.section}


def _merged(parts: list[str], answers: list[Answer], whole: list[bool],
            calls: list[ToolCallRecord]) -> ExecutionResult:
    """The parts' answers as one: a list answer (`whole`: a list, a table's rows) as it is, another part as a cited
    line, an unanswered part saying so; "not found" when no part is answered."""
    if not any(a.found for a in answers):
        return ExecutionResult(answer=NOT_FOUND, tool_calls=calls, success=True,
                               summary="No passage of the documents answers any part of the question.")
    lines: list[str] = []
    for part, a, shown in zip(parts, answers, whole):
        if a.found and not shown and a.text in "\n".join(lines):
            continue  # one passage answering two parts is shown once (a verdict said before it or not)
        if a.found and a.text:
            lines.append(a.text if shown else f"- {a.text} ({where(a.used[0])})")
        elif not a.found:
            lines.append(f"- {part[:1].upper()}{part[1:]} {NOT_FOUND}")
    lines = list(dict.fromkeys(lines))
    found = [a for a in answers if a.found]
    merged = Answer(text="\n".join(lines), used=[ev for a in found for ev in a.used], score=found[0].score)
    return done(merged, calls)
