"""Items a sub-section gives one sentence each, in prose: "What risks come from letting NPEs help administer a ZTA?"

Section 5.7 of the NIST publication has no list of risks; it says them a sentence at a time: "The biggest risk …
is the possibility of false positives …", "The associated risk is that an attacker will be able to induce or coerce
an NPE …", "There is also a risk that an attacker could gain access to a software agent's credentials …". The
ranking leads with the one most like the question and the answer stopped there, one risk of three. When the lead
names the asked kind of item and its sub-section has other sentences naming it, those are the answer, in the
document's order.
"""

from __future__ import annotations

import re

from ...retrieval.view import MemoryView
from ...text.tokens import stems
from .answering import Answer
from .evidence import words_in
from .titled_section import own_sentences, within_words

# a sentence naming three items or more itself: "A, B and C", "A, B, and C" (an "and" after a comma; read
# from each comma to the next only, so a hostile sentence without commas is one pass)
_LAST_ITEM = re.compile(r",[^,;]*?\s(?:and|or)\s+\S")
MIN_NAMING = 2  # sentences of the sub-section naming the kind, the lead among them
MAX_SECTION_WORDS = 600  # a sub-section longer than this is a chapter: its sentences naming the kind are scattered


def kind_sentences(answer: Answer, view: MemoryView, kind: frozenset[str], limit: int) -> Answer:
    """The sentences of the lead's sub-section naming the `kind` (stems) of item asked, in order, while `limit`
    words allow; the answer as it was when its lead is a row, names the items itself, does not name the kind, or
    is the only one that does."""
    if not kind or not answer.used or answer.used[0].row or not answer.used[0].section:
        return answer
    lead = answer.used[0]
    # "… consist of the Americas, Europe, Greater China, Japan and …": it names them all
    if "," in lead.text and _LAST_ITEM.search(lead.text):
        return answer
    read = [ev for ev in own_sentences(lead.section, view) if not ev.row]
    if words_in(read) > MAX_SECTION_WORDS:
        return answer
    naming = [ev for ev in read if kind & set(stems(ev.text))]
    if len(naming) < MIN_NAMING or not kind & set(stems(lead.text)) or lead.text not in {ev.text for ev in naming}:
        return answer
    used = within_words(naming, limit)
    return Answer(" ".join(ev.text for ev in used), used, answer.score) if len(used) > 1 else answer
