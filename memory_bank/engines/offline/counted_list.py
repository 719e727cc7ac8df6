"""A list said in one sentence: "We have three businesses: cloud and license; hardware; and services."

A filing often names its few items inline, counted, after a colon or between dashes, with no outline of its own:
the list answerer (`list_answer.py`) finds no section list to show, and the sentence ranker weighs the sentence's
words like any other ("we continue to expand into new businesses" says "businesses" too). For a question that asks
for items of a kind, a sentence that counts that kind and then names them answers it whole, so it is the answer.
So does, for a question that says how many there are ("What are the two planes of a ZTA?"), a sentence naming
that many kinds of the noun, each by the word before it ("a separate control plane …, while application data is
communicated on a data plane"): the count is the question's, the names are the sentence's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...memory.outline import VAGUE_KINDS
from ...text.asks import asked_part, counted_kind, listed_noun, open_count
from ...text.tokens import STOPWORDS, bare_stems
from .answering import Answer
from .evidence import Evidence

COUNT_WORD = (r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[2-9]|1[0-9]")
# "three businesses:", "five reportable segments—": the count, up to two words, the noun, then the mark that opens
# the items (not a bracket: "three businesses (see Note 2)" names none)
_COUNTED = re.compile(rf"\b(?:{COUNT_WORD})\s+((?:[\w-]+\s+){{0,2}}?[\w-]+)\s*(?::|—|–|--)", re.IGNORECASE)
_POINTS_BACK = re.compile(r"^(?:This|It|These|They|Each)\b")  # a sentence whose subject its passage named
_LEAD = re.compile(r"^([^:.;]{3,80}):\s")  # an item's name its passage opens with ("Policy enforcement point (PEP):")
MIN_NAMED_WORDS = 2  # the items after the mark: at least this many words
_WORD = re.compile(r"[A-Za-z][\w/-]*")


def counted_sentence(question: str, evidence: list[Evidence],
                     passage: Callable[[str], str] = lambda node_id: "") -> Answer | None:
    """The evidence sentence that counts the asked kind of item and names the items after a colon or dash, the
    one that says most of the question's subject with what its passage (`passage` of its node id) says before it
    ("What is a policy enforcement point broken into?": the PEP item's "This is a single logical component in ZTA
    but may be broken into two different components: …", not the PDP's "broken down into two logical components:
    …"), then the one retrieval ranked highest (a colon before a dash: a list introduced as one), or None."""
    noun = listed_noun(question)
    if not noun:
        return None
    asked = bare_stems(noun)
    subject = bare_stems(asked_part(question)) - asked
    counted = counted_kind(question)
    # a count of a noun no list is known by ("How many qualified doctors were registered in Kenya in 2001?") is
    # answered by a sentence counting such items only where it says most of what the question says of them, not by
    # "… featuring the first two Doctors: William Hartnell and Patrick Troughton."
    needed = (len(subject - STOPWORDS) + 1) // 2 if open_count(question) else 0
    found: list[tuple[int, bool, float, int, Evidence]] = []
    for k, ev in enumerate(evidence):
        if ev.row:
            continue
        marked = next((m for m in _COUNTED.finditer(ev.text) if bare_stems(m.group(1).split()[-1]) & asked
                       and len(ev.text[m.end():].split()) >= MIN_NAMED_WORDS), None)
        if marked is None and not (counted and len(kinds_named(ev.text, counted[1])) == counted[0]):
            continue
        text = passage(ev.node_id)  # what it says before the sentence; its opening when it is summarised
        before = text[: text.find(ev.text)] if ev.text in text else text.split(". ")[0]
        named_here = bare_stems(ev.text) | bare_stems(before)
        if len(subject & named_here - STOPWORDS) < needed:
            continue
        found.append((len(subject & named_here), marked is not None and ev.text[marked.end() - 1] == ":",
                      ev.prior, -k, ev))
    if not found:
        return None
    best = max(found, key=lambda f: f[:4])[4]
    lead = _LEAD.match(passage(best.node_id).lstrip("•-–* "))
    if _POINTS_BACK.match(best.text) and lead:  # "This is a single logical component …": which one, said first
        return Answer(f"{lead.group(1)}: {best.text}", [best], 1.0)
    return Answer(best.text, [best], 1.0)


HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)  # a question asking for a count
# "… reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.": the noun,
# a verb that names all of them ("are" would read "are designed, made and sold" as items), then three items or
# more, the last joined by "and". Possessive and atomic where a choice changes nothing (any first comma will do),
# so a hostile sentence of thousands of commas or spaces is read in one pass, not retried at every comma
_ENUMERATED = re.compile(r"\b(?:consists?\s+(?:primarily\s+|mainly\s+|largely\s+)?of|comprises?|(?:is|are)\s+"
                         r"(?:(?:composed|made\s+up|comprised)\s+(?:primarily\s+|mainly\s+|largely\s+)?of)|"
                         # "Key competitive factors … include: total cost of ownership, performance, …"; "The goals of
                         # NCPS … are to manage cyber risk, improve cyber protection, and empower partners …"
                         r"includes?:?|(?:are|were)\s+to|"
                         r"(?P<divided>(?:categori[sz]ed|classified|grouped|divided|sorted|split|broken down|"
                         r"organi[sz]ed) into))\s++"
                         r"(?P<items>[^.;:](?>[^.;:,]*),[^.;:]+\band\s++[^.;:,]+)\.?$", re.IGNORECASE)
