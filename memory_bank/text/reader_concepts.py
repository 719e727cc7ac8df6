"""A question asked in a reader's terms, searched and answered in the words the documents use for the same thing.

A reader asks "How does Apple return capital to its shareholders?"; a filing says what it returned as dividends
and share repurchases ("During 2022, the Company repurchased $90.2 billion of its common stock and paid dividends
and dividend equivalents of $14.8 billion") and never "return capital" in that sense: the nearest words it has
are "return on invested capital" and "Human Capital", which the search then finds first. Like the table labels of
`statement_terms.py`, a reader's concept is widened by the words statements use for it; the question keeps its own
words, and one that says no such concept is unchanged. Only concepts whose meaning is fixed by accounting usage are
listed (returning capital to shareholders is paying dividends and repurchasing shares), and the words a document
may pick for what is for or against a thing ("drawback", "disadvantage", "downside"), never a document's phrase.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .acronyms import in_document_words, with_acronyms

_HOLDERS = r"(?:share|stock)holders|investors|owners"
# (what a reader writes, the words the documents use for it, whether only when they never say the reader's word)
_CONCEPTS: tuple[tuple[re.Pattern[str], str, bool], ...] = tuple(
    (re.compile(p, re.IGNORECASE), words, unsaid) for p, words, unsaid in (
        (rf"\b(?:return(?:s|ed|ing)?|give[sn]?|gave|distribut(?:e[sd]?|ing))\s+(?:\w+\s+){{0,2}}?(?:capital|cash|"
         rf"money)\s+(?:back\s+)?to\s+(?:\w+\s+){{0,2}}?(?:{_HOLDERS})\b|\bcapital returns?\b(?!\s+on\b)",
         "paid dividends and repurchased stock", False),
        # what is against a thing, and what is for it, go by several names a document picks one of ("What is
        # device application sandboxing's drawback?" of "One of the disadvantages of this model is …"); a word the
        # documents say themselves is left alone (adding its synonyms outweighed what the question asks it of)
        (r"\b(?:drawbacks?|downsides?|disadvantages?|shortcomings?|weakness(?:es)?)\b", "disadvantages; downside",
         True),
        (r"\b(?:benefits?|advantages?|upsides?)\b", "advantages; benefit", True),
        (r"\b(?:dangers?|hazards?|perils?|pitfalls?)\b", "risks; threats", True),
    ))


def kind_synonyms(noun: str) -> str:
    """The documents' words for a reader's kind of item ("dangers" -> "risks; threats"), "" for any other noun:
    "What dangers …?" is answered by the sentences naming a risk."""
    return next((words for pattern, words, unsaid in _CONCEPTS if unsaid and pattern.fullmatch(noun)), "")


def in_filing_terms(question: str, mentions: Callable[[list[str]], dict[str, bool]] | None = None) -> str:
    """The question with the documents' words for each reader's concept it uses added before its end: "How does
    Apple return capital to its shareholders (paid dividends and repurchased stock)?". `mentions` (the view's)
    says which words the documents say; without it, a concept added only for a word they never say is not."""
    added = []
    for pattern, words, unsaid in _CONCEPTS:
        match = pattern.search(question)
        if match is None:
            continue
        if unsaid and (mentions is None or mentions([match.group(0)]).get(match.group(0), True)):
            continue
        added.append(words)
    if not added:
        return question
    body = question.rstrip()
    end = body[-1] if body and body[-1] in "?.!" else ""
    return f"{body[:len(body) - len(end)]} ({'; '.join(added)}){end}"


def in_document_terms(question: str, long_forms: Callable[[list[str]], dict[str, str]],
                      mentions: Callable[[list[str]], dict[str, bool]] | None = None,
                      acronyms: dict[str, str] | None = None,
                      said: Callable[[list[tuple[str, str]]], set[str]] | None = None) -> str:
    """The question as it is searched and answered: acronyms written as the documents write them
    (`acronyms.in_document_words`), a long form followed by the acronym they define for it
    (`acronyms.with_acronyms`), reader's concepts widened by the documents' words (`in_filing_terms`)."""
    question = in_document_words(question, long_forms)
    return in_filing_terms(with_acronyms(question, acronyms, said) if acronyms else question, mentions)
