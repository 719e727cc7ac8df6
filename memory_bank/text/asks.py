"""Whether a question asks for several items of one kind: a list, steps, kinds, components, "how many".

Such a question is answered by a section or a list as a whole, not by the two sentences that share its words,
so retrieval brings the section that holds the list forward and the memory block shows its items first.
"""

from __future__ import annotations

import re

_ITEM_NOUNS = (
    r"steps?|stages?|phases?|kinds?|types?|categories|components?|elements?|parts?|pieces|threats?|risks?|"
    r"tenets?|principles?|models?|variations?|approaches|scenarios|use cases?|cases|factors|requirements?|"
    r"features?|functions?|roles?|actions?|measures?|options?|ways?|methods?|strategies|recommendations?|"
    r"goals?|objectives?|benefits?|advantages?|disadvantages?|challenges?|gaps?|areas?|items?|examples?|"
    r"segments?|products?|services?|assumptions?|questions?|attributes?|sources?|uses|deployments?|"
    r"variants?|properties|tasks?|activities|responsibilities|capabilities|limitations?|concerns?|issues?"
)
_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)
_LIST_VERB = re.compile(r"\b(?:list|enumerate|name all|outline|summari[sz]e the)\b", re.IGNORECASE)
_ITEMS = re.compile(rf"\b(?:what|which)\b(?:\s+\S+){{0,5}}?\s+(?:{_ITEM_NOUNS})\b", re.IGNORECASE)
_NOUN_FIRST = re.compile(rf"\b(?:the|its|their)\s+(?:\S+\s+){{0,3}}(?:{_ITEM_NOUNS})\b.*\?", re.IGNORECASE)


def asks_for_items(question: str) -> bool:
    q = " ".join(question.split())
    return bool(_HOW_MANY.search(q) or _LIST_VERB.search(q) or _ITEMS.search(q) or _NOUN_FIRST.search(q))
