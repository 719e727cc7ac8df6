"""The words a filing's tables use for what a reader asks in everyday terms.

A reader asks for "total debt", "capital expenditures", "R&D spending" or "profit"; the statements label the rows
"Total notes payable and other borrowings" / "Term debt", "Payments for acquisition of property, plant and
equipment", "Research and development", "Net income". A table row is answered when the question says its whole
label (`engines/protocol/table_rows.py`), so the question's stems are widened here by the label words of the
terms it uses. Only stems are added, never removed: a question that already uses the filing's words is unchanged.
"""

from __future__ import annotations

import re

from .tokens import stems

# (what a reader writes, the words statements label it with)
_READER_TERMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), words) for p, words in (
    (r"\b(?:debt|borrowed)\b", "notes payable borrowings term debt"),
    (r"\b(?:capex|capital expenditures?|capital spending)\b",
     "purchases payments acquisition property plant equipment"),
    (r"\bR\s*&\s*D\b", "research development"),
    (r"\brevenues?\b", "total net sales"),
    (r"\bsales\b", "revenues"),
    (r"\b(?:profit|earnings)\b(?!\s+per\b)", "net income"),
    (r"\b(?:buybacks?|bought back|repurchased? (?:its |their )?(?:own )?(?:shares|stock))\b",
     "repurchases common stock"),
    (r"\b(?:operating cash flow|cash flows? from operations)\b", "cash generated provided operating activities"),
    (r"\b(?:pay|pays|paid|payments?)\b[^?.]{0,20}\bdividends?\b|\bdividends? (?:paid|payments?)\b",
     "payments dividends dividend equivalents stockholders shareholders"),
))


def label_terms(question: str) -> list[str]:
    """The question's stems in order, then the label words of the everyday terms it uses."""
    said = stems(question)
    added = [s for pattern, words in _READER_TERMS if pattern.search(question) for s in stems(words)]
    return list(dict.fromkeys(said + added))


def everyday_words(question: str) -> frozenset[str]:
    """The stems of the everyday terms the question uses for what statements label otherwise ("revenue",
    "capex", "profit"): words a table need not say to be the one asked about."""
    return frozenset(s for pattern, _ in _READER_TERMS for m in pattern.finditer(question) for s in stems(m.group(0)))


# what a possessive owns ends at a function word, or a verb a figure question asks how it moved or what it made
_OWNED = re.compile(r"\b[A-Z][\w&.-]*['’]s\s+((?:(?!(?:in|for|during|of|at|on|from|to|by|as|and|or|than|the|a|an|did|"
                    r"does|do|was|were|is|are|has|have|had|go|goes|went|grow|grows|grew|rise|rose|fall|fell|increase|"
                    r"increased|decrease|decreased|change|changed|compare|compared|lower|higher|generate|generated|"
                    r"earn|earned|bring|brought|come|came|reach|reached)\b)[\w-]+\s*){1,5})", re.IGNORECASE)
# words that narrow no figure
_PLAIN = frozenset(stems("total net fiscal annual consolidated overall reported amount amounts figure value number"))


def owned_words(question: str) -> list[str]:
    """The lower-case words of what the question's possessive owns, the words that narrow no figure left out:
    "advertising", "business" of "How much revenue did Apple's advertising business generate?"."""
    owned = _OWNED.search(question)
    return [w for w in (owned.group(1).split() if owned else [])
            if w.islower() and stems(w) and not set(stems(w)) <= _PLAIN]
