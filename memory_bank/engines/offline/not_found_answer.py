"""Honest "not found" answers: what the documents never mention of the question's names, and the closest thing
they do say on its subject, labelled and cited, a near miss a reader would otherwise take for the answer."""

from __future__ import annotations

import re

from ...retrieval.view import MemoryView
from ...text.self_statements import asked_of_documents
from ...text.tokens import STOPWORDS, bare_stems
from ..models import ExecutionResult, ToolCallRecord
from ..protocol.not_found import NOT_FOUND
from .answering import Answer, Answerer, announces_list
from .constraints import other_forms
from .evidence import Evidence
from .later_period import at_year, later_years, reported_year
from .results import citations, clip, where
from .specifics import specific_terms

NAMED_ABSENT = 3  # the answer names this many of the things the documents never mention
NAMED_CHARS = 60  # each at most this long: a question may be anything a user pastes
CLOSEST_SHARE = 0.6  # a "not found" shows the closest sentence when it says this share of the question's words
SUBJECT_SHARE = 0.2  # a name said in more of the documents' passages than this is their subject


class NotFoundAnswers:
    def __init__(self, view: MemoryView, answerer: Answerer) -> None:
        self.view = view
        self.answerer = answerer

    def absent(self, question: str) -> list[str]:
        """The names, numbers and terms the question asks about that the documents never mention (not those of
        the case the user tells of themselves first: `asked_of_documents`)."""
        terms = specific_terms(asked_of_documents(question))
        if not terms:
            return []
        forms = {t: (t, *other_forms(t)) for t in terms}  # "in Euros" of documents that write "€53,423"
        said = self.view.mentions([f for fs in forms.values() for f in fs])
        return [t for t, fs in forms.items() if not any(said[f] for f in fs)]

    def not_mentioned(self, question: str, absent: list[str], evidence: list[Evidence],
                      calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", saying what the documents never mention, and the closest thing they do say, labelled: for
        a year after their period, and nothing else unmentioned, the same fact for the last year they report."""
        named = _named(absent)
        if all(term.isdigit() for term in absent):
            earlier = self._reported_instead(question, evidence, calls, f"The documents never mention {named}.")
            if earlier is not None:
                return earlier
        return self._with_closest(f"{NOT_FOUND} They never mention {named}.", f"The documents never mention {named}",
                                  question, evidence, calls)

    def never_together(self, question: str, sources: set[str]) -> list[str]:
        """The question's names that the documents each say but never in one passage ("R&D" and "India" of a
        filing that gives R&D only in total): the relation asked about is what they do not hold. The documents'
        subject is left out of the reading: a name in a source's file name ("Apple" of APPLE_2022_10K.pdf) or
        said in more than `SUBJECT_SHARE` of the passages."""
        named = {w for source in sources for w in re.split(r"[\W_]+", source.lower()) if w}
        terms = [t for t in _names(question) if t.lower() not in named]
        if not 2 <= len(terms) <= NAMED_ABSENT:  # many names are rarely all in one passage: that says little
            return []
        mentions = self.view.passages_saying([(t, *other_forms(t)) for t in terms])
        counts = [mentions.each(i) for i in range(len(terms))]
        if not all(counts):  # a name the documents never say is `absent`'s to report, or read as a typo
            return []
        kept = [i for i, n in enumerate(counts) if n <= max(1.0, SUBJECT_SHARE * mentions.passages)]
        if len(kept) < 2 or mentions.together(kept):
            return []
        return [terms[i] for i in kept]

    def _with_closest(self, text: str, summary: str, question: str, evidence: list[Evidence],
                      calls: list[ToolCallRecord]) -> ExecutionResult:
        """The "not found" text and, labelled and cited, the evidence's best sentence: what the documents do say
        of the question's subject (the reader was told why it is not the answer). Only a sentence that says some
        word of the question: "What is 2022 revenue?" of a security standard has no closest thing, and a bullet
        of its survey shown as one told the reader nothing."""
        ranked = self.answerer.rank(question, evidence)
        order = (ranked.body() or ranked.order) if ranked is not None else []
        closest = next((ranked.pool[i] for i in order if not _says_nothing_alone(ranked.pool[i])
                        and _said_share(question, ranked.pool[i].text) > 0), None) if ranked is not None else None
        if closest is None:
            return ExecutionResult(answer=text, tool_calls=calls, success=True, summary=f"{summary}.")
        answer = Answer(closest.text, [closest], 0.0)
        return ExecutionResult(answer=f"{text}\nThe closest they come ({where(closest)}): {closest.text}",
                               tool_calls=calls, citations=citations(answer), success=True,
                               summary=f"{summary}; closest: node {closest.node_id}.")

    def closest(self, question: str, best: Evidence | None, evidence: list[Evidence],
                calls: list[ToolCallRecord]) -> ExecutionResult:
        """"Not found", and the closest thing the documents say when it is on the question's subject: the
        sentence of the evidence that says most of the question's words (at least `CLOSEST_SHARE`; the first in
        relevance order of those that say as much)."""
        why = f" The closest passage (node {best.node_id}) does not match the question." if best else ""
        summary = f"No passage of the documents answers the question.{why}"
        earlier = self._reported_instead(question, evidence, calls, summary)
        if earlier is not None:
            return earlier
        apart = self.never_together(question, {ev.source for ev in evidence})
        text = f"{NOT_FOUND} They mention {_named(apart, ' and ')}, but never in one passage." if apart else NOT_FOUND
        shares = [_said_share(question, ev.text) if not _says_nothing_alone(ev) else 0.0 for ev in evidence]
        top = max(range(len(evidence)), key=lambda i: (shares[i], -i), default=None)
        if top is None or shares[top] < CLOSEST_SHARE:
            return ExecutionResult(answer=text, tool_calls=calls, success=True, summary=summary)
        near = evidence[top]
        return ExecutionResult(answer=f"{text}\nThe closest they come ({where(near)}): {near.text}",
                               tool_calls=calls, citations=citations(Answer(near.text, [near], 0.0)),
                               success=True, summary=summary)


    def _reported_instead(self, question: str, evidence: list[Evidence], calls: list[ToolCallRecord],
                          summary: str) -> ExecutionResult | None:
        """For a question about a year after the documents' period, the same fact for the last year they report,
        said as that year's (later_period.py); None for any other question, or when that year's is not found
        either."""
        reported = reported_year(self.view)
        later = later_years(question, reported)
        if reported is None or not later:
            return None
        answer = self.answerer.answer(at_year(question, later, reported), evidence)
        if not answer.found:
            return None
        asked = " and ".join(later)
        return ExecutionResult(
            answer=f"{NOT_FOUND} The documents report on the years up to {reported}, not {asked}.\n"
                   f"The closest they come, for {reported} ({where(answer.used[0])}): {answer.text}",
            tool_calls=calls, citations=citations(answer), success=True,
            summary=f"{summary} The documents' period ends in {reported}; that year's answer is shown.")


def _says_nothing_alone(ev: Evidence) -> bool:
    """A lead-in ("… with adherence to the following zero trust basic tenets:") says nothing without its items: it
    is not the closest thing the documents say, and shown alone it would end the answer on a colon. Nor is a
    question the documents ask ("How will business processes change in the face of ZTA?", one of a survey's open
    questions): shown as the closest thing they say about revenue, it told the reader nothing."""
    return ev.lead_in or announces_list(ev.text) or ev.text.rstrip(" )”’\"'").endswith("?")


def _names(question: str) -> list[str]:
    """The question's specific terms, a name of several words kept whole ("Corruption Perception Index",
    "Doctor of Law", "R&D"): each is looked for as written. A lone common word capitalised in a quoted title
    ("Start Here"), or a letter left of a name the question writes with a symbol ("V&A"), is no name."""
    names: list[str] = []
    for term in specific_terms(question):
        joined = next((f"{names[-1]}{glue}{term}" for glue in (" ", " of ", "&") if names
                       and f"{names[-1]}{glue}{term}" in question), None)
        names[-1:] = [joined] if joined else [*names[-1:], term]
    return [name for name in names if name.lower() not in STOPWORDS and len(name) > 1]


def _named(terms: list[str], last: str = ", ") -> str:
    """The first `NAMED_ABSENT` terms quoted and clipped (a question may be anything a user pastes), the last
    joined by `last` ("“R&D” and “India”")."""
    quoted = [f"“{clip(t, NAMED_CHARS)}”" for t in terms[:NAMED_ABSENT]]
    if len(terms) > NAMED_ABSENT:
        return ", ".join(quoted) + f" and {len(terms) - NAMED_ABSENT} more names"
    return last.join([", ".join(quoted[:-1]), quoted[-1]]) if len(quoted) > 1 else quoted[0]


def _said_share(question: str, sentence: str) -> float:
    """The share of the question's words (stems, stopwords and possessives aside) the sentence says."""
    asked, said = (bare_stems(text) for text in (question, sentence))
    return len(asked & said) / len(asked) if asked else 0.0
