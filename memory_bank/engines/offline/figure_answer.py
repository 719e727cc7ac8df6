"""A figure from a table, stated with its row label, year and unit, or an honest "the tables stop at ...".

"What were Oracle's capital expenditures in fiscal 2022?" is answered by the cash-flow statement's row, not by a
sentence of the discussion that repeats the question's words: "Capital expenditures, 2022: (4,511) (millions)".
The row is the one most of the document's tables agree on (`protocol.figures`). Only a question asking for one
figure takes this path ("what was/were ...", "how much ..."): one asking how a figure changed, compared or grew
needs the discussion's reasons, and a yes/no question its verdict.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...memory.interaction_tree import InteractionEntry
from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from ...text.asks import kinds_joined
from ...text.statement_terms import everyday_words, owned_words
from ...text.tokens import STOPWORDS, bare_stems, stems
from ...text.trends import FALLING, RISING
from ..protocol.figures import NamedRow, TableIndex, change_of
from ..protocol.not_found import NOT_FOUND
from ..protocol.table_rows import asked_years
from .answering import Answer
from .evidence import Evidence
from .nlp import MONTHS
from .specifics import specific_terms
from .word_rows import word_rows

# (after a date set first, "As of May 31, 2023, …", and a reader's "roughly")
_ONE_FIGURE = re.compile(r"^\s*(?:(?:as of|at|in|on|for|by) [^?]{1,40}?,\s*)?(?:(?:roughly|approximately|about)\s+)?"
                         r"(?:what (?:was|were|is|are|will be)\b|how much\b|how many\b)", re.IGNORECASE)
# a question that says the unit it wants the figure in asks for one however it opens ("What inventories did Apple
# report …, in millions of dollars?")
_IN_UNITS = re.compile(r"\bin (?:thousands|millions|billions)\b", re.IGNORECASE)
_NOT_ONE = re.compile(r"\b(?:change[sd]?|grow|grew|growth|increase[sd]?|decrease[sd]?|compare[sd]?|compared|"
                      r"faster|slower|why|reason|trend|versus|vs\.?|difference|share of|percentage of)\b",
                      re.IGNORECASE)


_COMPARE = re.compile(r"\b(?:compare[sd]?|compared|versus|vs\.?|faster|slower|more|less|change[sd]?|grow|grew|"
                      r"growth|differ|difference|higher|lower)\b", re.IGNORECASE)


def asks_comparison(question: str) -> bool:
    """'Which grew faster, X or Y?', 'How did X change from 2022 to 2023?', 'How does X compare with Y?'."""
    return bool(_COMPARE.search(question))


# "different" only as "different from": "How many different kinds of partners …?" compares nothing
_CHOICE = re.compile(r"\b(?:compare[sd]?|compared|versus|vs\.?|faster|slower|differ(?!ent\b)\w*|different\s+(?:from|"
                     r"than|to)|change[sd]?)\b", re.IGNORECASE)
_WHICH_OR = re.compile(r"\bwhich\b[^?]*\bor\b", re.IGNORECASE)


def asks_choice(question: str) -> bool:
    """A comparison between things named ("which grew faster: A or B?", "how does A differ from B?"): no list
    of items answers it, even when it says "which ... revenues"."""
    return bool(_CHOICE.search(question)) or (bool(_WHICH_OR.search(question)) and not kinds_joined(question))


_AMOUNT = re.compile(r"\d|\bhow (?:much|many)\b|\b(?:amounts?|totals?|percent(?:age)?|rates?|figures?|numbers?|"
                     r"values?|revenues?|sales|income|expenses?|costs?|margins?|earnings|cash|shares?|price)\b",
                     re.IGNORECASE)


def asks_amount(question: str) -> bool:
    """Does the question ask for a number or name one, so that a table row may answer it? A "how" or "why"
    about something else is answered from prose: a row of figures explains no process."""
    return _AMOUNT.search(question) is not None


def asks_one_figure(question: str) -> bool:
    """'What were total revenues in fiscal 2023?' / 'How much did X spend on R&D in 2021?' but not 'How did
    the share of revenues change from 2022 to 2023?'."""
    return bool(_ONE_FIGURE.search(question) or _IN_UNITS.search(question)) and not _NOT_ONE.search(question)