# "The Company's customers are primarily in the consumer, small and mid-sized business, education, enterprise and
# government markets.": the items before their noun, after an article or a possessive (bounded pieces: one pass)
_BEFORE_NOUN = re.compile(r"\b(?:the|its|our|their)\s+(?P<items>[^.;:,]{1,60}(?:,[^.;:,]{1,60}){1,11},?\s+and\s+"
                          r"[\w'’-]+)\s+(?P<noun>[\w'’-]+)", re.IGNORECASE)
MAX_ENUMERATED = 12
# "Approximately how many items …?": a number the documents state, not a list to count
_ABOUT = re.compile(r"\b(?:approximately|roughly|about|around|nearly|almost|over|more\s+than)\s+how\s+many\b",
                    re.IGNORECASE)
_SOME = re.compile(r"\b(?:other|some|several|many|examples?|among)\b", re.IGNORECASE)
_NUMBER_OF = re.compile(r"\b\d[\d,.]*\+?\s+(?:[\w-]+\s+){0,2}?([\w-]+)")  # "6000 items", "164,000 full-time employees"
_MANY_OF = re.compile(r"\b(?:dozens|hundreds|thousands|millions|billions)\s+of\s+(?:[\w-]+\s+){0,2}?([\w-]+)",
                      re.IGNORECASE)  # "thousands of applications": a number, if a vague one
SUBJECT_SPAN = 20  # words: a sentence opening with no more before its list says its subject there
SUBJECT_WORDS = 2  # words of the question's own said just before a list make it the list asked for
_DIVISIONS = bare_stems("categories classes groups types kinds parts divisions areas")  # what a division yields


