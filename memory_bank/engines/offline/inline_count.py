"""A count read from a sentence's own enumeration: "How many examples of such micro-services does the publication
give?" of "… for a single business process (e.g., user notification, database lookup, salary disbursement).".

Documents often name a few items inside one sentence, in parentheses after "e.g.", after a colon ("depends on
several factors: …"), as a series parted by semicolons ("to maintain and configure assets; judge, grant, or deny
access to resources; and perform …") or as "both A and B", and state no number. The ranker finds that sentence,
but the near-miss check rightly sees no count in it and the answer was "not found". When the best sentences
include one whose enumeration is the only thing missing (what it lacks is the count and the counted noun's words),
the answer is that many items, then the sentence. A sentence rated below the found threshold counts only when
the words before its enumeration name the counted kind ("several factors:" for "how many considerations").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text.kinds import kind_forms
from ...text.tokens import stems
from .answering import Answer
from .found import FoundModel
from .ranking import Ranked

TOP = 2  # the best body sentences the enumeration may be read from
MAX_ITEMS = 12  # a longer run is a list to show, not a few items named in passing
MAX_ITEM_WORDS = 16
MAX_CLAUSE_WORDS = 40  # an item parted from the next by a semicolon: a clause of its own
LEAD_WORDS = 6  # the words before an enumeration that may name its kind ("depends on several factors:")
_VERB = r"(?:do|does|did|are|is|was|were|have|has|had|can|could|would|should|might|may|will|must)"
# "how many kinds of cloud service does …": what is counted, up to the verb the question goes on with
_COUNTED = re.compile(rf"\bhow\s+many\s+(?P<phrase>(?:[\w'’-]+\s+){{1,5}}?){_VERB}\b", re.IGNORECASE)
# "how many kinds of people make up …": with no auxiliary after it, up to its plural and what that is of
_COUNTED_PLURAL = re.compile(r"\bhow\s+many\s+(?P<phrase>(?:[\w'’-]+\s+){0,2}?[\w'’-]*[a-rt-z]s"
                             r"(?:\s+of\s+[\w'’-]+)?)\b", re.IGNORECASE)
_EXAMPLES = re.compile(r"\((?:e\.g\.|i\.e\.|for example|such as|including),?\s+(?P<items>[^()]{3,300})\)",
                       re.IGNORECASE)
_COLON = re.compile(r"(?P<lead>[^:]{3,300}):\s+(?P<items>[^:]{3,400}?)\.?$")
# "several factors such as username/password, certificates, and so on", "consisting of consultants, …"
_INTRODUCED = re.compile(r"\b(?:(?P<examples>such\s+as|including)|consist(?:s|ing)?\s+of|compris(?:es|ing)|namely)\s+"
                         r"(?P<items>[^;:()]{3,300}?)(?=[;)]|\.?$)", re.IGNORECASE)
# a question counting what the document gives ("How many examples … does it give?", "… does it cite?"), which
# examples answer; "How many companies belong to the Oracle Partner Network?" asks for all of them, which examples
# ("a network of companies, including …") do not give
# (the question's own verb, after its auxiliary: "… made up the Mirai botnet that the publication cites?" asks how
# many devices there were, not how many it cites)
_ASKS_GIVEN = re.compile(r"\bhow\s+many\b[^?]{0,80}?\b(?:do|does|did|is|are|was|were)\b[^?]{0,60}?\b(?:give|gives|"
                         r"name|list|cite|mention|identify|offer|provide|show)\b|\bexamples?\b|\binstances\b",
                         re.IGNORECASE)
_BRACKETED = re.compile(r"\((?P<items>[^()]{3,200})\)")  # "transports (IPv4 and IPv6)"
_JOINED = re.compile(r",|\s(?:and|or)\s")
_BOTH = re.compile(r"\bboth\s+(?P<a>[^,.;]{1,80}?)\s+and\s+(?P<b>[^,.;]{1,80}?)(?=[.;,]|$)", re.IGNORECASE)
_OPEN_END = re.compile(r"^(?:and\s+|or\s+)?(?:others?|etc\.?|more|so on|the like)$", re.IGNORECASE)
_DANGLING = re.compile(r"\s*[;,]\s*(?:and|or)?\s*$", re.IGNORECASE)
# "approximately 0.9 million square feet in Austin, Texas": a measure read in pieces, no items
_QUANTITY = re.compile(r"[$€£]\s?\d|\d[\d,.]*\s*(?:%|percent\b|(?:million|billion|thousand|square|sq\.|feet|acres|"
                       r"hours|days|months|years)\b)", re.IGNORECASE)
_LETTER = re.compile(r"[A-Za-z]{2}")  # an item is named in words, not a figure
_JOIN = re.compile(r"^(?:and|or)\s+", re.IGNORECASE)
_FIRST_JOIN = re.compile(r"\s+(?:and|or|and/or)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Enumeration:
    lead: str  # what the sentence says before its items
    items: list[str]
    item_words: int = MAX_ITEM_WORDS  # an item's words at most: a clause between semicolons may run longer
    examples: bool = False  # given as examples ("e.g.", "such as", "including"): some of them, not all


def counted_phrase(question: str) -> str | None:
    """The words of what a "how many" question counts ("kinds of cloud service"), up to the verb it goes on
    with, or to its plural and what that is of ("How many kinds of people make up …?"), or None."""
    match = _COUNTED.search(question) or _COUNTED_PLURAL.search(question)
    return match.group("phrase").strip() if match else None


def _pieces(run: str) -> list[str]:
    """A run's items: parted by semicolons when it has them, else by commas, the last of "A, B and C" at its
    "and"; an open end ("and others", "etc.") is no item."""
    parts = [p.strip() for p in (run.split(";") if ";" in run else run.split(","))]
    parts = [p for p in parts if p]
    if parts and not _JOIN.match(parts[-1]) and ";" not in run:
        last = _FIRST_JOIN.split(parts[-1], maxsplit=1)  # "B and C" of "A, B and C" (C may say "and" itself)
        parts[-1:] = [p.strip() for p in last if p.strip()]
    parts = [_JOIN.sub("", p) for p in parts]
    return [p for p in parts if not _OPEN_END.match(p)]


def enumerations(sentence: str) -> list[Enumeration]:
    """The runs of a few items the sentence names one after the other, those marked most plainly first: examples
    in parentheses, a colon's list, a series parted by semicolons, a run after "such as" or "consisting of", a pair
    or series in parentheses, then "both A and B". A bare series in running text is not read ("… intersect with the
    planning, deployment, and operation of a ZTA" names no federal policies)."""
    text = " ".join(sentence.split())
    found = [Enumeration(text[: m.start()], _pieces(m.group("items")), examples=True)
             for m in _EXAMPLES.finditer(text)]
    colon = _COLON.search(text)
    if colon is not None:
        found.append(Enumeration(colon.group("lead"), _pieces(colon.group("items"))))
    if text.count(";") >= 1 and not colon:
        parts = [p.strip() for p in text.rstrip(".").split(";")]
        if len(parts) >= 2 and _JOIN.match(parts[-1]):  # "…; judge, grant, or deny access …; and perform …"
            # the first part is the sentence up to its first item: its last words stand for that item
            found.append(Enumeration(parts[0], [" ".join(parts[0].split()[-MAX_ITEM_WORDS:]), *parts[1:]],
                                     MAX_CLAUSE_WORDS))
    found += [Enumeration(text[: m.start()], _pieces(m.group("items")), examples=bool(m.group("examples")))
              for m in _INTRODUCED.finditer(text)]
    found += [Enumeration(text[: m.start()], _pieces(m.group("items"))) for m in _BRACKETED.finditer(text)
              if _JOINED.search(m.group("items"))]
    found += [Enumeration(text[: m.start()], [m.group("a"), m.group("b")]) for m in _BOTH.finditer(text)]
    return [e for e in found if 2 <= len(e.items) <= MAX_ITEMS
            and all(len(i.split()) <= e.item_words and _LETTER.search(i) and not _QUANTITY.search(i)
                    for i in e.items)]


def enumeration(sentence: str) -> Enumeration | None:
    """The most plainly marked run of a few items the sentence names, or None."""
    found = enumerations(sentence)
    return found[0] if found else None


def inline_count(question: str, ranked: Ranked, found: FoundModel) -> Answer | None:
    """For a "how many" question no sentence answers with a number: the count of the enumeration in one of the
    best sentences, when the count and the counted words are all it misses, as "There are N <kind>: <sentence>"."""
    phrase = counted_phrase(question)
    if phrase is None:
        return None
    counted_words = {w.lower() for w in re.findall(r"[\w'’-]+", phrase)}
    noun = phrase.split(" of ")[0]  # "kinds of cloud service": kinds; "example situations": situations
    kind = frozenset(stems(noun.split()[-1])) if noun.split() else frozenset()
    forms = kind_forms(kind) if kind else []

    def names_kind(enum: Enumeration) -> bool:  # "depends on several factors:" for "how many considerations"
        lead = frozenset(stems(" ".join(enum.lead.split()[-LEAD_WORDS:])))
        return any(form <= lead for form in forms)

    for i in ranked.body()[:TOP]:
        if ranked.pool[i].row:
            continue  # a table's row ("Total current assets | 2023: 21,004 | …") names no items
        text = ranked.pool[i].text
        runs = [e for e in enumerations(text) if not e.examples or _ASKS_GIVEN.search(question)]
        if not runs:
            continue
        missed = [t for t in ranked.near_miss(i) if t != "count" and t.lower() not in counted_words]
        if missed:
            continue
        enum = next((e for e in runs if names_kind(e)), None)
        if enum is None and not found.found(ranked.signals(i)):
            continue
        enum = enum or runs[0]
        text = _DANGLING.sub(".", text)  # a list item's "…; and" read as the sentence's end
        return Answer(f"There are {len(enum.items)} {phrase}: {text}", [ranked.pool[i]], 1.0)
    return None

