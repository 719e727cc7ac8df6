"""A share asked of one whole, answered with a share of another: "What percentage of Oracle's total workforce are
women?" of "forty percent of the members of our Board of Directors are women". A sentence that gives a percentage
says what it is a percentage of; when each such whole it names shares no word with the question's, it gives no
share of what was asked (and a sentence naming no whole is left to the other checks)."""

from __future__ import annotations

import re

from ...text.tokens import STOPWORDS, bare_stems

# "What percentage of X are …?", "What share of X came from …?": the whole is what follows "of", to the verb
_SHARE_Q = re.compile(r"\bwhat\s+(?:percentage|percent|proportion|fraction|share|portion)\s+of\s+"
                      r"(?P<whole>[^?]{2,80}?)(?=\s+(?:is|are|was|were|do|does|did|has|have|had|came|comes|come|"
                      r"went|goes|go|made|make|makes|live|lives|lived|work|works|worked|hold|holds|held)\b|\s*\?|$)",
                      re.IGNORECASE)
# "42% of our employees", "forty percent of the members of our Board": a share and the whole it is of
_SHARE_OF = re.compile(r"(?:\d[\d.,]*\s*%|\b\w+\s+per\s?cent)\s+of\s+(?P<of>(?:[\w'’&.-]+\s+){0,7}[\w'’&.-]+)",
                       re.IGNORECASE)


def share_of_other(question: str, sentence: str) -> bool:
    """Does the sentence give its shares only of wholes the question's whole shares no word with?"""
    asked = _SHARE_Q.search(question)
    if asked is None:
        return False
    whole = _content(asked.group("whole"))
    wholes = [_content(m.group("of")) for m in _SHARE_OF.finditer(sentence)]
    return bool(whole) and bool(wholes) and not any(whole & of for of in wholes)


def _content(text: str) -> set[str]:
    return {s for s in bare_stems(text) if s not in STOPWORDS and not s.isdigit()}