def unsaid_names(question: str, named: NamedRow, source: str) -> list[str]:
    """The names the question narrows its figure by that the row's table never says: "revenues in China" or
    "How much did Cerner contribute to total revenues?" are not the "Total revenues" row (a narrower figure, in
    prose or nowhere), while "Greater China net sales" is a row of a table that says it. The filer the
    question names ("Apple's", "did Oracle spend") is whose every figure is: a word of the file's name, or a
    name written possessive; a month dates the figure ("as of May 31, 2023"), it narrows none."""
    told = " ".join((named.entry.text, *named.entry.section)).casefold()
    filed = set(re.findall(r"[a-z]+", source.casefold()))
    owners = {m.casefold() for m in re.findall(r"\b([A-Z][\w&.-]*)['’]s\b", question)}
    names = [name for name in specific_terms(question)
             if name.isalpha() and len(name) > 1 and name.casefold() not in filed | owners | MONTH_NAMES
             and not re.search(rf"(?<![a-z]){re.escape(name.casefold())}(?![a-z])", told)]
    said = bare_stems(told) | everyday_words(question)  # "Apple's advertising business" is no "Total net sales"
    return names + [w for w in owned_words(question) if not set(stems(w)) <= said] + _unsaid_source(question, said)


# "How much revenue did Apple earn … from letting other companies offer their search services on its platforms?":
# where the figure comes from, up to a year's phrase or the question's end
_FROM = re.compile(r"\bfrom\s+(?P<source>(?:[\w'’-]+\s+){0,10}?[\w'’-]+)(?=\s+(?:in|during|for)\s+(?:fiscal\s+)?"
                   r"(?:year\s+)?\d{4}\b|\s*[?,.;]|\s*$)", re.IGNORECASE)
UNSAID_SOURCE = 2  # words of a long "from …" phrase the row's table never says: a narrower figure, not the row's


def _unsaid_source(question: str, said: frozenset[str] | set[str]) -> list[str]:
    """The words of the question's "from …" phrase its row's table never says, when there are several ("from
    cloud services" is the table's; "from letting other companies offer their search services" is none of it)."""
    unsaid = [w for m in _FROM.finditer(question) for w in _ASKED_WORD.findall(m.group("source"))
              if not bare_stems(w) & (said | STOPWORDS) and not w.isdigit()]
    return unsaid if len(unsaid) >= UNSAID_SOURCE else []


MONTH_NAMES = frozenset(MONTHS)
_ASKED_WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")
# the words that ask for a change and its cause, not what changed: a document need not say "improving" itself
# "Is interest expense going up, and what is behind it?": the words of a change asked in everyday wording too
_CHANGE_WORD = re.compile(rf"(?:{'|'.join(RISING + FALLING)})\w*|chang\w*|driv\w*|drove|caus\w*|why|reasons?|"
                          r"fiscal|better|worse|go(?:es|ing|ne)?|went|up|down|behind|trend\w*|head(?:ed|ing)",
                          re.IGNORECASE)


def unsaid_words(question: str, view: MemoryView) -> list[str]:
    """The words naming what the question asks about that the documents never say, anywhere: "Is Oracle's
    quantum computing revenue improving, and why?" got "Yes." and the total revenues row, whose label is the one
    word of its subject the filing says. The words asking for a change and its cause are not the subject."""
    words = [w for w in dict.fromkeys(_ASKED_WORD.findall(question))
             if w.lower() not in STOPWORDS and not _CHANGE_WORD.fullmatch(w)]
    said = view.mentions(words) if words else {}
    return [w for w in words if not said.get(w)]


_SHARE = re.compile(r"%|\b(?:percent(?:age)?|share|proportion|margin %)\b", re.IGNORECASE)


def names_share(text: str) -> bool:
    """Does the text name a share ("% of Total Revenues", "as a percentage of revenues", "64%")?"""
    return _SHARE.search(text) is not None


def asks_share(question: str) -> bool:
    """Does the question ask for a share ("what percentage of total revenues …")? One asking how much does not."""
    return names_share(question)


def of_shares(row: NamedRow) -> bool:
    """Is the row one of shares ("Total Margin %", "% of Total Revenues", a value of "64%")?"""
    return names_share(row.row.name) or row.value.rstrip().endswith("%")


def answering_rows(question: str, tables: TableIndex, view: MemoryView) -> list[NamedRow]:
    """The rows naming the question's figure whose tables say every name the question narrows it by, and every
    row label the question says in full: "the gross margin percentage on Mac sales" names the Mac row of net sales
    by category, a table that never says "gross margin percentage" (a measure of other tables), so no row."""
    measures = tables.named_measures(question)
    return [r for r in tables.named_rows(question)
            if not unsaid_names(question, r, row_evidence(r, view.node(r.node_id)).source)
            and all(m <= _table_stems(r) for m in measures)]


