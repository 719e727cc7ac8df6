"""A document's parallel passages: what aligns like an edited copy inside one document but states two facts.

The offline conflict is a local edit: long runs of shared words, one value changed (`contradiction.py`). Between
two sources that is a disagreement. Inside one document it is usually the document's own parallel structure, and
each such pair was a pending conflict a user saw on the Query Graph (`bench/document_conflicts.py`: the Apple
10-K raised 35, the Oracle 10-K 63, the NIST PDF 1, every one false):
- two sections written to one template: "Greater China net sales increased ..." / "Europe net sales increased
  ...", one stock plan's terms and another's;
- two rows of one table, which share the table's header words: "Stock-based awards outstanding at May 31, 2020"
  / "Stock-based awards activity from June 1, 2020 ...";
- one clause for two periods or two note series: "Balance as of September 24, 2022" / "... September 28, 2019",
  "the 3.050% 2029 Notes and the 2042 Notes" / "... the 2031 Notes";
- a table's lead-in against its rows, or two lead-ins worded apart, where one side of every difference holds no
  value at all: "Stock-based awards activity ... is summarized as follows" / "... 2,780", "This table includes
  a reconciliation" / "The table below provides a reconciliation".
A document restating one fact two ways inside one section is still a conflict, and so is any pair from two
sources, or from text without sections (pasted notes), where nothing says the passages are parallel.
"""

from __future__ import annotations

import re

from ..models import NodeInfo
from .contradiction import Substitution, align_tokens
from .nlp import MONTHS

_ROW = re.compile(r" \| ")
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
_DAY = re.compile(r"\d{1,2}")
_MONTHS = frozenset(MONTHS)
_NUMBER = re.compile(r"\d[\d,.]*")
# words that name a part of a text or a law by its number: "Section 302", "Exhibit 31.01", "Rule 13a", "Item 7"
_REFERENCE_WORDS = frozenset({"section", "sections", "rule", "rules", "exhibit", "exhibits", "item", "items", "note",
                              "notes", "article", "part", "schedule", "form", "chapter", "appendix", "table",
                              "figure", "clause", "paragraph", "regulation", "title", "volume", "series"})
ROWS_SHARE = 0.5  # of a text's lines: table rows ("label | column: value | ..."), so the text is a table's rows


def _one_structured_document(a: NodeInfo, b: NodeInfo) -> bool:
    return len(a.documents) == 1 and a.documents == b.documents and bool(a.sections) and bool(b.sections)


def _table_rows(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and sum(bool(_ROW.search(line)) for line in lines) >= ROWS_SHARE * len(lines)


def _dates_only(value: str) -> bool:
    """A value made of a date's words with a year among them ("2042", "24 2022", "September 28 2019")."""
    words = value.split()
    return any(_YEAR.fullmatch(w) for w in words) and all(
        _YEAR.fullmatch(w) or _DAY.fullmatch(w) or w.lower() in _MONTHS for w in words)


def _names_a_thing(sub: Substitution) -> bool:
    """The changed value is part of a name, not a measure: a number after a reference word ("Section 906" /
    "Section 302", "Exhibit 31.01") or before a capitalised noun ("the 2042 Notes" / "the 2027 Notes"). Two
    clauses about two named things differ in what each says of its own thing."""
    numbers = _NUMBER.fullmatch(sub.ours) and _NUMBER.fullmatch(sub.theirs)
    if not numbers:
        return False
    before, after = sub.before.split(), sub.after.split()
    return bool(before and before[-1].lower() in _REFERENCE_WORDS) or bool(
        after and after[0][:1].isupper() and after[0].lower() not in _MONTHS and not _NUMBER.fullmatch(after[0]))


def _measures_apart(sub: Substitution) -> bool:
    """Two values whose texts name the measured thing apart just before them ("tax credit carryforwards of
    approximately $1.4 billion" / "operating loss carryforwards of approximately $1.9 billion"): two facts.
    Within one section of one document a fact restated with another value keeps its words before the value."""
    ours, theirs = sub.before.lower().split(), sub.their_before.lower().split()
    return bool(sub.their_before) and len(ours) == len(theirs) == 5 and ours != theirs


def _holds_value(text: str) -> bool:
    """A number, a date or a name among the words (`Token.is_value`, as the conflict itself reads them)."""
    return any(token.is_value() for token in align_tokens(text))


def parallel(a: NodeInfo, b: NodeInfo, a_text: str, b_text: str, distinct: list[Substitution]) -> str | None:
    """Why two nodes that align like an edited copy are two facts of one document (a reason), or None."""
    if not _one_structured_document(a, b):
        return None
    if not set(a.sections) & set(b.sections):
        return "two sections of one document written alike"
    if _table_rows(a_text) and _table_rows(b_text):
        return "two rows of one table"
    if distinct and all(_dates_only(s.ours) and _dates_only(s.theirs) for s in distinct):
        return "one clause of one document for two dates or series"
    if any(_names_a_thing(s) for s in distinct):
        return "one clause of one document for two things it names: what else differs belongs to each"
    if any(_measures_apart(s) for s in distinct):
        return "two measures of one document: the words before the values name two things"
    if distinct and all(not (_holds_value(s.ours) and _holds_value(s.theirs)) for s in distinct):
        return "wording against a value in one document: a lead-in and its rows, not two facts"
    return None