def enumerated_count(question: str, evidence: list[Evidence]) -> Answer | None:
    """"How many reportable segments does Apple have?" answered by the sentence that names them all ("The
    Company's reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia
    Pacific."), counted: its items are the commas' pieces, the last split at its "and". None when the question
    asks no count or no sentence says the noun before such a list."""
    noun = listed_noun(question)
    if not noun or not HOW_MANY.search(question) or _ABOUT.search(question):
        return None
    asked = bare_stems(noun)
    if any(stated_count(ev.text, asked) for ev in evidence):
        return None  # "has over 6000 items": the documents state the number; a list of a few is no count of them
    own = bare_stems(asked_part(question)) - asked - STOPWORDS  # the question's words besides the counted noun
    opened = open_count(question) is not None
    for ev in evidence:
        if ev.row:
            continue
        before = None if opened else _BEFORE_NOUN.search(ev.text)  # "through its retail and online stores"
        if before is not None and asked & bare_stems(before.group("noun")):
            items = _items(before.group("items"))
            # "How many patent applications …?" of "patent, design, copyright and trademark applications" asks
            # the number of one kind, not how many kinds there are
            if 3 <= len(items) <= MAX_ENUMERATED and not _one_of(question, noun, items):
                return Answer(f"There are {len(items)} {noun}: {ev.text}", [ev], 1.0)
        listed = _ENUMERATED.search(ev.text)
        if listed is None:
            continue
        lead = ev.text[: listed.start()].split()
        if _SOME.search(" ".join(lead[-6:])) or (asked & VAGUE_KINDS and listed.group(0).lower().startswith("includ")):
            continue  # "Other items in the collection include …": some of them, no count of all
        # the noun just before the verb, or anywhere in a short subject ("Key competitive factors in each of the
        # segments in which we … compete … include: …")
        named = asked & bare_stems(" ".join(lead[-3:] if len(lead) > SUBJECT_SPAN else lead))
        # "… indirect channel networks are comprised primarily of resellers, …" of "How many kinds of partners
        # make up the indirect channels …?": the question's own words name what the list makes up
        subject = len(own & bare_stems(" ".join(ev.text[: listed.start()].split()[-5:]))) >= SUBJECT_WORDS
        if not (named or (not opened and (subject or (listed.group("divided") and noun.endswith("s")
                                                      and asked & _DIVISIONS)))):
            continue  # "These gaps can be categorized into A, B and C" names categories by its verb; a count of a
            # noun no list is known by ("How many retail stores …?") is of a list that names it
        items = _items(listed.group("items"))
        if 3 <= len(items) <= MAX_ENUMERATED:
            return Answer(f"There are {len(items)} {noun}: {ev.text}", [ev], 1.0)
    return None


def stated_count(text: str, asked: set[str]) -> bool:
    """Does the sentence state a number of the asked noun ("over 6000 items", "164,000 full-time employees",
    "thousands of applications")?"""
    return any(asked & bare_stems(m.group(1)) for pattern in (_NUMBER_OF, _MANY_OF) for m in pattern.finditer(text))


def _one_of(question: str, noun: str, items: list[str]) -> bool:
    """Does the question name one of the items as its noun's modifier ("how many patent applications")?"""
    before = re.search(rf"\bhow\s+many\s+((?:[\w'’-]+\s+){{1,3}}){re.escape(noun)}\b", question, re.IGNORECASE)
    return before is not None and bool(bare_stems(before.group(1)) & bare_stems(" ".join(items)))


def _items(listed: str) -> list[str]:
    """The items of an inline list: the commas' pieces, the last split at its "and" (an "and" inside an earlier
    piece is part of its item: "small and mid-sized business")."""
    *pieces, last = listed.split(",")
    head, _, tail = last.rpartition(" and ")
    return [p.strip() for p in (*pieces, head, tail) if p.strip() and p.strip() != "and"]


def says_more_of(question: str, counted: Answer, listed: str) -> bool:
    """Does the counted sentence say more of what the question asks about than the section's list does?
    "How many components is the PDP broken into?" is answered by "the policy decision point (PDP) is broken down
    into two logical components: …", not by the section's three core components, whose lines never say "PDP"."""
    subject = bare_stems(asked_part(question)) - bare_stems(listed_noun(question) or "")
    return len(subject & bare_stems(counted.text)) > len(subject & bare_stems(listed))


def kinds_named(sentence: str, noun: str) -> list[str]:
    """The kinds of `noun` a sentence names, each by the word before it ("a separate control plane …, while
    application data is communicated on a data plane" -> control, data): "What are the two planes?" is answered
    by the sentence naming two. A function word or a number before the noun names no kind ("a plane")."""
    one = noun[:-3] + "y" if noun.endswith("ies") else noun[:-2] if noun.endswith(("ses", "xes")) else noun[:-1]
    words = [w.lower() for w in _WORD.findall(sentence)]
    kinds = [before for before, word in zip(words, words[1:])
             if word in (one, noun) and before not in STOPWORDS and before not in (one, noun)]
    return list(dict.fromkeys(kinds))
