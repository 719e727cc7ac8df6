"""A later part of a yes/no question that asks more of the fact the verdict was read from.

"Does Oracle own the main facility where it manufactures its hardware, and where is it?": the second part says no
word of its own ("where is it?"), so its own ranking answered it with whatever sentence of the evidence names a
place ("We also offer Oracle Database as a cloud service …"); the sentence the verdict was read from names it ("We
lease our principal internal manufacturing facility … in Hillsboro, Oregon"). "Did the district court mostly side
with Apple …, and what happened after the ruling?": a document tells events in order, so what came after the
ruling is what its passage says after the sentence telling of it ("… issued an injunction. Epic appealed the
decision."), which the part's own words ("happened", "ruling") do not find.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...text.tokens import bare_stems, stems
from .answering import Answer
from .evidence import Evidence
from .question_types import expected_type, has_type

FOLLOWING = 4  # sentences after the verdict's sentence read for what the part asks
TOLD_AFTER = 2  # sentences after the one telling of the event that say what came after it
# "what happened after the ruling?", "what followed the decision?", "what came next?"
_AFTER = re.compile(r"^\W*what\s+(?:happened|happens|came|followed|was\s+done|did\s+\w+\s+do)\s+"
                    r"(?:after|since|following|next|then)\b(?P<event>[^?]{0,80})", re.IGNORECASE)
_FOLLOWED = re.compile(r"^\W*what\s+followed\b(?P<event>[^?]{0,80})", re.IGNORECASE)
_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")


def followed_on(part: str, first: str, earlier: Answer,
                following: Callable[[Evidence, int], list[Evidence]]) -> Answer | None:
    """The part's answer read from the earlier (yes/no) part's answer and the sentences after its first in its
    passage (`following`): the earlier answer itself when its sentence holds the kind a part of no words of its
    own asks for, or the sentences after the one telling of the event a part asks what came after; None when the
    part asks neither or the passage does not say it."""
    if not earlier.found or not earlier.used:
        return None
    told = [earlier.used[0], *following(earlier.used[0], FOLLOWING)]
    after = _AFTER.match(part) or _FOLLOWED.match(part)
    if after is not None:
        return _after_event(after["event"], told)
    if bare_stems(part) - bare_stems(first):
        return None  # the part says words of its own: its own ranking reads them
    kind = expected_type(part)
    if kind not in ("name", "date", "number"):
        return None
    asked = set(stems(first))
    return earlier if has_type(earlier.used[0].text, kind, asked) else None


def _after_event(event: str, told: list[Evidence]) -> Answer | None:
    """The sentences after the first of `told` that tells of the event ("the ruling" told as "ruled")."""
    words = {_root(s) for s in bare_stems(event) if len(s) > 3}
    at = next((i for i, ev in enumerate(told) if words and words <= {_root(s) for s in bare_stems(ev.text)}), None)
    if at is None:
        return None
    after = told[at + 1: at + 1 + TOLD_AFTER]
    if not after:
        return None
    return Answer(" ".join(ev.text for ev in after), after, 1.0)


def _root(word: str) -> str:
    """A word without its inflection's ending ("ruling", "ruled" -> "rul"): an event asked by its noun is told by
    its verb."""
    root = _SUFFIX.sub("", word)
    return root if len(root) >= 3 else word
