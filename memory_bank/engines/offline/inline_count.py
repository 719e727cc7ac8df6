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
LEAD_WORDS = 6  # the words before an enumeration that may name its kind ("depends on several factors:")
_VERB = r"(?:do|does|did|are|is|was|were|have|has|had|can|could|would|should|might|may|will|must)"
# "how many kinds of cloud service does …": what is counted, up to the verb the question goes on with
_COUNTED = re.compile(rf"\bhow\s+many\s+(?P<phrase>(?:[\w'’-]+\s+){{1,5}}?){_VERB}\b", re.IGNORECASE)
_EXAMPLES = re.compile(r"\((?:e\.g\.|i\.e\.|for example|such as|including),?\s+(?P<items>[^()]{3,300})\)",
                       re.IGNORECASE)
_COLON = re.compile(r"(?P<lead>[^:]{3,300}):\s+(?P<items>[^:]{3,400}?)\.?$")
_BOTH = re.compile(r"\bboth\s+(?P<a>[^,.;]{1,80}?)\s+and\s+(?P<b>[^,.;]{1,80}?)(?=[.;,]|$)", re.IGNORECASE)
_OPEN_END = re.compile(r"^(?:and\s+|or\s+)?(?:others?|etc\.?|more|so on|the like)$", re.IGNORECASE)
_LETTER = re.compile(r"[A-Za-z]{2}")  # an item is named in words, not a figure
_JOIN = re.compile(r"^(?:and|or)\s+", re.IGNORECASE)
_LAST_JOIN = re.compile(r"\s+(?:and|or|and/or)\s+(?!.*\s(?:and|or|and/or)\s)", re.IGNORECASE)


@dataclass(frozen=True)
class Enumeration:
    lead: str  # what the sentence says before its items
    items: list[str]


def counted_phrase(question: str) -> str | None:
    """The words of what a "how many" question counts ("kinds of cloud service"), or None."""
    match = _COUNTED.search(question)
    return match.group("phrase").strip() if match else None


def _pieces(run: str) -> list[str]:
    """A run's items: parted by semicolons when it has them, else by commas, the last of "A, B and C" at its
    "and"; an open end ("and others", "etc.") is no item."""
    parts = [p.strip() for p in (run.split(";") if ";" in run else run.split(","))]
    parts = [p for p in parts if p]
    if parts and not _JOIN.match(parts[-1]) and ";" not in run:
        last = _LAST_JOIN.split(parts[-1], maxsplit=1)
        parts[-1:] = [p.strip() for p in last if p.strip()]
    parts = [_JOIN.sub("", p) for p in parts]
    return [p for p in parts if not _OPEN_END.match(p)]


def enumeration(sentence: str) -> Enumeration | None:
    """The few items the sentence names one after the other, or None."""
    text = " ".join(sentence.split())
    found: list[Enumeration] = []
    for match in _EXAMPLES.finditer(text):
        found.append(Enumeration(text[: match.start()], _pieces(match.group("items"))))
    colon = _COLON.search(text)
    if colon is not None:
        found.append(Enumeration(colon.group("lead"), _pieces(colon.group("items"))))
    if text.count(";") >= 1 and not colon:
        parts = [p.strip() for p in text.rstrip(".").split(";")]
        if len(parts) >= 2 and _JOIN.match(parts[-1]):  # "…; judge, grant, or deny access …; and perform …"
            # the first part is the sentence up to its first item: its last words stand for that item
            found.append(Enumeration(parts[0], [" ".join(parts[0].split()[-MAX_ITEM_WORDS:]), *parts[1:]]))
    for match in _BOTH.finditer(text):
        found.append(Enumeration(text[: match.start()], [match.group("a"), match.group("b")]))
    for enum in found:
        if 2 <= len(enum.items) <= MAX_ITEMS and all(len(i.split()) <= MAX_ITEM_WORDS and _LETTER.search(i)
                                                     for i in enum.items):
            return enum
    return None


def inline_count(question: str, ranked: Ranked, found: FoundModel) -> Answer | None:
    """For a "how many" question no sentence answers with a number: the count of the enumeration in one of the
    best sentences, when the count and the counted words are all it misses, as "There are N <kind>: <sentence>"."""
    phrase = counted_phrase(question)
    if phrase is None:
        return None
    counted_words = {w.lower() for w in re.findall(r"[\w'’-]+", phrase)}
    noun = phrase.split(" of ")[0]  # "kinds of cloud service": kinds; "example situations": situations
    kind = frozenset(stems(noun.split()[-1])) if noun.split() else frozenset()
    for i in ranked.body()[:TOP]:
        if ranked.pool[i].row:
            continue  # a table's row ("Total current assets | 2023: 21,004 | …") names no items
        text = ranked.pool[i].text
        enum = enumeration(text)
        if enum is None:
            continue
        missed = [t for t in ranked.near_miss(i) if t != "count" and t.lower() not in counted_words]
        if missed:
            continue
        lead = frozenset(stems(" ".join(enum.lead.split()[-LEAD_WORDS:])))
        named = any(form <= lead for form in kind_forms(kind)) if kind else False
        if not (named or found.found(ranked.signals(i))):
            continue
        return Answer(f"There are {len(enum.items)} {phrase}: {text}", [ranked.pool[i]], 1.0)
    return None

