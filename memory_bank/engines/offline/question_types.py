"""What kind of thing a question asks for, and whether a sentence holds something of that kind.

"When ..." wants a date, "How many employees ..." a number counting employees, "How much ..." a number, "Who ..."
a name, "What are the components of X?" a list,
"How does X decide ...?" a manner or means, "What is X?" a definition of X. A sentence holding the asked kind
(that the question does not already contain) is likelier to be the answer than one that only repeats its words.
"""

from __future__ import annotations

import re

from ...text.counts import MARK as COUNT
from ...text.counts import counted_marks
from ...text.tokens import bare_stem, stem
from ...text.trends import asks_change, states_change
from .nlp import MONTHS, has_month, numbers, years

_DATE_Q = re.compile(r"\b(when|what year|which year|what date|what day|what month|what century|what decade|"
                     r"which century|which decade|how long ago|since when)\b")
_NUMBER_Q = re.compile(r"\b(how many|how much|how long|how far|how old|how large|how big|how high|how tall|"
                       r"how deep|how fast|what percentage|what percent|what number|what amount|what size)\b")
# "Which accounting firm audits Apple?" asks who as much as "Who audits Apple?": a person or a body, by name
_WHO_Q = re.compile(r"\b(?:who|whom|whose)\b|\b(?:which|what)\s+(?:[a-z-]+\s+){0,2}?(?:firms?|auditors?|persons?|"
                    r"people|organi[sz]ations?|agency|agencies)\b")
_NAME_Q = re.compile(r"\b(where|which company|which team|what company|what team|what city|"
                     r"what country|which city|which country|what state|which state|what name)\b")
_WORD = re.compile(r"\S+")
WHO = "who"  # a name, of someone or of a body, asked for by "who"
CHANGE = "change"  # a change stated with its cause, asked for by "is it improving, and why?"
# a sentence that says what a pronoun is ("We are a public accounting firm …", "He was an engineer …") describes
# someone it does not name: the names it holds are of others
_IDENTIFIES_PRONOUN = re.compile(r"^\s*(?:we|he|she|they|it|i)\s+(?:is|are|was|were|am)\s+(?:a|an|the)\b",
                                 re.IGNORECASE)
# "How does the policy engine decide ...?" asks for a manner or a means: a sentence saying what is used, by what
# process or on what input ("the trust algorithm is the process used by the policy engine to grant or deny")
_MANNER_Q = re.compile(r"^\s*how (?:does|do|did|is|are|was|were|can|could|should|would|will|has|have|had)\b")
_MEANS = re.compile(r"\b(?:by|through|using|uses?|used|via|based on|according to|process|method|mechanism|"
                    r"algorithm|input|means)\b", re.IGNORECASE)
# "How does X differ from Y?", "What does X gain and lose compared with Y?" asks for a contrast: a sentence that
# sets one against the other ("X is focused on ..., whereas Y ...") or weighs one ("The primary benefit of this
# model over the others ...", "However, limited information ...")
_COMPARE_Q = re.compile(r"\b(?:compared?|comparison|differ|differs|difference|different from|distinguish|versus|vs\.|"
                        r"gain and lose|pros and cons|(?:advantages?|benefits?) and (?:disadvantages?|drawbacks?)|"
                        r"trade-?offs?)\b", re.IGNORECASE)
_CONTRASTS = re.compile(r"\b(?:whereas|unlike|in contrast|by contrast|however|rather than|instead of|as opposed to|"
                        r"versus|benefits?|drawbacks?|advantages?|disadvantages?|trade-?offs?|compared (?:with|to)|"
                        r"differs?|difference)\b", re.IGNORECASE)
# possessive ends: a question with a long run of spaces was tried at every split of it for every term length
_DEFINITION_Q = re.compile(r"^\s*what(?: is|'s| are) (?:an? |the )?(?P<term>[\w\- ]{2,60}?)\s*+\??+\s*+$",
                           re.IGNORECASE)
# "What does the PA do?" is answered by what defines it ("Policy administrator (PA): This component is responsible
# for …"), not by the sentences that use it most
_ROLE_Q = re.compile(r"^\s*what (?:(?:does|do) (?:an? |the )?(?P<term>[\w\- ]{2,40}?) do|is the (?:role|job|function|"
                     r"purpose|responsibility) of (?:an? |the )?(?P<of>[\w\- ]{2,40}?)(?: in [^?]*+)?)\s*+\??+\s*+$",
                     re.IGNORECASE)
