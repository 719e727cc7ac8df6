"""Lists: numbered or bulleted items read as one unit with the sentence that leads into them.

A list is kept whole so that "how many tenets?" counts its items and "what are the steps?" reaches all of them,
not the two that share the question's words. Items come either one per paragraph (a PDF's numbered paragraphs)
or one per line inside a paragraph (Markdown's "- item" lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.split import split_sentences
from .model import ListItem

MAX_LEAD_IN_WORDS = 60  # a longer paragraph before a list gives only its last sentence as the lead-in
MAX_INTRODUCTION_WORDS = 40  # an introducing sentence without a colon is short
# "In the figure, the inputs can be broken into categories …": a sentence that sorts what follows into kinds
_INTRODUCES = re.compile(r"\b(?:following|below|as follows|categor(?:y|ies)|broken (?:down )?into|divided into|"
                         r"grouped into|consists? of|comprises?|kinds? of|types? of)\b", re.IGNORECASE)
_MARKER = re.compile(
    r"^\s*(?:(?P<num>\d{1,3})[.)]|\((?P<pnum>\d{1,3})\)|(?P<alpha>[a-z])[.)]|\((?P<palpha>[a-z])\)"
    r"|(?P<bullet>[•▪◦‣●○■□∙·*–-]))\s+(?=\S)")


@dataclass(frozen=True)
class Marker:
    text: str  # "1.", "(a)", "•"
    family: str  # "num", "alpha" or "bullet": items of one list share it
    ordinal: int | None  # 1 for "1." and "a)", None for a bullet
    length: int  # characters the marker and its space take


def item_marker(text: str) -> Marker | None:
    match = _MARKER.match(text)
    if match is None:
        return None
    groups = {k: v for k, v in match.groupdict().items() if v}
    (name, value), = groups.items()
    family = {"num": "num", "pnum": "num", "alpha": "alpha", "palpha": "alpha"}.get(name, "bullet")
    ordinal = int(value) if family == "num" else (ord(value) - ord("a") + 1 if family == "alpha" else None)
    return Marker(match.group(0).strip(), family, ordinal, match.end())


def continues(previous: Marker, marker: Marker) -> bool:
    """Whether `marker` is the next item of the list `previous` belongs to (same family, next number)."""
    if marker.family != previous.family:
        return False
    return marker.ordinal is None or previous.ordinal is None or marker.ordinal == previous.ordinal + 1


def starts_list(marker: Marker) -> bool:
    return marker.ordinal in (None, 1)


def item(text: str, marker: Marker) -> ListItem:
    return ListItem(marker.text, " ".join(text[marker.length:].split()))


def line_items(paragraph: str) -> list[ListItem] | None:
    """A paragraph whose lines are items ('- a\\n- b'), a wrapped line joined to its item; None otherwise."""
    lines = [line for line in paragraph.split("\n") if line.strip()]
    if len(lines) < 2:
        return None
    items: list[ListItem] = []
    previous: Marker | None = None
    for line in lines:
        marker = item_marker(line)
        if marker is not None and (previous is None or continues(previous, marker)):
            items.append(item(line, marker))
            previous = marker
        elif items and marker is None:
            last = items[-1]
            items[-1] = ListItem(last.marker, f"{last.text} {' '.join(line.split())}")
        else:
            return None
    return items if len(items) >= 2 else None


_INLINE_BULLET = re.compile(r"(?:^|\s)[•▪●◦‣]\s+(?=\S)")


def inline_items(paragraph: str) -> tuple[str, list[ListItem]] | None:
    """A list a PDF's layout ran into one paragraph ('... include: • Revenue Recognition; • Business
    Combinations; ...'): (its lead-in, its items) when the text before the first bullet announces them."""
    parts = _INLINE_BULLET.split(paragraph)
    if len(parts) < 3:
        return None
    lead = " ".join(parts[0].split())
    items = [ListItem("•", " ".join(p.split())) for p in parts[1:] if p.strip()]
    if len(items) < 2 or (lead and not lead.endswith(":")):
        return None
    return lead, items


def lead_in(paragraph: str) -> str | None:
    """The sentence that announces a list ('... the following zero trust basic tenets:'), if the paragraph
    ends with one."""
    text = " ".join(paragraph.split())
    if not text.endswith(":"):
        return None
    if len(text.split()) <= MAX_LEAD_IN_WORDS:
        return text
    sentences = split_sentences(text)
    return sentences[-1] if sentences else None


def introduction(paragraph: str) -> str | None:
    """The paragraph's last sentence when it introduces the list after it without a colon ("In the figure, the
    inputs can be broken into categories based on what they provide to the trust algorithm." before "• Access
    request: …"): it names the kind of the items, which the items themselves may never say. The paragraph stays
    where it is; the sentence only tells what the list is of."""
    sentences = split_sentences(" ".join(paragraph.split()))
    last = sentences[-1] if sentences else ""
    fits = last.endswith(".") and len(last.split()) <= MAX_INTRODUCTION_WORDS
    return last if fits and _INTRODUCES.search(last) else None