def figure_rows(question: str, tables: TableIndex, view: MemoryView) -> list[NamedRow]:
    """The rows answering a question for one figure: those of a label it names (`answering_rows`), else the rows
    of one word it says in tables that say what else it narrows the figure by (`word_rows`)."""
    measures = tables.named_measures(question)
    return answering_rows(question, tables, view) or [
        r for r in word_rows(question, tables)
        if not unsaid_names(question, r, row_evidence(r, view.node(r.node_id)).source)
        and all(m <= _table_stems(r) for m in measures)]


def _table_stems(row: NamedRow) -> frozenset[str]:
    """The stems a row's table says: its text (every row's label and header) and its section's titles."""
    return frozenset(stems(" ".join((row.entry.text, *row.entry.section))))


_HOW_MANY = re.compile(r"\bhow many\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)", re.IGNORECASE)


def counts_asked(question: str, row: NamedRow) -> bool:
    """A "how many …" question is answered by a row that counts what it asks about: its label, heading or header
    says one of the (up to three) words after "how many" ("how many Oracle employees": "approximate employee
    counts"), so "How many kinds of equity award …" is no "Total shareholders' equity" and "How many shares …
    repurchase" no "Common stock repurchased" of dollars. "How many dollars" asks for an amount; any other
    question, for any figure."""
    match = _HOW_MANY.search(question)
    if match is None or match.group(1).lower().startswith("dollars"):
        return True
    return bool(set(stems(match.group(1))) & (row.row.label | row.row.group | row.row.columns))


def same_table(rows: list[NamedRow]) -> list[NamedRow]:
    """The other rows of the first row's list of figures (one measure, `TableRowRef.listed`) the question names,
    each label once: a question naming two of them asks for both ("how many employees … in research and
    development, and how many in hardware?"). A statement's other named rows are no second figure asked for
    ("R&D expense before stock-based compensation" names the compensation it sets aside)."""
    first = rows[0]
    if not first.row.listed:
        return []
    seen = {first.row.label}
    out = []
    for r in rows[1:]:
        if r.entry.entry_id == first.entry.entry_id and r.column == first.column and r.row.label not in seen:
            seen.add(r.row.label)
            out.append(r)
    return out


def figure_text(best: NamedRow) -> str:
    """The figure, then how many of the document's tables give the same value (a reader's check)."""
    text = f"{best.statement()}."
    if best.agree > 1:
        which = f"{best.column} figure" if best.also else "same figure"  # two years asked: the vote was on the first
        text += f" The {which} appears in {best.agree} of the document's tables."
    return text


def row_evidence(named: NamedRow, node: Node) -> Evidence:
    """The citation of a figure: the row line as the quote, from the table's entry and place."""
    return entry_evidence(named.line, named.entry, named.node_id, node)


def entry_evidence(quote: str, entry: InteractionEntry, node_id: str, node: Node) -> Evidence:
    """A citation of a table: `quote` (a row line, a heading), from the table's entry, cited as node `node_id`
    at its place (`node`)."""
    source = str(entry.metadata.get("source", "")) or (node.sources[0].name if node.sources else "")
    return Evidence(quote, node_id, source, tuple(entry.pages), 1.0, node.role,
                    tuple(sorted(entry.printed_pages.items())), 0, tuple(entry.section))


def missing_text(not_found: str, label: str, years: list[str]) -> str:
    """'Not found in the documents. Their tables give “Capital expenditures” for 2023, 2022 and 2021 only.'"""
    given = years[0] if len(years) == 1 else f"{', '.join(years[:-1])} and {years[-1]}"
    return f"{not_found} Their tables give “{label.rstrip(': ')}” for {given} only."  # a header row ends in ':'


def said_in_prose(label: str, years: list[str] | frozenset[str], evidence: list[Evidence]) -> bool:
    """Whether a sentence of the evidence (not a table row) says the label's words with one of the years: the
    discussion may give a year the tables leave out."""
    words = {w for w in re.findall(r"[a-z]+", label.lower()) if len(w) > 2}
    for ev in evidence:
        text = ev.text.lower()
        if "|" not in text and any(y in text for y in years) and all(w in text for w in words):
            return True
    return False


_GROWTH = re.compile(r"\b(?:grew|grow|growth|increased?|rose|rise)\b[^?]*\b(?:faster|more|most)\b|"
                     r"\b(?:faster|more)\b[^?]*\b(?:grew|grow|growth|increased?)\b", re.IGNORECASE)


def asks_growth(question: str) -> bool:
    """'Which grew faster, A or B?', 'Which grew more in 2022, A or B?'."""
    return bool(_GROWTH.search(question))


