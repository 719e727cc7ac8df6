"""Questions that ask for several things: "What are X, and how does Y decide?", "Compare A and B".

Each part is answered from its own best evidence (the evidence for "the components" is not the evidence for "how
the engine decides"), and the answer lists the parts. Splitting is deliberately narrow: only a second clause that
opens with its own question word, or an explicit comparison, counts as a second question; "Who designed X and
Y?" stays one question, so factoid answers stay short.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .asks import asks_for_items
from .part_pointers import pointed_subject, read_pointers

MAX_PARTS = 4
MIN_WORDS = 3  # a part shorter than this is no question of its own
_WH = r"(?:what|which|who|whom|whose|when|where|why|how)"
# "…, and since what year has it done so?": how long, a fact of its own (not "…, and at which firm was he
# working?", which the sentence answering the first part answers too: split, it was answered apart and lost)
_PREP = r"(?:since\s+)?"
_CLAUSE_BREAK = re.compile(rf"(?:,\s*(?:and|but)\s+|;\s*(?:and\s+)?|\s+and\s+(?=(?:also\s+)?{_WH}\b))"
                           rf"(?={_PREP}{_WH}\b)", re.IGNORECASE)
# "What is X, what does Y do, and how does Z …?": a series of questions, its middle one set off by a comma alone
# (only in a series, and only before a clause asking with its own verb: "What is the PEP, which the PA configures,
# and …?" keeps its relative clause)
_SERIES_END = re.compile(rf",\s*(?:and|but)\s+{_WH}\b", re.IGNORECASE)
_SERIES_BREAK = re.compile(rf",\s*(?={_WH}\s+(?:\w+\s+)?(?:is|are|was|were|do|does|did|can|could|should|will|would|"
                           rf"has|have|had)\b|how\s+(?:many|much)\b)", re.IGNORECASE)
# a part that asks what caused, or how changed, what the part before it asked about ("Did iPhone net sales grow in
# 2022 and what drove it?", "… total revenues in fiscal 2023 and how did they change from 2022?"): no question of
# its own (alone it has no subject), but more of the one before, as "… and why?" is
_CAUSE_OF_BEFORE = re.compile(
    r"^(?:what|which\s+\w+)\s+(?:drove|drives|caused|causes|explains|explained|led\s+to|leads\s+to|(?:is|was)\s+"
    r"behind|accounts?\s+for|accounted\s+for|contributed\s+to)\s+(?:it|this|that|them|these|those|the\s+(?:changes?|"
    r"increases?|decreases?|growth|declines?|drops?|rises?|differences?|improvements?))\s*\??$|"
    r"^why\s+(?:is|was|did|does|do|were|are|has|have)\s+(?:it|this|that|they|these|those)\b|"
    r"^how\s+(?:did|has|have|does|do)\s+(?:it|they|this|that|these|those)\s+(?:change|grow|compare|develop|move|"
    r"evolve)\b", re.IGNORECASE)
# "How many types … does it define, and what are they?": a part that asks only what the part before it named is
# more of that question (alone it asks nothing: "what are they?" was answered "not found" beside the count's answer)
_ONLY_POINTS_BACK = re.compile(r"^(?:what|which|who)\s+(?:are|were|is|was)\s+(?:they|it|these|those|them)\s*\??$",
                               re.IGNORECASE)
_COMPARE = re.compile(r"^\s*(?:compare|contrast)\s+(?P<a>.+?)\s+(?:and|with|to|versus|vs\.?)\s+(?P<b>.+?)[\s?.]*$",
                      re.IGNORECASE)
_DIFFERENCE = re.compile(r"^\s*what(?:'s|\s+is|\s+are)\s+the\s+differences?\s+between\s+(?P<a>.+?)\s+and\s+"
                         r"(?P<b>.+?)[\s?.]*$", re.IGNORECASE)
# a part is a question of its own only when it opens like one ("Goldenson proposed a merger ... and what network"
# is one question whose second clause leans on the first)
# "… in what it assumes about trust and where it applies security capabilities?": a question word right before its
# clause's subject ("where it applies", not "where does it apply") opens a clause the question asks about, not a
# question of its own
_EMBEDDED = re.compile(rf"^{_WH}\s++(?:it|they|he|she|we|you|i|this|these|those)\b", re.IGNORECASE)
_ASKED_CLAUSE = re.compile(rf"\s(?={_WH}\s++(?:it|they|he|she|we|you|i|this|these|those)\b)", re.IGNORECASE)
# "What does 'PA' stand for (in the filing)?" / "What is a policy engine?"
_ONE_THING = re.compile(r"^\s*(?:(?i:what\s+(?:does|do))\s+(?P<acronym>[\"'“‘]?[A-Z][A-Za-z0-9&]{0,9}[\"'”’]?)\s+"
                        r"(?i:stand\s+for|mean)(?:\s+(?i:in)\s+[^?,;]{1,60})?|"
                        r"(?i:(?:what|who)\s+(?:is|was))\s+(?P<thing>[^?,;]+?))\s*\?\s*$")
# "How much deferred revenue did Apple carry …?": an amount of one thing, which a later part calls "it" ("… and
# what share of it …?"); not "How many …" (a later "it" is no plural's) nor "How much did Oracle spend …?"
_HOW_MUCH = re.compile(r"^\s*+how\s++much\s++(?P<thing>(?:[\w'’&-]++\s++){0,5}?[\w'’&-]++)\s++(?:did|does|do|was|"
                       r"were|is|are|has|have|had|will|would|can|could)\b", re.IGNORECASE)
# a later part asking again what the yes/no part before it asked ("…, and since when has it done so?")
_DONE_SO = re.compile(r"^(?P<head>.{1,80}?)\s++(?:has|have|had|did|does|do|is|are|was|were)\s++(?:it|they|he|she|we|"
                      r"the\s+company)\s++(?:done|do|did|been\s+doing)\s++so\s*+\??$", re.IGNORECASE)
_YES_NO_ACT = re.compile(r"^\s*+(?:(?:what|which|who)\s++)?(?:(?:do|does|did|has|have|had|is|are|was|were)\b\s*+)?"
                         r"(?P<act>[^?]{3,200})", re.IGNORECASE)
_NAME = re.compile(r"[A-Z]")  # a word with a capital in it names something ("iPad", "Oracle", "ZTA")
_OPENS_QUESTION = re.compile(rf"^(?:{_WH}|is|are|was|were|do|does|did|can|could|should|will|would|has|have|had)\b",
                             re.IGNORECASE)


def question_parts(question: str, acronyms: Mapping[str, str] | None = None) -> list[str]:
    """The questions a question asks, in order; a single question comes back alone. A later part's pointer to
    the first part's subject is read as that subject (`part_pointers.py`); an acronym as the long form
    `acronyms` (the documents' own) gives it: their passages on it say the long form, not the letters ("What
    does SDP stand for, and what does the PA do when a ZTA is built that way?")."""
    parts = asked_parts(question)
    text = " ".join(question.split())
    if len(parts) < 2 or _COMPARE.match(text) or _DIFFERENCE.search(text):  # two sides: no pointer
        return parts
    subject = _subject(parts[0]) or pointed_subject(parts[0])
    subject = f"{acronyms[subject]} ({subject})" if acronyms and subject in acronyms else subject
    listed = asks_for_items(parts[0])
    return parts[:1] + [_done_so(parts[0], p) or read_pointers(p, subject, listed) for p in parts[1:]]


def _done_so(first: str, part: str) -> str | None:
    """"Does Oracle pay a dividend, and since what year has it done so?": "done so" is the first part's act, asked
    again ("since what year Oracle pay a dividend?"); the words are what the part's evidence is searched and read
    by: the first part's words after its question word and auxiliary ("Which accounting firm audits Apple?" ->
    "accounting firm audits Apple")."""
    done = _DONE_SO.match(part)
    act = _YES_NO_ACT.match(first)
    if done is None or act is None:
        return None
    return f"{done['head']} {act['act'].rstrip(' ?')}?"


def asked_parts(question: str) -> list[str]:
    """The questions a question asks as it asks them, each later part's pointers unread."""
    text = " ".join(question.split())
    compared = _COMPARE.match(text) or _DIFFERENCE.search(text)
    if compared:
        return [f"What is {side}?" for side in _sides(compared["a"], compared["b"])]
    parts = [p.strip(" ,;") for p in _CLAUSE_BREAK.split(text) if p.strip(" ,;")]
    if len(parts) >= 2 and _SERIES_END.search(text):
        parts = [q.strip(" ,;") for p in parts for q in _SERIES_BREAK.split(p) if q.strip(" ,;")]
    parts = _with_causes(_framed(parts))
    if (not 2 <= len(parts) <= MAX_PARTS or any(len(p.split()) < MIN_WORDS for p in parts)
            or not _OPENS_QUESTION.match(parts[0])):
        return [question]  # "... and when?" leans on the first clause: one question
    return [p if p.endswith("?") else f"{p}?" for p in parts]


def _framed(parts: list[str]) -> list[str]:
    """The parts with a clause the question asks about (`_EMBEDDED`) asked in the words the part before it asks
    its own with ("How does X differ from Y in what it assumes, and where it applies …" -> "How does X differ
    from Y in where it applies …"), or joined to that part when it asks no such clause."""
    out: list[str] = []
    for part in parts:
        if not out or not _EMBEDDED.match(part):
            out.append(part)
            continue
        frame = [m.end() for m in _ASKED_CLAUSE.finditer(out[-1])]
        if frame:
            out.append(f"{out[-1][:frame[-1]]}{part}")
        else:
            out[-1] = f"{out[-1]} and {part}"
    return out


def _with_causes(parts: list[str]) -> list[str]:
    """The parts with each that asks the cause of the one before, or only what it named, joined to it ("X, and
    what drove it?", "How many X …, and what are they?")."""
    out: list[str] = []
    for part in parts:
        # what a term stands for has no cause: "What does OI&E stand for, and why did it decrease?" asks twice
        if out and (_CAUSE_OF_BEFORE.match(part) and not _expands(out[-1]) or _ONLY_POINTS_BACK.match(part)):
            out[-1] = f"{out[-1].rstrip('?')} and {part}"
        else:
            out.append(part)
    return out


def _expands(part: str) -> bool:
    """Does the part ask what an acronym stands for ("What does OI&E stand for in Apple's 10-K")?"""
    match = _ONE_THING.match(part if part.endswith("?") else f"{part}?")
    return match is not None and bool(match.group("acronym"))


def _subject(part: str) -> str | None:
    """The one thing a first part asks about, which a later part calls "it": "What does 'PA' stand for?" -> PA,
    "What is a policy engine?" -> a policy engine, "How much deferred revenue did Apple carry?" -> deferred revenue.
    None when it is not plainly one thing."""
    much = _HOW_MUCH.match(part)
    if much is not None:
        return much.group("thing")
    match = _ONE_THING.match(part)
    if match is None:
        return None
    subject = (match.group("acronym") or match.group("thing") or "").strip(" \"'“”‘’")
    return subject if 0 < len(subject.split()) <= 8 else None


def _sides(a: str, b: str) -> tuple[str, str]:
    """The two things compared, each whole: what follows a colon is asked of both ("…: which grew, which
    declined?"), and two names sharing the words after the second ("iPhone and iPad net sales in 2022") each get
    them ("iPhone net sales in 2022"). Only names share them: "ZTA and traditional perimeter security" stays as
    it is."""
    b = b.split(":")[0].strip() or b
    tail = b.split()[1:]
    if len(a.split()) == 1 and tail and _NAME.search(a) and _NAME.search(b.split()[0]):
        a = " ".join([a, *tail])
    return a, b
