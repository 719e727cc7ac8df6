"""A figure and what drove it: "What were Oracle's total revenues in fiscal 2023 and what drove the change?", "Is
Apple's gross margin improving, and why?".

The figure is a table row (its label, each year and the unit); the reason is in the discussion, in a sentence that
says the row's words and gives a cause ("increased … primarily due to revenue contributions from our acquisition of
Cerner"). Ranked by the question's words alone, a sentence that says "change" ("this change in accounting
estimate decreased our total operating expenses") or a narrower subject's reason ("Services gross margin
percentage increased …") beats it, and a "% of Total Revenues" row is named by the same words as the total's. So
the row is the subject's own (its share row only when the question asks for a share), and the reason is chosen
among the sentences that say the row's words with a cause, best ranked first; without one the answer says
plainly that the documents do not give the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...retrieval.view import MemoryView
from ...text.tokens import bare_stems, stems
from ..protocol.figures import NamedRow, TableIndex, trend_of
from ..protocol.not_found import NOT_FOUND
from .answering import Answer, Answerer
from .evidence import Evidence, distinct
from .figure_answer import answering_rows, asks_share, names_share, of_shares, row_evidence, unsaid_words
from .passage import node_sentences
from .verdict import trend_verdict

_ASKS_CAUSE = re.compile(r"\b(?:why|what (?:drove|drives|caused|causes|explains|explained|led to|leads to|is behind|"
                         r"was behind|accounts? for|accounted for|contributed to)|reasons?)\b", re.IGNORECASE)
# the wording a filing's discussion gives a change's cause in
_CAUSAL = re.compile(r"\b(?:due (?:\w+ )?to|because|driven by|attributable to|as a result of|result(?:ed|s)? from|"
                     r"primarily from|owing to|reflect(?:s|ed|ing)?)\b", re.IGNORECASE)
# "… due to growth in our cloud services revenues as customers purchased …": a clause opened by "as", its subject
# and a past verb, gives the cause of the change named before it (not "such as", "as well as", "as reported")
_AS_CAUSE = re.compile(r"(?<!such )(?<!well )\bas (?!well\b|a percentage\b|\w+ly\b)(?:[a-z]+ ){1,3}[a-z]+ed\b")
_CHANGED = re.compile(r"\b(?:increase[sd]?|decrease[sd]?|grew|grow(?:s|n|th)?|declined?|declines|rose|risen|fell|"
                      r"improved?|higher|lower|up|down)\b", re.IGNORECASE)  # the change a reason is given for
# "… lower operating margins … than our cloud and license business due to …" compares two things, not two years
_LEVEL_THAN = re.compile(r"\bthan\b(?!\s+(?:in\s+|for\s+|during\s+)?(?:the\s+)?(?:fiscal\s+)?(?:\d{4}|prior|previous|"
                         r"last|a\s+year))", re.IGNORECASE)
_CHOICE = re.compile(r"\b(?:compare[sd]?|compared|versus|vs\.?|faster|slower|differ\w*|which)\b", re.IGNORECASE)
_QUALIFIERS = frozenset({"total", "net", "totals"})
# "The increase in interest expense was partially offset by lower interest expense that resulted from …": what
# held the change back, after what drove it ("… increased … primarily due to higher average borrowings")
# (not "… increased due to X, partially offset by Y": that sentence gives the cause, and the offset after it)
_OFFSET = re.compile(r"\b(?:was|were|is|are|been|be)\s+(?:\w+ly\s+|more\s+than\s+)?offset\b", re.IGNORECASE)
_PERCENTAGE = re.compile(r"\bpercentages?\b", re.IGNORECASE)
MAX_SECTIONS = 8  # sections read for a row's discussion (a line item repeated in every note is not read in all)
REASON_WORDS = 90  # a second reason is shown while the reasons stay this short
REASONS = 2  # the reason sentences shown at most (a total's reason is often told part by part)


def asks_cause(question: str) -> bool:
    """Does the question ask what drove something, not which of two things did more ("Compare iPhone and iPad net
    sales: which grew, and why?" is answered side by side)?"""
    return bool(_ASKS_CAUSE.search(question)) and not _CHOICE.search(question)


def subject_row(question: str, tables: TableIndex, view: MemoryView) -> NamedRow | None:
    """The row of the figure asked about: the one the question names with a year, else the best agreed-on row
    whose label it says; a share row ("% of Total Revenues") only when the question asks for a share. None when
    the question names its subject by a word the documents never say (but its file's name: "Apple" of a filing
    that calls itself "the Company"): "quantum computing revenue" is no "Total revenues" row, and the ordinary
    answer says what the documents do not."""
    unsaid = unsaid_words(question, view)
    share = asks_share(question)
    rows = [r for r in answering_rows(question, tables, view) or tables.label_rows(question)
            if (share or not names_share(r.row.name)) and not _beyond(unsaid, r, view)]
    asked = bare_stems(question)
    # a share asked for is a row of shares before the amount it is a share of ("total margin percentage of the
    # cloud and license business": "Total Margin %", not the segment note's "Cloud and license: Margin", which
    # says more of the question's words); a row the question names by its whole label before one named by its
    # own word under a heading ("Revenues: Hardware", not "Total Revenues by Business: Hardware", whose section
    # discusses the total)
    return max(rows, key=lambda r: (share and of_shares(r), not r.row.own or r.row.label - _QUALIFIERS <= asked,
                                    r.agree, len(r.row.label & asked)), default=None)


def _beyond(unsaid: list[str], row: NamedRow, view: MemoryView) -> bool:
    """Is a word of the documents' unsaid ones more than a word of the row's file name?"""
    filed = set(re.findall(r"[a-z]+", row_evidence(row, view.node(row.node_id)).source.casefold()))
    return any(w.casefold() not in filed for w in unsaid)


def _last(name: str) -> str:
    return name.rsplit(":", 1)[-1].strip().casefold()


def discussed(row: NamedRow, tables: TableIndex, view: MemoryView) -> list[Evidence]:
    """The sentences of the sections holding a table with the row's label: a filing explains a line's change
    beside the discussion's table of it ("Total Revenues and Operating Expenses"), which the question's own
    evidence may miss when a statement's table of the same line ranked first."""
    own = _last(row.row.name)  # "Total Revenues by Business: Total revenues" is a "Total revenues" row too
    # "Greater China: Net sales" of a note is the "Greater China" row of the discussion's "Net sales by reportable
    # segment" table: the words that name it beyond the line item name it there
    naming = {w for w in row.row.label if w.isalpha()} - bare_stems(own) - _QUALIFIERS
    sections = {entry.section for entry, _ in view.table_entries() if entry.section
                and any(r.label == row.row.label or _last(r.name) == own or (naming and naming <= r.label)
                        for r in tables.rows_of(entry).values())}
    out: list[Evidence] = []
    for section in sorted(sections)[:MAX_SECTIONS]:
        out += [ev for node in view.in_section(section) for ev in node_sentences(view, node)]
    return out


def _says(label: str, text: str) -> bool:
    """Does the text say the label's words together, in its order ("our total revenues increased …", not "our
    total services revenues increased …")?"""
    words = [w for w in stems(label) if w.isalpha()]
    said = stems(text)
    return bool(words) and any(said[i: i + len(words)] == words for i in range(len(said)))


def _gives_cause(text: str, core: set[str]) -> bool:
    """Does a cause follow the row's words and a change? Any of the sentence's causal words may be the one: "the
    business' revenues increased … due to growth in our cloud services revenues as customers purchased …" gives
    the total's cause first, then the cloud services' own."""
    for cause in [*_CAUSAL.finditer(text), *_AS_CAUSE.finditer(text)]:
        before = text[: cause.start()]
        if core <= bare_stems(before) and _CHANGED.search(before) and not _LEVEL_THAN.search(before):
            return True
    return False


def cause_answer(question: str, row: NamedRow, evidence: list[Evidence], answerer: Answerer,
                 where: Callable[[Evidence], str], verdict: Callable[[str, str], str] | None,
                 tables: TableIndex, view: MemoryView) -> Answer:
    """The row, whole, with its place; then the best sentences that say its words before giving a cause (what
    changed, not what caused another line's change: "Americas net sales increased … due to … Mac"), those saying
    its label as one phrase first (or a plain "not found" for the reason). `verdict`: a yes/no question's, read
    from the reason."""
    cited = row_evidence(row, view.node(row.node_id))
    core = {s for s in row.row.label if s.isalpha()} - _QUALIFIERS  # "Mac (1)": its footnote aside
    told = [ev for ev in distinct(evidence + discussed(row, tables, view))
            if not ev.row and _gives_cause(ev.text, core)]
    if of_shares(row):  # a share's reason says the share ("Total margin as a percentage of revenues … decreased
        # … due to expenses growth"), not the amount's ("… total margin increased … due to increases in revenues")
        told = [ev for ev in told if names_share(ev.text)] or told
    ranked = answerer.rank(question, told)
    home = tuple(row.entry.section)  # the row's own section's reason before another's of the same template
    amount = not of_shares(row)  # an amount's reason before its percentage's ("gross margin percentage increased")
    order = sorted(ranked.order, key=lambda i: (not _says(row.row.name, ranked.pool[i].text),
                                                ranked.pool[i].section != home,
                                                _OFFSET.search(ranked.pool[i].text) is not None,
                                                amount and _PERCENTAGE.search(ranked.pool[i].text) is not None)
                   ) if ranked else []
    reasons: list[Evidence] = []
    for ev in (ranked.pool[i] for i in order[:REASONS]) if ranked is not None else ():
        if not reasons or (sum(len(r.text.split()) for r in [*reasons, ev]) <= REASON_WORDS
                           and not (ev.section and reasons[0].section and ev.section != reasons[0].section)):
            reasons.append(ev)  # a second reason while the answer stays short enough to read, told where the first is
    lines = [f"{row.shown()} ({where(cited)})"]
    lines += [ev.text for ev in reasons] or [f"What drove it: {NOT_FOUND}"]
    said = trend_verdict(question, trend_of(row.row)) if verdict is not None else None
    if said is None and verdict is not None and reasons:
        said = verdict(question, reasons[0].text)
    if said is not None:
        lines[0] = f"{said}. {lines[0]}"
    return Answer("\n".join(lines), [cited, *reasons], 1.0)
