"""An amount a sentence states as a capacity (a limit, an authorisation, what remains available), not as done.

"How much did Apple spend on share repurchases in 2022?" asks what was spent. A filing states beside it what
the board authorised ("authorized ... to purchase up to $405 billion ... of which $344.3 billion had been
utilized") and what remains available: the same words (repurchase, share, 2022), a figure, and not what was
spent. A question for an amount done ("how much did ... / how much was ... spent") is answered by a sentence
telling what was done; one stating only a capacity is read after it.
"""

from __future__ import annotations

import re

# "How much did X spend / pay / repurchase ...", "How much cash did X return ...", "How much was spent ..."
_DONE = re.compile(r"^\s*how much\b(?:\s+\w+){0,2}?\s+(?:did|was|were)\b", re.IGNORECASE)
# a limit or a permission: what may be done, not what was
_CAPACITY = re.compile(r"\b(?:up to|as much as|not to exceed|a maximum of|authori[sz]ed (?:\w+ ){0,8}?to|"
                       r"remain(?:s|ed|ing)? available|available for future)\b", re.IGNORECASE)


def asks_amount_done(question: str) -> bool:
    """'How much did Apple spend on share repurchases in 2022?', not 'How much can Apple repurchase?'."""
    return _DONE.search(question) is not None


def states_capacity(sentence: str) -> bool:
    """Does the sentence state an amount as a limit or a permission ("authorized to purchase up to $405
    billion", "approximately $8.2 billion remained available for stock repurchases")?"""
    return _CAPACITY.search(sentence) is not None


def capacity_not_done(question: str, sentence: str) -> bool:
    """A question for an amount done, and a sentence stating a capacity: read after the sentences that do not."""
    return asks_amount_done(question) and states_capacity(sentence)
