"""The asked year tied to another event of the sentence: a near miss a year check alone does not see.

A SQuAD 2.0 style near miss often keeps every word and year of its sentence and moves the year to another of its
events: "Whose building did the congregation purchase in 1767?" of "The congregation was founded in 1767, …, and in
1769 it purchased the shell of a building …"; "At what age did Tesla complete his theory in 1892?" of "… that he
started working on in 1892, and in 1937, at age 81, claimed … to have completed …". The sentence says the year, so
`constraints.unmet_terms` and `specifics.misdated` are met; what it does not say is the question's event in that
year. Each occurrence of the question's verb is dated by the year nearest to it (a year after the verb, "purchased
… in 1769", binds twice as close as one before it: prose dates an event after its verb); the question is not met
when no occurrence is dated by the asked year. A sentence opening with the asked year dates all it says, and a
question naming two years asks a span, which this does not read. Measured with bench/near_miss_signals.py (the
gold answer sentences of the dev articles) and bench/squad_near_miss.py (bench/OFFLINE_RESULTS.md, stop 50).
"""

from __future__ import annotations

import re

from ...text.tokens import stem

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’\-]*|\d+s?")
_YEAR = re.compile(r"(?:1[0-9]{3}|20[0-9]{2})")
_ANY_YEAR = re.compile(r"(?<!\d)(?:1[0-9]{3}|20[0-9]{2})(?!\d)")
# "Whose building did the congregation purchase in 1767?": the words between the auxiliary and the dated phrase;
# the last content word of them is the event's verb
_DATED_EVENT = re.compile(r"\b(?:did|does|do|was|were)\b(.*?)\b(?:in|during)\s+(?:[A-Z][a-z]+\s+)?"
                          r"((?:1[0-9]{3}|20[0-9]{2}))\b(?!s)")
_FUNCTION = frozenset("what which when who whom whose where why how year years did does do was were is are the a "
                      "an of in on at to for by with from and or that this it its his her their as into than then "
                      "have has had be been being".split())
_STEM_PREFIX = 5  # "purchase" / "purchased", "complete" / "completed": a verb's forms share their first letters
_OPENING = 3  # "In 1965, the corporate entity … was renamed": a year this close to the start dates the sentence


def redated(question: str, sentence: str) -> list[str]:
    """The asked year, when the sentence says it but dates the question's event by another year; else empty."""
    if len(_ANY_YEAR.findall(question)) != 1:
        return []
    match = _DATED_EVENT.search(question)
    if not match:
        return []
    year = match.group(2)
    content = [w for w in _TOKEN.findall(match.group(1)) if w.islower() and w not in _FUNCTION and len(w) > 3]
    if not content:
        return []
    verb = stem(content[-1])[:_STEM_PREFIX]
    tokens = _TOKEN.findall(sentence)
    if year not in tokens or year in tokens[:_OPENING]:
        return []
    years = [i for i, t in enumerate(tokens) if _YEAR.fullmatch(t)]
    if all(tokens[i] == year for i in years):
        return []
    dated: set[str] = set()
    for at in (i for i, t in enumerate(tokens) if t.lower().startswith(verb)):
        distance = {i: (i - at) / 2 if i > at else at - i for i in years}
        nearest = min(distance.values())
        dated |= {tokens[i] for i in years if distance[i] == nearest}
    return [year] if dated and year not in dated else []