# "What are the core components of X?" asks for several things: a sentence that announces or holds a list
# (a bullet, "the following", a colon opening numbered items) is the kind of sentence that answers it
_LIST_Q = re.compile(r"^\s*(?:what|which) (?:are|were) (?:the|its|their|[\w.&-]+['’]s?)\s[^?]*?\b[a-z]{3,}s\b|"
                     # "Which large companies does Oracle name as its competitors?": things of a kind, by name
                     r"^\s*(?:what|which)\s+(?:[a-z-]+\s+){0,2}?[a-z]{3,}[^s\W]s\s+(?:does|do|did|has|have|had)\b",
                     re.IGNORECASE)
# a part of such a list: no sentence end inside ("Amazon.com, Inc.," and "Salesforce, Inc. and" are parts)
_PART = r"(?:[^.;]|\.(?=[\w,]|\s+(?:and|or)\b|\s+[a-z]))"
# ... or names them in one sentence: "The Company's reportable segments consist of the Americas, Europe, Greater
# China, Japan and Rest of Asia Pacific."
_LISTS = re.compile(r"•|:\s*$|\bthe following\b|:\s*(?:\d{1,2}[.)]|[-*])\s|"
                    rf"\b(?:consists? of|comprised? of|comprises?|includes?|including|are|were)\s+{_PART}{{2,80}},"
                    rf"{_PART}{{2,80}},{_PART}{{2,200}}\band\b", re.IGNORECASE)
# the capitalised words of titles and of a report's words for itself: a run of only these names no one
_NOT_SOMEONE = frozenset({"chief", "executive", "financial", "operating", "technology", "legal", "accounting",
                          "officer", "officers", "president", "vice", "senior", "director", "directors", "chair",
                          "chairman", "chairwoman", "board", "company", "management", "principal", "general",
                          "counsel", "secretary", "treasurer", "controller", "head", "member", "members"})
_NOT_A_TERM = frozenset({"of", "in", "for", "on", "to", "by", "with", "from", "that", "which", "when", "where", "why",
                         "how", "who", "does", "did", "do", "name", "purpose", "role", "difference"})


def asks_who(question: str) -> bool:
    """Does the question, or a part of it, ask who ("Who audits Apple, and since when?" expects a date first)?"""
    return _WHO_Q.search(question.lower()) is not None


def expected_type(question: str) -> str:
    q = question.lower()
    if counted_marks(question):  # "How many warriors ... when his wife was captured?" asks for a count
        return COUNT
    if asks_change(question):  # "Is X growing, and why?": a change stated with its cause
        return CHANGE
    if _DATE_Q.search(q):
        return "date"
    if _NUMBER_Q.search(q):
        return "number"
    if _WHO_Q.search(q):
        return WHO
    if _NAME_Q.search(q):
        return "name"
    if _COMPARE_Q.search(q):
        return "contrast"
    if _LIST_Q.search(q):
        return "list"
    if _MANNER_Q.search(q):
        return "manner"
    return ""


def defined_term(question: str) -> str | None:
    """The term a "What is X?" or "What does X do?" question asks to define (at most four words, no relation
    such as "the capital of"), or None."""
    match = _ROLE_Q.match(question) or _DEFINITION_Q.match(question)
    if not match:
        return None
    term = (match.group("term") or match.group("of")).strip()
    words_ = term.lower().split()
    return term if 0 < len(words_) <= 4 and not _NOT_A_TERM & set(words_) else None


def definition(sentence: str, term: str) -> float:
    """How surely the sentence defines the term: 2 for the document's own entry for it, opening the sentence
    ("Policy administrator (PA): This component is responsible for …", "X: …") — a glossary or a list of
    components; 1 for a definition said in passing ("X is …", "X (abbreviation) are …", "X refers to …"); else 0.
    "The PA is also responsible for issuing the command to terminate …" says what the PA does too, but the entry
    is the one a reader asking what the PA does wants first."""
    named = rf"(?:\b{re.escape(term)}\b(?:\s*\([^)]{{1,20}}\))?|\({re.escape(term)}s?\))"
    if re.match(rf"^[\W_]*(?:[\w-]+\s+){{0,5}}?{named}\s*:", sentence, re.IGNORECASE):
        return 2.0
    pattern = rf"{named}(?:\s+(?:is|are|refers to|means|denotes)\b|\s*:)"
    return 1.0 if re.search(pattern, sentence, re.IGNORECASE) is not None else 0.0


