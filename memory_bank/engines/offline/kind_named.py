"""A sentence naming the kind of item a question asks for is accepted a little below the found model's threshold.

The found model (`found.py`) was fit on SQuAD's one-fact questions; a reader's "What risks come from letting NPEs
help administer a ZTA?" shares few words with "The associated risk is that an attacker will be able to induce or
coerce an NPE to perform some task …" (logit -0.68), and the reply was "not found". A question whose head is the
plural kind of item it asks for ("risks", "threats", "steps") and a sentence naming that kind, meeting every
near-miss constraint, is an answer the model rates this far below its threshold. So is, a little less far, a
sentence answering a question that asks for an account ("How does …?", "What happens …?", `explain_accepts`).
"""

from __future__ import annotations

import re

from ...text.asks import explains, item_noun, kind_is_head
from ...text.reader_concepts import kind_synonyms
from ...text.tokens import stems

KIND_LOGIT = -1.0  # the found model's logit a sentence naming the asked kind needs (the threshold is 0)
# the found model's logit the best sentence needs for a question asking for an account, once no runner-up is
# accepted outright (answering.py): dev3 "What happens to a session … if the approval … is later withdrawn?" -0.64,
# dev2 "how does one of those apps get through …?" -0.42; SQuAD's near misses and made-unanswerable questions are
# mostly who/what/when/how many, which it leaves alone (bench/OFFLINE_RESULTS.md, stop 55)
EXPLAIN_LOGIT = -0.7


def asked_kind(question: str) -> frozenset[str]:
    """The stems of the plural kind of item the question's head asks for ("risk" of "What risks …?"); empty when
    its head is no plural kind, or is a name ("what drove the Services percentage up?": Apple's segment)."""
    noun = item_noun(question)
    if not noun or not noun.endswith("s") or not kind_is_head(question):
        return frozenset()
    said = re.search(rf"(?<=\s){re.escape(noun)}\b", question, re.IGNORECASE)
    if said is not None and said.group(0)[:1].isupper():
        return frozenset()
    return frozenset(stems(f"{noun} {kind_synonyms(noun)}"))  # "dangers": a sentence naming a risk names one


def kind_accepts(kind: frozenset[str], sentence: str, logit: float) -> bool:
    """Does the sentence name the asked kind, rated no lower than `KIND_LOGIT`?"""
    return bool(kind) and logit >= KIND_LOGIT and bool(kind & set(stems(sentence)))


def explain_accepts(question: str, logit: float) -> bool:
    """Is a sentence rated `logit` accepted for a question asking how, why or what happens? An account is worded
    in the document's own terms ("a previous approval is countermanded"), seldom the reader's ("later withdrawn"),
    and a near miss's mark (a name or number in another's place) is a fact, which these questions do not ask."""
    return logit >= EXPLAIN_LOGIT and explains(question)
