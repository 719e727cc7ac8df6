"""The two sides of a comparison ("How does X differ from Y?", "How does X compare with Y?", "X compared with Y"),
and whether an answer's sentences say each.

A comparison is answered by what the documents say of both sides. The best sentences for it often describe one
side only ("A criteria-based TA assumes a set of qualified attributes …" for "How does a criteria-based trust
algorithm differ from a score-based one?"): the answer then needs the best sentence on the other side too. A side
is told apart by its own words (those the other side does not share: "criteria" and "score", not "trust
algorithm"), or by their initials, as documents shorten what they discuss ("ZTA" for "zero trust architecture").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text.tokens import tokenize

_VERB = r"(?:does|do|did|is|are|was|were|will|would|can|could)"
# "… differ from TIC 1.0 and 2.0 in what it assumes about trust?": what follows "in what" is the aspect asked, no side
# "How does a score-based TA reach its decision differently from a criteria-based one?": the act is the first side's
_HOW = re.compile(rf"^\s*how\s+{_VERB}\s+(?P<a>.+?)\s+(?:(?:differ|compare|contrast)s?|differently)\s+"
                  r"(?:from|with|to|against|than)\s+"
                  r"(?P<b>.+?)(?:\s+in\s+(?:what|how|where|which|when|terms\s+of)\b.*)?[\s?.]*$", re.IGNORECASE)
_BETWEEN = re.compile(r"\b(?:differences?|distinction|contrast)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)[\s?.]*$",
                      re.IGNORECASE)
_AGAINST = re.compile(r"^\s*(?:(?:what|how|which|why|who)\s+(?:\w+\s+)?(?:does|do|did|is|are|was|were)\s+)?"
                      r"(?P<a>.+?)\s+(?:compared?\s+(?:with|to)|versus|vs\.?|as opposed to|relative to)\s+"
                      r"(?P<b>.+?)[\s?.]*$", re.IGNORECASE)
# a sentence that says both sides sets them against each other when it says one of these; otherwise it is about
# the side it names first ("Criteria- versus score-based: A criteria-based TA assumes …" describes criteria only)
_CONTRAST = re.compile(r"\b(?:whereas|unlike|in contrast|by contrast|while|rather than|instead of|as opposed to|"
                       r"compared (?:with|to)|than)\b", re.IGNORECASE)
# "What does X gain and lose …?", "the advantages and disadvantages of X": two sides of one thing, what is for it
# and what is against it, each said by any one of its words
_ASPECTS = re.compile(r"\b(?:gains?|advantages?|benefits?|pros|strengths?|upsides?)\s+and\s+(?:loses?|loss(?:es)?|"
                      r"disadvantages?|drawbacks?|costs?|risks?|limitations?|cons|weakness(?:es)?|downsides?)\b",
                      re.IGNORECASE)
# the same asked apart: "… what does the resource portal model gain, and what are its drawbacks?"
_FOR_ASKED = re.compile(r"\b(?:gains?|advantages?|benefits?|pros|strengths?|upsides?)\b", re.IGNORECASE)
_AGAINST_ASKED = re.compile(r"\b(?:loses?|disadvantages?|drawbacks?|limitations?|cons|weakness(?:es)?|downsides?)\b",
                            re.IGNORECASE)
_FOR = frozenset("benefit benefits advantage advantages gain gains strength strengths upside upsides flexible "
                 "easier simpler improves".split())
_AGAINST_IT = frozenset("drawback drawbacks disadvantage disadvantages lose loses loss losses weakness weaknesses "
                        "downside downsides however limited limitation limitations cannot unable lack lacks "
                        "costly harder".split())
# "How does X differ from Y?": what sets X apart is asked; a sentence sets it apart by a contrast, a limit or a
# downside ("… may not reside on assets … but instead reside at the boundary of a resource enclave", "The downside
# is …"), not by what it shares ("a variation of the device agent/gateway model", "the same process as …")
_DIFFER_ASKED = re.compile(r"\b(?:differs?|different(?:ly)?|differences?)\b", re.IGNORECASE)
_DIFFERENCE = re.compile(r"\b(?:instead|rather than|unlike|whereas|in contrast|by contrast|however|downsides?|"
                         r"drawbacks?|disadvantages?|cannot|unable)\b", re.IGNORECASE)
_LIKENESS = re.compile(r"\b(?:same|similar(?:ly)?|likewise|variations?|hybrid|identical)\b", re.IGNORECASE)
_PART = re.compile(r"[a-z0-9]+")
SAID_SHARE = 0.5  # a sentence says a side when it says this share of the side's own words
_ONE = re.compile(r"\bones?\s*$", re.IGNORECASE)  # a side named by the other's noun: "a score-based one"
_VAGUE = frozenset({"that", "those", "one", "ones", "scope", "kind", "type", "way"})


@dataclass(frozen=True)
class Sides:
    """Each side's own words (word parts, lower case: "criteria" of "criteria-based") and their initials."""

    own: tuple[frozenset[str], frozenset[str]]
    initials: tuple[str, str]
    share: float = SAID_SHARE  # of its own words a sentence says a side with (any one, for what is for or against)

    def said(self, sentence: str, title: str = "") -> set[int]:
        """The sides the sentence describes (0, 1): both when it sets one against the other, else the one it
        names first. `title`: the sub-section the sentence was read in, which names what it points back at."""
        words = _parts(sentence)
        hits = {k: at for k in (0, 1) if (at := self._at(k, words)) is not None}
        if not hits and title:
            titled = _parts(title)
            return {k for k in (0, 1) if self._at(k, titled) is not None}
        if len(hits) == 2 and not _CONTRAST.search(sentence):
            return {min(hits, key=lambda k: hits[k])}
        return set(hits)

    def other_sides(self, term: str, sentence: str, title: str = "") -> bool:
        """Is the term a word of the side the sentence does not describe ("Mac" for "iPad net sales decreased …"
        asked "How did iPad net sales compare with Mac net sales?")? A sentence on one side need not say it: the
        other side is answered by a sentence of its own."""
        parts = set(_parts(term))  # "TIC 3" of TIC 3.0 against TIC 1.0: a word both share ("TIC") names neither
        return any(parts & self.own[1 - k] and not parts & self.own[k] for k in self.said(sentence, title))

    def titled(self, title: str) -> int | None:
        """The side a sub-section's title is about: the one more of whose own words it says ("7.1 Pure Zero Trust
        Architecture" of a pure ZTA against a hybrid one; "7.2 Hybrid ZTA and Perimeter-Based Architecture" says
        one word of the first side and three of the second). A title says few of a side's words, and the side
        that says more is the one it names; None when neither says more."""
        parts = set(_parts(title))
        said = [len(parts & self.own[k]) for k in (0, 1)]
        return None if said[0] == said[1] else int(said[1] > said[0])

    def _at(self, side: int, words: list[str]) -> int | None:
        """Where the words first say the side: enough of its own words, or its initials as a word."""
        own, initials = self.own[side], self.initials[side]
        places = [i for i, w in enumerate(words) if w in own or (len(initials) >= 2 and w == initials)]
        said = {words[i] for i in places}
        if initials in said or (own and len(said & own) >= max(1.0, self.share * len(own))):
            return places[0]
        return None


