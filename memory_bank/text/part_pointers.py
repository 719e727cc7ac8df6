"""A later part of a multi-part question that points back at the part before it ("Who runs the TIC initiative,
and what is it meant to establish?", "What does SDP stand for, and what role does the PA play when a ZTA is built
that way?", "… what privacy problems come with it, and how should an organization handle them?").

Each part is searched and answered on its own (`question_parts.py`), so a part that says "it", "them", "he" or
"that way" names nothing to look for: "what is it meant to establish?" met a sentence of the preface ("It is meant
to aid understanding …"). Its pointer is read as the subject of the part before it, as a conversation's follow-up
is read against the previous question (`follow_up.py`, whose subject reading this shares). A pointer is read only
when it agrees with that subject: "it" with one thing, "they"/"them" with several, "he"/"she" with a name;
"this"/"that" only where they stand alone ("what made that possible?", not "that policy").
"""

from __future__ import annotations

import re

from .follow_up import is_plural, subject_of

# a pronoun that stands for one thing, several things, a person, or the way the part before asked about
_POINTER = re.compile(r"\b(?:(?P<way>(?:that|this)\s++way)|(?P<one>it|its)|(?P<that>this|that)|"
                      r"(?P<many>they|them|their|these|those)|(?P<person>he|him|his|she|her))\b", re.IGNORECASE)
_POSSESSIVE = frozenset({"its", "their", "his", "her"})
# "that" stands alone before a mark, the part's end, or a word said of it ("what made that possible?", "why is
# that so?"); before a noun it is a determiner ("that policy"), which is left as it is
_ALONE = re.compile(r"\s*+(?:[?.,;:!]|$|(?:is|was|does|did|has|had|means?|meant|happens?|happened|possible|"
                    r"works?|worked|done)\b)", re.IGNORECASE)
_WH_CLAUSE = re.compile(r",\s*+(?=(?:what|which|who|how|why|when|where)\b)", re.IGNORECASE)
_WHO_DOES = re.compile(r"^\s*+who\s++(?!(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|"
                       r"should|may|might|must)\b)[\w'’-]++\s++(?P<object>.+)$", re.IGNORECASE)
# "How long do Oracle's employees stay?": an adjective asks of the subject after the auxiliary
_HOW_SO = re.compile(r"^\s*+how\s++(?!many\b|much\b)\w++\s++(?P<aux>is|are|was|were|do|does|did|has|have|had)\s++"
                     r"(?P<rest>.+)$", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z]")
_COUNTED = re.compile(r"^\s*+how\s++(?:many|much)\b", re.IGNORECASE)


def pointed_subject(part: str) -> str:
    """What a later part's pointer stands for: the subject of `part` ("Who runs the Trusted Internet Connections
    initiative?" -> "the Trusted Internet Connections initiative", whose verb opens it; "When Apple sells an
    iPhone, what obligations does the sale include?" -> "obligations", the question after its opening clause);
    "" when it names nothing, or asks how many or how much (what "it" then stands for is not said)."""
    if _COUNTED.match(part):  # "How much did Oracle spend …, and what did it buy?": "it" is no name of it
        return ""
    clauses = _WH_CLAUSE.split(part)
    asked = clauses[-1] if len(clauses) > 1 else part
    does = _WHO_DOES.match(asked)
    if does is not None:
        return subject_of(f"What is {does['object']}")
    how = _HOW_SO.match(asked)
    if how is not None:
        return subject_of(f"What {how['aux']} {how['rest']}")
    return subject_of(asked)


def read_pointers(part: str, subject: str, listed: bool = False) -> str:
    """`part` with its first pointer that agrees with `subject` read as it; unchanged when none does. `listed`: the
    part before asks for a list, whose answer asks "they"/"them" of each of its items (item_details.py)."""
    if not subject or subject.lower() in part.lower():  # the part names it already
        return part
    plural = is_plural(subject) or is_plural(" ".join(subject.split()[:2]))  # "privacy problems come with …"
    for match in _POINTER.finditer(part):
        if match["way"]:
            said = f"with {subject}"
        elif match["that"] and not _ALONE.match(part, match.end()):
            continue
        elif match["one"] and plural or match["many"] and (listed or not plural):
            continue
        elif match["person"] and not _NAME.search(subject):
            continue
        else:
            said = subject
        if match.group(0).lower() in _POSSESSIVE:
            said = f"{said}'" if said.endswith("s") else f"{said}'s"
        return part[:match.start()] + said + part[match.end():]
    return part