def _name_runs(sentence: str) -> list[list[str]]:
    """The names a sentence says after its first word, each as its run of capitalised words ("Apple Inc.",
    "Ernst", "Young LLP"): a run holding a word of the question is the question's own name with a suffix or a
    title, not another name ("We have served as Apple Inc.'s auditor" names no auditor)."""
    runs: list[list[str]] = []
    run: list[str] = []
    for word in _WORD.findall(sentence)[1:]:
        bare = re.sub(r"['’]s$", "", word.strip(".,;:()\"'’")).strip(".")
        if bare[:1].isupper():
            run.append(bare)
        if not bare[:1].isupper() or word[-1:] in ".,;:)\"'":
            if run:
                runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def _no_one(run: list[str]) -> bool:
    """Is the capitalised run a title, a month or a report's word for itself, not someone's name ("Chief
    Financial Officer", "June", "Company"): "He served as our Chief Executive Officer from June 1977" names no
    one a "Who is …?" asks for."""
    return all(w.lower() in _NOT_SOMEONE or w.lower() in MONTHS for w in run)


_TITLE_Q = re.compile(r"(?:['’]s|\bthe|\bits|\btheir|\bour|\bof)\s+(?P<title>(?:[\w-]+\s+){0,3}?(?:officer|president|"
                      r"director|chairman|chairwoman|chair|secretary|treasurer|counsel|controller))\b", re.IGNORECASE)
_PERSON = r"[A-Z][\w'’-]*\.?(?:\s+[A-Z][\w'’-]*\.?){1,3}"  # "Safra A. Catz", "Timothy D. Cook"


def asked_title(question: str) -> str | None:
    """The office a "Who is …?" question asks the holder of ("Who is Oracle's Chief Executive Officer?" ->
    "Chief Executive Officer"), or None."""
    if expected_type(question) != WHO:
        return None
    match = _TITLE_Q.search(question)
    return match.group("title") if match else None


def holds_title(sentence: str, title: str) -> bool:
    """Does the sentence name someone in apposition to the office ("Safra A. Catz, the Chief Executive Officer",
    "By: /s/ Timothy D. Cook Timothy D. Cook Chief Executive Officer", "Chief Financial Officer, Luca Maestri")?
    That names its holder, as a glossary entry defines its term; a sentence that only mentions the office
    ("key personnel, including its Chief Executive Officer") does not."""
    office = rf"(?i:{re.escape(title)})"
    pattern = rf"(?P<a>{_PERSON})[^.;:()]{{0,40}}?{office}|{office}\s*,?\s*(?P<b>{_PERSON})"
    for match in re.finditer(pattern, sentence):
        name = (match.group("a") or match.group("b") or "").split()
        if name and not _no_one([w.strip(".,'’").removesuffix("’s").removesuffix("'s") for w in name]):
            return True
    return False


def has_type(sentence: str, kind: str, question_stems: set[str]) -> bool:
    """Does the sentence hold something of the asked kind that the question does not already contain? (A count,
    `COUNT`, is read off the sentence's count marks by the ranking, which has them already.)"""
    if kind == "date":
        return any(stem(y) not in question_stems for y in years(sentence)) or has_month(sentence)
    if kind == "number":
        return any(n not in question_stems for n in numbers(sentence))
    if kind == WHO and _IDENTIFIES_PRONOUN.match(sentence):
        return False  # "We are a public accounting firm registered with the PCAOB": who "we" are, it does not say
    if kind in (WHO, "name"):
        asked = {bare_stem(q) for q in question_stems}
        return any(not any(bare_stem(stem(w.lower())) in asked for w in run)
                   and not (kind == WHO and _no_one(run)) for run in _name_runs(sentence))
    if kind == "list":
        return _LISTS.search(sentence) is not None
    if kind == CHANGE:
        return states_change(sentence)
    if kind == "manner":
        return _MEANS.search(sentence) is not None
    if kind == "contrast":
        return _CONTRASTS.search(sentence) is not None
    return False