def growth_text(rows: list[NamedRow], changes: list[str]) -> str:
    """'Research and development grew more: 20% against 14% for Selling, general and administrative.'"""
    def value(change: str) -> float:
        return float(change.rstrip("%").replace(",", "").replace("(", "-").replace(")", "") or 0)

    order = sorted(range(len(rows)), key=lambda i: -value(changes[i]))
    first, others = order[0], order[1:]
    against = "; ".join(f"{changes[i]} for {rows[i].row.name}" for i in others)
    return f"{rows[first].row.name} grew more: {changes[first]}, against {against}."


def rows_answer(question: str, answer: Answer, rows: list[NamedRow], view: MemoryView,
                where: Callable[[Evidence], str], opening: str | None = None) -> Answer:
    """A comparison: which grew more when it asks and the rows give their change; then the rows it names,
    whole (each year's value and the change where the table gives one), each with its place; then what the
    text says of it, when a sentence answers. With an `opening` (a yes/no question's verdict: "Was the 2022
    effective tax rate lower than the statutory rate?") the verdict and that sentence come first, the rows after."""
    used = [row_evidence(r, view.node(r.node_id)) for r in rows]
    grown = [(r, change) for r in rows if (change := change_of(r.row)) is not None]
    lines = [growth_text(*map(list, zip(*grown)))] if asks_growth(question) and len(grown) > 1 else []
    lines += [f"- {r.shown()} ({where(ev)})" for r, ev in zip(rows, used)]
    if answer.found and opening is not None:
        lines.insert(0, opening + answer.text)
        used = answer.used + used
    elif answer.found and not any(" ".join(answer.text.split()).startswith(" ".join(r.shown().split()))
                                  for r in rows):  # the text's best sentence is a row shown above: said once
        lines.append(answer.text)
        used += answer.used
    return Answer("\n".join(lines), used, 1.0)


def one_figure(question: str, evidence: list[Evidence], tables: TableIndex, view: MemoryView) -> Answer | None:
    """The table row the question names, with its year and unit; a not-found answer (`found` False) saying which
    years its tables give when they stop short of the asked year and no sentence gives it; None when no row is
    named."""
    rows = [r for r in figure_rows(question, tables, view) if counts_asked(question, r)]
    if not asks_share(question):  # "How much revenue … in the EMEA region": 12,109, not the 24% of its share row
        rows.sort(key=of_shares)
    if rows:
        cited = row_evidence(rows[0], view.node(rows[0].node_id))
        told = said_beyond_row(question, rows[0], cited.source, evidence)
        if told is not None:  # "$10.0 billion of Commercial Paper outstanding" before the balance sheet's 9,982
            return Answer(f"{told.text} {figure_text(rows[0])}", [told, cited], 1.0)
        instead = said_instead_of_row(question, rows[0], cited.source, evidence)
        if instead is not None:  # the commercial paper's interest rate, not its balance
            return Answer(instead.text, [instead], 1.0)
        also = [f"{r.statement()}." for r in same_table(rows)]  # "… in research and development, and in hardware?"
        return Answer(" ".join([figure_text(rows[0]), *also]), [cited], 1.0)
    missing = tables.missing_years(question)
    asked = [w.strip("?.,") for w in question.split() if w.strip("?.,").isdigit()]
    if missing is None or said_in_prose(missing[0], asked, evidence):
        return None
    label, years = missing
    return Answer(missing_text(NOT_FOUND, label, years), found=False)


_PERCENT = re.compile(r"\d(?:\.\d+)?\s?(?:%|percent\b)")  # a rate or a share, which no amount row gives
# an amount a sentence states: "$10.0 billion", "164,000", "$249 million"
_STATED = re.compile(r"[$€£]?\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(billion|million|thousand)?\b", re.IGNORECASE)
_SCALE = {"billion": 1e9, "billions": 1e9, "million": 1e6, "millions": 1e6, "thousand": 1e3, "thousands": 1e3}
SAME_FIGURE = 0.01  # a figure rounded in prose ("$10.0 billion" of 9,982 millions) is within this share of the row's
# words that narrow no figure ("in fiscal 2023", "for the year")
_PLAIN_WORDS = frozenset(bare_stems("how much many what which was were is are did does do have has had fiscal year "
                                    "years annual total net amount end close"))


