"""What a sentence denies of what the question takes for granted: a near miss no word check sees.

"What decision did Kennedy immediately make on the status of the Apollo program?" presumes he made one; the
sentence that repeats its words says "he did not immediately come to a decision on the status of the Apollo
program". "Besides Lepidodinium, which dinophyte has a chloroplast not from the rhodoplast lineage?" presumes
another; the sentence says "Lepidodinium is the only dinophyte that has …". Every word matches, so the ranking
and the found model take the sentence for the answer; what it says is that there is none. A yes/no question is
answered by such a sentence ("No."), and one asking with a negation of its own ("Why did he not …?") asks about
the negation, so neither is read here.
"""

from __future__ import annotations

import re

from ...text.asks import COUNT_WORDS
from ...text.tokens import STOPWORDS, stem
from .verdict import is_yes_no, lower_words

# a plain negation of a verb ("did not", "never", "cannot"); "no" negates a noun ("no nucleomorph") and is left out
_NOT = frozenset({"not", "never", "cannot"})
_CASED = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
# "It was not until the late 1950s that ABC became …", "not only … but": no denial
_NOT_DENYING = frozenset({"until", "till", "only", "just", "merely", "simply", "least"})
_BEFORE, _AFTER = 1, 5  # the words a negation bears on
DENIED_WORDS = 2  # this many of the question's content words in its reach: the asked predicate, not a side clause
# "Besides X, which …?", "Other than X, who …?": another one than X is presumed
_BESIDES = re.compile(r"^\W*(?:besides|other\s+than|apart\s+from|aside\s+from|except(?:\s+for)?|in\s+addition\s+to)\s+"
                      r"(?P<named>[^,?]{1,80}),", re.IGNORECASE)
# "with Luther's approval" said of a question asking "without Luther's approval" (or the other way round)
_WITH = re.compile(r"\b(with|without)\s+([\w'’]+)", re.IGNORECASE)
# "Outside the United States the church is divided into seven central conferences": a place or group set aside
_SET_ASIDE = re.compile(r"\b(?i:outside(?:\s+of)?|except(?:\s+for)?|excluding|other\s+than)\s+(?i:the\s+)?"
                        r"((?:[A-Z](?:[\w'’-]|\.(?=\w))*\.?\s*){1,4})")
_ONLY = re.compile(r"\b(?:the\s+only|the\s+sole|alone\s+among|is\s+unique\s+among|(?:is|was|are|were)\s+the\s+one"
                   r"\s+(?:that|which|who))\b", re.IGNORECASE)
# "Besides the Superdome, Sun Life Stadium and Levi's Stadium, which fourth site …?": every one set aside, up to the
# question word
_BESIDES_ALL = re.compile(r"^\W*(?:besides|other\s+than|apart\s+from|aside\s+from|except(?:\s+for)?|in\s+addition\s+to)"
                          r"\s+(?P<named>.{1,160}?),\s*(?:which|what|who|whom|where|when|how)\b", re.IGNORECASE)
# a question asking with a negation of its own ("Which astronaut never flew …?") is met only by a sentence that says
# some negation or privation: "not", "no", "without", "lost", "unused", "rejected", "except" …
_ASKED_NOT = frozenset({"not", "never", "no", "none", "nobody", "nothing", "cannot"})
# a negation after one of these (within _BEFORE_NOT words) is in a side clause, not the asked predicate
_SUBORDINATE = frozenset({"so", "if", "unless", "because", "when", "whether", "order", "lest", "for", "after",
                          "before", "due", "though", "although", "while", "despite", "without", "but"})
# "not always", "not necessarily": a hedge on what is asked, no negation of it ("sometimes but not always counted")
_HEDGED = frozenset({"always", "necessarily", "entirely", "exactly", "quite", "fully"})
_BEFORE_NOT = 4
# a condition's clause runs longer: "… in case the banks on the other side of its hedging contracts can't pay up?"
_CONDITIONS = frozenset({"case", "if", "unless", "whenever"})
_BEFORE_CONDITION = 12
# a premise said before the question proper: "An agency can't lock everything down without stopping work, so how
# is it supposed to handle the risk that's left?" asks how the risk is handled, by no negation
_PREMISE = re.compile(r"^(?!\W*(?:how|what|which|who|whom|whose|why|where|when|is|are|was|were|do|does|did|can|could|"
                      r"should|will|would|has|have|had|may|might|must)\b)[^?]{8,300}?,\s*(?:so\s+|and\s+|but\s+|then\s+)?"
                      r"(?=(?:how|what|which|who|whom|why|where|when)\b)", re.IGNORECASE)
# a question asking how well, how much better or how it compares presumes no fact: "How well do TIC and agency perimeter
# firewalls protect against attacks from the internet, compared with attacks from inside …?" is answered by "…
# less useful for detecting … attacks from inside the network and cannot protect subjects outside …"
_DEGREE = re.compile(r"\b(?:how\s+(?:well|effective(?:ly)?|much\s+(?:better|worse|more|less))|to\s+what\s+"
                     r"(?:extent|degree)|compared?\s+(?:with|to)|versus|vs\.?)\b", re.IGNORECASE)
