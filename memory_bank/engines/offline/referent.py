""""Which deployment model …?" answered by a sentence that says "this model" names the model by its sub-section.

A document describes a thing under a heading and then calls it "this model" ("The primary benefit of this model over
the others is that a software component does not need to be installed on all client devices."): the sentence
answers "Which deployment model does not need software installed on client devices?" but never says which; its
sub-section's title does ("3.2.3 Resource Portal-Based Deployment"). The answer opens with that title when the
question asks which thing, the sentence points at the thing by the question's own noun, and the title names the
kind asked (so a heading about something else is not taken for the thing).
"""

from __future__ import annotations

import re

from ...text.tokens import stem, stems
from .answering import Answer

_WHICH = re.compile(r"^\W*(?:which|what)\s+(?P<kind>[a-z][\w-]{1,30}(?:\s+[a-z][\w-]{1,30})?)\s", re.IGNORECASE)
_POINTING = r"\b(?:this|that|these|those|such)\s+(?:[\w-]+\s+)?"  # "this model", "this deployment model"
_NUMBER = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?|[A-Z]\.\d+(?:\.\d+)*)\s+")  # "3.2.3 ", "B.4.5 "


def titled_referent(question: str, answer: Answer) -> Answer:
    """The answer opened with its lead sentence's sub-section title, when that title is the thing the question asks
    which of and the sentence only points at it; the answer unchanged otherwise."""
    match = _WHICH.match(question)
    if match is None or not answer.found or not answer.used or not answer.used[0].section:
        return answer
    lead = answer.used[0]
    kind = match.group("kind").lower().split()
    if not any(re.search(_POINTING + re.escape(word) + r"s?\b", lead.text, re.IGNORECASE) for word in kind):
        return answer
    title = _NUMBER.sub("", lead.section[-1]).strip()
    named = set(stems(title.replace("-", " ")))
    if not title or not {stem(word) for word in kind} & named or title.lower() in answer.text.lower():
        return answer
    return Answer(f"{title}: {answer.text}", answer.used, answer.score)