def asked_aspects(question: str) -> Sides | None:
    """What is for and what is against the thing asked about, when the question asks both ("gain and lose",
    "advantages and disadvantages"); None otherwise."""
    text = " ".join(question.split())
    asked = _ASPECTS.search(text) or (_FOR_ASKED.search(text) and _AGAINST_ASKED.search(text))
    return Sides((_FOR, _AGAINST_IT), ("", ""), 0.0) if asked else None


def asked_difference(question: str) -> Sides | None:
    """The two sides of a question asking how one differs from the other; None for any other question."""
    if not _DIFFER_ASKED.search(question):
        return None
    return next((s for s in compared_sides(question) if s.own != (_FOR, _AGAINST_IT)), None)


def states_difference(sentence: str) -> bool:
    """Does the sentence set its subject apart (a contrast, a limit, a downside) without saying what it shares?"""
    return _DIFFERENCE.search(sentence) is not None and _LIKENESS.search(sentence) is None


def compared_sides(question: str) -> list[Sides]:
    """The two things a comparison sets against each other, and what is for and what is against the thing asked
    about when it asks both ("gain and lose"); empty for a question that is no comparison (or whose sides have no
    words of their own)."""
    text = " ".join(question.split())
    aspects = asked_aspects(text)
    out = [aspects] if aspects is not None else []
    match = _HOW.match(text) or _BETWEEN.search(text) or _AGAINST.match(text)
    if match is None:
        return out
    a, b = (set(_parts(" ".join(tokenize(_ASPECTS.sub(" ", match[k]))))) - _VAGUE for k in ("a", "b"))
    if _ONE.search(match["b"]):  # "… differ from a score-based one": the one is a trust algorithm too
        named = [w for w in _parts(" ".join(tokenize(match["a"]))) if w not in _VAGUE]
        shared = [i for i, w in enumerate(named) if w in b]
        b |= set(named[shared[-1] + 1:] if shared else named[-1:])
    own = (frozenset(a - b), frozenset(b - a))
    if not all(own):
        return out
    return [Sides(own, (_initials(match["a"]), _initials(match["b"]))), *out]


def _parts(text: str) -> list[str]:
    """The word parts of a text in order, lower case: hyphens and slashes split ("agent/gateway", "score-based")."""
    return _PART.findall(text.lower())


def _initials(side: str) -> str:
    """'zta' of "a zero trust architecture": the initials of the side's content words (those it shares with the
    other side included: an acronym spells the whole name)."""
    words = [w for w in _parts(" ".join(tokenize(side))) if w not in _VAGUE and not w.isdigit()]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""