_PRIVATIVE = re.compile(r"^(?:(?!under|until|union|unit|univers|uniqu|uniform|discover|district|distan|display|discus"
                        r"|distribut|distinct|distingu|dish|disc|mission|missil|mister|uncle|unanim)(?:un|dis|non|mis)"
                        r"[a-z]{4,}|(?:lost|loss|lose|losing|exception|except|outside|less|fewer"
                        r"|cancel|suspend|ceas|abandon|reject|oppos|against|absen|destroy|instead|informal|lack|refus"
                        r"|fail|banned|ban|forb|prohib|avoid|denie|deny|exclud|without|only|rather|rarely|seldom"
                        r"|hardly|unable|neither|nor|none|never|nothing|nobody|no|not|cannot)[a-z]*)$")


def _negation(token: str) -> bool:
    return token in _NOT or token.endswith("n't")


def _content(tokens: list[str]) -> set[str]:
    return {stem(t) for t in tokens if t not in STOPWORDS and not _negation(t) and len(t) > 2}


def denied(question: str, sentence: str) -> list[str]:
    """"not …" with the question's words the sentence negates, or "only" when the question presumes another than
    the one the sentence calls the only one; empty when the sentence denies nothing the question presumes."""
    if is_yes_no(question) or _DEGREE.search(question):
        return []
    out: list[str] = []
    besides = _BESIDES.match(question)
    named = _content(lower_words(besides["named"])) if besides else set()
    if besides is not None and _ONLY.search(sentence) and named <= _content(lower_words(sentence)):
        out.append("only")
    out += _turned_with(question, sentence) + _set_aside(question, sentence)
    out += _all_counted(question, sentence)
    premise = _PREMISE.match(question)
    asked_tokens = lower_words(question[premise.end():] if premise else question)
    if any(_negation(t) for t in asked_tokens):
        return out + _unnegated(asked_tokens, sentence)
    if _ASKED_NOT & set(asked_tokens):  # "no", "none", "nothing": a noun negated, the verb still read below
        out += _unnegated(asked_tokens, sentence)
    asked = _content(asked_tokens) - named
    cased = _CASED.findall(sentence.replace("’", "'"))
    said = [t.lower() for t in cased]
    stems_ = [stem(t) for t in said]
    for i, token in enumerate(said):
        if not _negation(token) or said[i + 1: i + 2] and said[i + 1] in _NOT_DENYING:
            continue
        span = range(max(0, i - _BEFORE), min(len(said), i + _AFTER + 1))
        # a name is what the sentence is about, not what it denies ("has not been given a Nobel Prize" denies the
        # giving, not "declining a Nobel Prize")
        reach = [j for j in span if stems_[j] in asked and not cased[j][:1].isupper()]
        if len({stems_[j] for j in reach}) >= DENIED_WORDS:
            out.append("not " + " ".join(said[j] for j in reach))  # as said: "not immediately decision"
            break
    return out


def _turned_with(question: str, sentence: str) -> list[str]:
    """"with W" where the question asks "without W", or the other way round (W the same word after each)."""
    def pairs(text: str) -> set[tuple[str, str]]:
        return {(m[1].lower(), m[2].lower().replace("’", "'")) for m in _WITH.finditer(text)}

    asked, said = pairs(question), pairs(sentence)
    turned = {"with": "without", "without": "with"}
    return [f"{turned[how]} {word}" for how, word in sorted(asked)
            if (turned[how], word) in said and (how, word) not in said]


def _set_aside(question: str, sentence: str) -> list[str]:
    """A name of the question that the sentence sets aside ("outside the United States") while the question does
    not: what the sentence says is of everything but it."""
    asked = question.casefold()
    out = []
    for match in _SET_ASIDE.finditer(sentence):
        name, how = match.group(1).strip(), match.group(0).split()[0].lower()  # "outside", "except", …
        # the name as a whole word of the question: "other than U.S. Dollars" set aside a "U" that every
        # question with a "u" in it held ("How does Oracle put its results …?")
        if name and re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", asked) and how not in asked:
            out.append(f"{how} {name}")
    return out


def _all_counted(question: str, sentence: str) -> list[str]:
    """"Besides A, B and C, which …?" of a sentence counting exactly those: "narrowed the bids to three sites: A,
    B and C" leaves no other."""
    besides = _BESIDES_ALL.match(question)
    if besides is None:
        return []
    named = [n for n in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", besides["named"]) if n.strip()]
    said = lower_words(sentence)
    content = _content(said)
    if len(named) < 2 or not all(_content(lower_words(n)) <= content for n in named):
        return []
    counted = {COUNT_WORDS.get(t, int(t) if t.isdigit() else 0) for t in said}
    return [f"only {len(named)}"] if len(named) in counted else []


def _unnegated(asked_tokens: list[str], sentence: str) -> list[str]:
    """A question asking by a negation ("never", "no", "not") of a sentence saying none, nor any privation: the
    sentence says the thing happened ("the first scientist astronaut to fly"), not that it did not."""
    if " ".join(asked_tokens).count("not only"):
        return []
    asked = [i for i, t in enumerate(asked_tokens) if t in _ASKED_NOT or t.endswith("n't")]
    if all(_SUBORDINATE & set(asked_tokens[max(0, i - _BEFORE_NOT):i]) or _HEDGED & set(asked_tokens[i + 1:i + 2])
           or _CONDITIONS & set(asked_tokens[max(0, i - _BEFORE_CONDITION):i]) for i in asked):
        return []  # "… so that it is not trapped", "criticized for not jumping": a side clause's negation
    said = lower_words(sentence)
    if any(_negation(t) or _PRIVATIVE.match(t) for t in said):
        return []
    return ["not said: " + asked_tokens[asked[0]]]
