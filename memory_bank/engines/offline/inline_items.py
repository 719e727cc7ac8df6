"""A list inside a sentence: "… the common elements (e.g., ID management, device management, event logging) are
flexible enough to operate in a ZTA and perimeter-based hybrid security architecture."

A question for items of a kind that no section's list answers ("In a hybrid zero trust and perimeter-based
enterprise, which shared components have to work under both models?") is answered by the sentence naming such
items one after the other, when one is among the best few of the ranking: the best-ranked sentence often says the
question's words about the topic ("Most enterprise infrastructures will operate in a hybrid …") and names none.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...text.tokens import stem, stems
from .ranking import Ranked

TOP = 3  # the best body sentences a sentence naming items may be taken from
MIN_NAMED = 3  # items named one after the other
MAX_ITEM_WORDS = 6  # an item is a name, not a clause
MIN_ITEMS_NUMBERED = 2  # items numbered in the sentence ("(1) …, (2) …"): their numbers say they are items
# what opens a run of items: "e.g.", "such as", "including", "namely", a colon; the run, bounded, up to a stop
# (a full stop inside a name, "Amazon.com, Inc.,", ends nothing; items after a colon may be parted by semicolons)
_OPENS = re.compile(r"(?:\be\.g\.,?|\bi\.e\.,?|\bsuch as|\bincluding|\bnamely|:)\s+((?:[^.:()]|\.(?!\s)){1,300})",
                    re.IGNORECASE)
_SPLIT = re.compile(r"[,;]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_WORD = re.compile(r"[A-Za-z]+")
# a series of at least five short names parted by commas (a run of four commas, no clause between): no opener needed
_SERIES = re.compile(r"(?:\b[\w&'’/-]+(?:\s+[\w&'’/-]+){0,3},\s+){4,}[\w&'’/-]+")
_NUMBERED = re.compile(r"\((?:\d{1,2}|[a-h])\)\s")  # "(1) Universal Security Capabilities … (2) …"


def names_items(sentence: str) -> bool:
    """Does the sentence name three items or more one after the other, after "e.g.", "such as", "including",
    "namely" or a colon, each a short name, or number two or more ("(1) …, (2) …"), or run a series of short names
    parted by commas ("… to customers in the automotive, communications, construction and engineering, consumer
    goods, energy and water, …")?"""
    if len(_NUMBERED.findall(sentence)) >= MIN_ITEMS_NUMBERED or _SERIES.search(sentence):
        return True
    for match in _OPENS.finditer(sentence):
        pieces = [p.split() for p in _SPLIT.split(match.group(1)) if p.strip()]
        if len(pieces) >= MIN_NAMED and all(len(p) <= MAX_ITEM_WORDS for p in pieces[:MIN_NAMED]):
            return True
    return False


def _names_one(sentence: str, kind: frozenset[str]) -> bool:
    """Does the sentence say the kind (stems) in the singular ("a risk", "The biggest risk")?"""
    return bool(kind) and any(not w.lower().endswith("s") and stem(w.lower()) in kind for w in _WORD.findall(sentence))


def naming_first(ranked: Ranked, kind: frozenset[str] = frozenset(),
                 plural_kind: frozenset[str] = frozenset()) -> Ranked | None:
    """The ranking with the best of its first `TOP` body sentences that names items moved to the front, when the
    best one names none, or names items but never says the `kind` asked for (stems) while that one does; None when
    there is nothing to move. "What are Oracle's business segments?": a sentence listing the vendors' products
    ("including databases, middleware products, …") ranked above "We have three businesses: cloud and license;
    hardware; and services; each of which comprises a single operating segment." A best sentence naming one of
    the `plural_kind` asked (`kind_named.asked_kind`, synonyms included) in the singular is such an item itself,
    and stays first: "There is also a risk that …" of "What dangers …?" (not "… data sources …, including …, and
    threat analysis"); one saying the kind in the plural ("… our businesses and operating segments …") names none."""
    body = ranked.body()[:TOP]

    def says_kind(i: int) -> bool:
        return bool(kind) and kind <= set(stems(ranked.pool[i].text))

    if not body:
        return None
    if _names_one(ranked.pool[body[0]].text, plural_kind):
        return None
    first_names = names_items(ranked.pool[body[0]].text)
    if first_names and (not kind or says_kind(body[0])):
        return None
    naming = [i for i in body[1:] if names_items(ranked.pool[i].text)]
    named = next((i for i in naming if says_kind(i)), None if first_names else next(iter(naming), None))
    if named is None:
        return None
    return replace(ranked, order=[named, *(i for i in ranked.order if i != named)])
