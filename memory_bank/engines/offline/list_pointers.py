"""A part of a question that points into the list an earlier part was answered with: "… and what does the first
say?", "… how many are there?", "… what does each one require?". The list answer (`list_answer.py`) gave the list;
these read the item pointed at, or say that the list already answers.
"""

from __future__ import annotations

import re

from ...text.asks import ORDINALS, item_noun
from ...text.tokens import bare_stems
from .answering import Answer
from .counted_list import HOW_MANY
from .list_answer import Listing, section_evidence

_EACH = re.compile(r"\b(?:each|every one|all of them)\b", re.IGNORECASE)
_COUNT_WORDS = frozenset(bare_stems("many exist list total altogether all in number count give"))
_ORDINAL = re.compile(rf"\bthe\s+({'|'.join(ORDINALS)})\b(?!\s+(?:time|year|quarter|half|day|week|month))",
                      re.IGNORECASE)


def ordinal(question: str) -> int | None:
    """The item a follow-up part points at ("what does the first say?" -> 1, "the last" -> -1), if any."""
    match = _ORDINAL.search(question)
    return ORDINALS[match.group(1).lower()] if match else None


def pointed_item(listing: Listing, position: int) -> str | None:
    """'Item 1: All data sources and computing services are considered resources.' (or 'Item 7 (the last): …') for the
    item a follow-up points at; None when the list has no such item."""
    index = position - 1 if position > 0 else len(listing.items) + position
    if not 0 <= index < len(listing.items) or (position < 0 and listing.count > len(listing.items)):
        return None
    item = listing.items[index]
    name = f"Item {index + 1}" + (" (the last)" if position < 0 else "")
    return f"{name}: {item.label} {item.text}".strip() if not listing.numbered else f"{name}: {item.text}"


def followed_item(part: str, earlier: list[Listing | None]) -> Answer | None:
    """A part that points into the list an earlier part gave: 'the first' is that item; 'each one' is what the
    items already say (each with its first sentence), and 'how many are there?' what the list's first line says
    ("The documents give 7 tenets"), so neither adds a line of its own (the count was "not found" before)."""
    listing = next((x for x in reversed(earlier) if x is not None), None)
    if listing is None:
        return None
    if _EACH.search(part) or _counts_them(part):
        return Answer("", [section_evidence(listing)], 1.0)
    position = ordinal(part)
    if position is None:
        return None
    text = pointed_item(listing, position)
    return None if text is None else Answer(text, [section_evidence(listing)], 1.0)


def _counts_them(part: str) -> bool:
    """Does the part ask only how many items the list has ("how many are there?", "… in total?"), not how many
    of them do something the list does not say ("how many are met by VPNs?")?"""
    return bool(HOW_MANY.search(part)) and item_noun(part) is None and bare_stems(part) <= _COUNT_WORDS
