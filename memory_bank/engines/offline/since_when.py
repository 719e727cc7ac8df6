""""Since when …?" is answered by the sentence saying since which year.

"Which accounting firm audits Apple, and since what year has it done so?" asks a start. The sentences most like
the part ("We have audited the accompanying consolidated balance sheets …") repeat its words and say no start;
the one that answers ("We have served as Apple Inc.'s auditor since 2009.") says "auditor", not "audits", and
ranks a few places down. Among the best few, the one saying "since" before a year answers.
"""

from __future__ import annotations

import re

from .ranking import Ranked

_ASKS_SINCE = re.compile(r"\bsince\s+(?:what|which)\s+(?:year|date|time)\b|\bsince\s+when\b|\bhow\s+long\s+has\b",
                         re.IGNORECASE)
_SAYS_SINCE = re.compile(r"\bsince\s+(?:(?:January|February|March|April|May|June|July|August|September|October|"
                         r"November|December)\s+)?(?:\d{1,2},\s+)?(?:19|20)\d\d\b")
BEST = 5  # the best sentences of the ranking read for one saying since when


def since_lead(question: str, ranked: Ranked) -> int | None:
    """The index of the best-ranked of the first `BEST` body sentences saying "since <year>", for a question
    asking since when, when it meets every constraint; None otherwise."""
    if not _ASKS_SINCE.search(question):
        return None
    return next((i for i in ranked.body()[:BEST] if not ranked.pool[i].row and _SAYS_SINCE.search(ranked.pool[i].text)
                 and not ranked.near_miss(i)), None)
