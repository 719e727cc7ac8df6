"""The "why" of a yes/no question that also asks it ("Does a ZTA improve security posture over perimeter-based
security, and why?").

The verdict's sentence says that the thing holds ("A properly implemented ZTA … will improve the enterprise's
cybersecurity posture …"); the ranking's next best sentences say it again in other words (the abstract's "zero
trust could improve …"), so an answer of the best sentences gave the verdict twice and the reason never. The reason
is a sentence that gives a cause or a purpose ("The tenets of ZTA aim to reduce the exposure of resources …"),
looked for first where the answer's sentences were read (their sub-section: a document says why beside what it
claims), then among the best of the ranking; when none gives one, the answer says that part is not found rather
than leave it unanswered.
"""

from __future__ import annotations

import re

from ..protocol.not_found import NOT_FOUND
from .answering import Answer
from .ranking import Ranked

REASON_POOL = 12  # the best sentences of the ranking a reason is looked for in, past the answer's sub-sections
# a cause ("due to", "because", "as a result of") or a purpose ("aim to", "designed to", "in order to", "so that")
_REASON = re.compile(r"\b(?:because|due\s+to|owing\s+to|as\s+a\s+result\s+of|results?\s+from|resulted\s+from|"
                     r"driven\s+by|attributable\s+to|(?:aims?|aimed|designed|intended|meant)\s+to|in\s+order\s+to|"
                     r"so\s+as\s+to|so\s+that|the\s+reason)\b", re.IGNORECASE)


def gives_reason(sentence: str) -> bool:
    """Does the sentence give a cause or a purpose?"""
    return _REASON.search(sentence) is not None


def with_reason(answer: Answer, ranked: Ranked | None) -> Answer:
    """The answer with a sentence giving the reason after it, unless one of its sentences gives it already; with
    "Why: not found" when the evidence gives none."""
    if ranked is None or any(gives_reason(ev.text) for ev in answer.used):
        return answer
    pool, used = ranked.pool, {ev.text for ev in answer.used}
    sections = {ev.section for ev in answer.used if ev.section}
    near = [i for i in ranked.order if pool[i].section in sections]
    best = [i for i in ranked.order[:REASON_POOL] if i not in near]
    reason = next((pool[i] for i in near + best
                   if pool[i].text not in used and not pool[i].row and gives_reason(pool[i].text)), None)
    if reason is None:
        return Answer(f"{answer.text} Why: {NOT_FOUND}", answer.used, answer.score)
    return Answer(f"{answer.text} {reason.text}", [*answer.used, reason], answer.score)
