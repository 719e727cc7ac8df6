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

from ...text.tokens import STOPWORDS, stem
from .verdict import is_yes_no

_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
# a plain negation of a verb ("did not", "never", "cannot"); "no" negates a noun ("no nucleomorph") and is left out
_NOT = frozenset({"not", "never", "cannot"})
_BEFORE, _AFTER = 1, 5  # the words a negation bears on
DENIED_WORDS = 2  # this many of the question's content words in its reach: the asked predicate, not a side clause
# "Besides X, which …?", "Other than X, who …?": another one than X is presumed
_BESIDES = re.compile(r"^\W*(?:besides|other\s+than|apart\s+from|aside\s+from|except(?:\s+for)?|in\s+addition\s+to)\s+"
                      r"(?P<named>[^,?]{1,80}),", re.IGNORECASE)
_ONLY = re.compile(r"\b(?:the\s+only|the\s+sole|alone\s+among|is\s+unique\s+among)\b", re.IGNORECASE)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("’", "'"))


def _negation(token: str) -> bool:
    return token in _NOT or token.endswith("n't")


def _content(tokens: list[str]) -> set[str]:
    return {stem(t) for t in tokens if t not in STOPWORDS and not _negation(t) and len(t) > 2}


def denied(question: str, sentence: str) -> list[str]:
    """"not …" with the question's words the sentence negates, or "only" when the question presumes another than
    the one the sentence calls the only one; empty when the sentence denies nothing the question presumes."""
    if is_yes_no(question):
        return []
    out: list[str] = []
    besides = _BESIDES.match(question)
    named = _content(_tokens(besides["named"])) if besides else set()
    if besides is not None and _ONLY.search(sentence) and named <= _content(_tokens(sentence)):
        out.append("only")
    asked_tokens = _tokens(question)
    if any(_negation(t) for t in asked_tokens):
        return out
    asked = _content(asked_tokens) - named
    said = _tokens(sentence)
    stems_ = [stem(t) for t in said]
    for i, token in enumerate(said):
        if not _negation(token):
            continue
        span = range(max(0, i - _BEFORE), min(len(said), i + _AFTER + 1))
        reach = [said[j] for j in span if stems_[j] in asked]
        if len({stem(t) for t in reach}) >= DENIED_WORDS:
            out.append("not " + " ".join(reach))  # as the sentence says them: "not immediately decision"
            break
    return out
