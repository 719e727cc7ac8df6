"""The specific things a question names that the documents never mention: an honest "not found".

A question on the documents' topic whose answer they do not hold often names one thing they never say: "TIC
4.0" where they discuss TIC 3.0, "the peer-to-peer mesh model" beside four models they do describe, a year or a
name that is not there. The passages on the topic still match the question's other words well, which is why a
similarity threshold answers it. A name, a number, an acronym or a hyphenated term in the question that appears
nowhere in the task's documents is a plain signal: the answer would have to be about something they do not
mention. Common words are not checked (a reader's question paraphrases them freely).
"""

from __future__ import annotations

import re

MAX_TERMS = 16  # a question names a few specific things; a pasted wall of names is not searched term by term
_TOKEN = re.compile(r"[A-Za-z0-9$][\w.\-/$%'’]*")
_TRAILING = ".,;:?!)\"'’"
_PHRASAL = re.compile(r"[a-z]{2,12}-(?:up|down|in|out|off|on|over|back|through|away)s?")
_ORDINARY_CAPS = frozenset({"i", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "does",
                            "do", "did", "is", "are", "was", "were", "can", "could", "should", "would", "will",
                            "has", "have", "had", "may", "might", "must", "shall", "the", "a", "an", "in", "on",
                            "according", "besides", "apart", "other", "and", "or", "if", "for", "to", "of"})


def specific_terms(question: str) -> list[str]:
    """The question's names (capitalised past its first word), acronyms, numbers and hyphenated terms: the first
    `MAX_TERMS` of them (each is searched for in every passage of the documents)."""
    out: list[str] = []
    for index, match in enumerate(_TOKEN.finditer(question)):
        word = match.group(0).rstrip(_TRAILING)
        word = re.sub(r"['’]s$", "", word)
        core = word.strip("$%")
        if not core or core.lower() in _ORDINARY_CAPS:
            continue
        if any(c.isdigit() for c in core):
            out.append(core.replace(",", ""))
        elif _PHRASAL.fullmatch(core):
            continue  # "look-ups", "roll-out": an everyday noun of a verb and its particle, paraphrased freely
        elif re.search(r"[A-Za-z]-[A-Za-z]", core) or sum(c.isupper() for c in core) >= 2:
            out.append(core)
        elif index > 0 and core[:1].isupper() and not _capitalised_by_place(question, match.start()):
            out.append(core)
        if len(out) >= MAX_TERMS and len(set(out)) >= MAX_TERMS:
            break  # enough: each is searched for in every passage
    return list(dict.fromkeys(out))[:MAX_TERMS]


def _capitalised_by_place(question: str, start: int) -> bool:
    """Is the word at `start` capitalised by its place: after a colon or a quote, or opening a sentence of the
    question ("Oracle says it keeps investing in OCI. Toward how many …?": "Toward" is no name)?"""
    before = question[max(0, start - _LOOK_BACK):start].rstrip()  # the words just before it: a question of
    # 50,000 characters was read back to its start for every capitalised word (quadratic: minutes)
    end = _SENTENCE_END.search(before)
    opens = end is not None and (end.group("word") or "").lower() not in _ABBREVIATIONS
    return before.endswith((":", '"', "“")) or opens


_LOOK_BACK = 40  # characters before a word that say whether a sentence ended there
# "… infrastructure.", "… (OCI)." or "…?" ends a sentence; "U.S." (a letter before the stop) or "Mr." does not
_SENTENCE_END = re.compile(r"(?:\b(?P<word>[A-Za-z][a-z]+)[.]|[)\"”’][.]|[?!])[\"”’)]?$")
_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "jr", "sr", "inc", "co", "corp", "ltd", "no", "vs", "etc",
                            "gen", "gov", "sen", "rep", "prof", "mt", "ft"})


_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})(s?)\b")  # "1962", "the 1730s", the "2010" of "2010-11"


def asked_years(question: str) -> tuple[str, ...]:
    """The years a question dates its subject by; a decade as its first three digits ("1730s" -> "173")."""
    return tuple(dict.fromkeys(m.group(1)[:3] if m.group(2) else m.group(1) for m in _YEAR.finditer(question)))


def misdated(asked: tuple[str, ...], passage: str) -> bool:
    """Does the passage date its facts by other years than the question asks about? A near miss of the SQuAD 2.0
    kind ("in July 2004" where the passage says July 2014, "in the 1730s" where it says the 1630s): the
    passage's words all match, its year does not. A passage with no year at all says nothing either way
    (the season "2015" of a passage on that season's games is not repeated in each of its sentences)."""
    given = {m.group(1) for m in _YEAR.finditer(passage)}
    if not asked or not given:
        return False
    return any(not any(year.startswith(a) for year in given) for a in asked)