def said_beyond_row(question: str, row: NamedRow, source: str, evidence: list[Evidence]) -> Evidence | None:
    """A sentence of the discussion giving the row's figure in the question's own terms, when the question says
    more than the row and its table do: "How much commercial paper did Apple have outstanding as of September 24,
    2022?" is answered "$10.0 billion of Commercial Paper outstanding" by the liquidity discussion, which the
    balance sheet's "Commercial paper … 9,982" (millions) does not say. The sentence says the row's label, the asked
    year and every question word the table leaves unsaid (the filer's name and words narrowing no figure aside),
    and states the row's figure, rounded as prose rounds it."""
    unsaid, needed = _unsaid_by_row(question, row, source)
    figure = _row_figure(row)
    if not unsaid or figure is None:
        return None
    for ev in evidence:
        if not ev.row and needed <= bare_stems(ev.text) and _states(ev.text, figure):
            return ev
    return None


def said_instead_of_row(question: str, row: NamedRow, source: str, evidence: list[Evidence]) -> Evidence | None:
    """A sentence giving another figure of the row's thing in the question's own terms, when the question asks a
    measure the row is not: "What was the weighted-average interest rate on Apple's commercial paper at the end of
    fiscal 2022?" names the balance sheet's "Commercial paper" row (9,982 millions), and is answered by "The
    weighted-average interest rate of the Company's Commercial Paper was 2.31% and 0.06% as of September 24, 2022
    …". The sentence says the row's label, the asked year and every question word the table leaves unsaid, and a
    number: the asked measure is then the sentence's, not the row's."""
    unsaid, needed = _unsaid_by_row(question, row, source)
    if not unsaid:
        return None
    return next((ev for ev in evidence if not ev.row and needed <= bare_stems(ev.text)
                 and _PERCENT.search(ev.text)), None)


def _unsaid_by_row(question: str, row: NamedRow, source: str) -> tuple[set[str], set[str]]:
    """The question's words the row and its table leave unsaid (the filer's name and words narrowing no figure
    aside), and with them the row's label and the asked years: what a sentence must say to answer in its stead."""
    table = bare_stems(" ".join((row.row.name, *(c for c, _ in row.row.cells), *row.entry.section)))
    filed = bare_stems(re.sub(r"[\W\d_]+", " ", source))
    years = {w for w in bare_stems(question) if w.isdigit() and len(w) == 4}
    unsaid = {w for w in bare_stems(question) if w not in STOPWORDS and not w.isdigit()} - table - filed \
        - _PLAIN_WORDS - everyday_words(question)  # "revenues": a word a table need not say
    label = {w for w in row.row.label if w.isalpha()}
    return unsaid, label | unsaid | years


def _row_figure(row: NamedRow) -> float | None:
    """The row's asked value in units ("9,982" of a table in millions: 9.982e9); None for no plain amount."""
    found = _STATED.fullmatch(row.value.strip().strip("$€£()").strip())
    if found is None or found.group(2):
        return None
    unit = row.row.row_unit().lower()
    scale = next((v for k, v in _SCALE.items() if k in unit.split()), 1.0)
    return float(found.group(1).replace(",", "")) * scale


def _states(text: str, figure: float) -> bool:
    """Does the text state the figure, as written or rounded ("$10.0 billion" for 9,982 millions)?"""
    for found in _STATED.finditer(text):
        amount = float(found.group(1).replace(",", "")) * _SCALE.get((found.group(2) or "").lower(), 1.0)
        if figure and abs(amount - figure) <= SAME_FIGURE * abs(figure):
            return True
    return False


_MOVED = re.compile(r"\b(?:change[sd]?|grow|grew|grown|growth|increase[sd]?|decrease[sd]?|rose|rise|fell|"
                    r"declined?)\b", re.IGNORECASE)


def compared_rows(question: str, tables: TableIndex, moved: bool = False) -> list[NamedRow]:
    """The table rows a comparison names: two labels or more, one label asked in two years or more, or, with
    `moved` (not for a yes/no question, whose verdict the row follows), one label asked how it moved ("How much
    did total revenues grow in fiscal 2023?") whose row shows it (two years' values or a change)."""
    rows = tables.label_rows(question, prefer=(lambda row: change_of(row) is not None) if asks_growth(question)
                             else None)
    if moved and len(rows) == 1 and _MOVED.search(question) and _shows_move(rows[0]):
        return rows
    return rows if len(rows) > 1 or (rows and len(asked_years(frozenset(stems(question)))) > 1) else []


def _shows_move(row: NamedRow) -> bool:
    """Does the row give two years' values, or its change?"""
    years = {y for column, _ in row.row.cells for y in re.findall(r"\b(?:19|20)\d\d\b", column)}
    return len(years) > 1 or change_of(row.row) is not None
