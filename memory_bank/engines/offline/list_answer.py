"""Answers that are lists: "What are the tenets …?", "How many deployment models …?", "What are the steps …?".

When the memory block brought a section's outline forward for a question that asks for items (`text.asks`), the
answer is that section's list, or its sub-sections, read from the outline's typed data (`memory.outline`): a
first sentence that answers directly (the count, the kind of item, where the list is), then every item as its
marker or title and its first sentence, whole. Past the word budget a sub-section keeps only its title and a
list stops, saying how many more there are, so a list of forty items still reads on one screen.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ...memory.outline import (
    VAGUE_KINDS,
    Outline,
    OutlineItem,
    OutlineList,
    head_stems,
    kind_named,
    plural_title,
    questions_listed,
)
from ...memory.query_graph import Node, place_label
from ...retrieval.view import MemoryView
from ...text.asks import asked_part, listed_noun
from ...text.coverage import coverage, idf_weights
from ...text.kinds import kind_forms
from ...text.periods import names_period, periods
from ...text.tokens import bare_stem, bare_stems, stems
from ..protocol.memory_block import Selection
from .answering import Answer
from .evidence import Evidence, node_evidence
from .qualifier import elsewhere, qualifier_weights
from .specifics import asked_years

MIN_ITEMS = 2
_NOTE_MARK = re.compile(r"^(?:\(\d{1,2}\)|[*†‡§]{1,3})$")  # "(1)", "*": the marks of a footnote
SUBJECT_SAID = 0.5  # a line says the question's subject when it covers this share of it
QUALIFIER_WORDS = 3  # a question qualifying the items by this many words the list never says asks for one inside
# the verbs a question asks for a list by ("Which models does NIST describe?"): they qualify no item (stemmed)
_NO_QUALIFIERS = frozenset(bare_stems(
    "describe described identify identified discuss discussed present presented list listed give given mention "
    "mentioned name named face faces have has include included provide provided offer offered use used cover "
    "covered explain explained define defined propose proposed recommend recommended outline outlined see seen "
    "consider considered need needed make made exist exists ask asks asked"
    # "How many …", and the document naming itself ("does the publication ask …", "the report lists …"): no
    # qualifier of the items
    " many much publication document report paper filing walk"))
# a sub-section that serves the text, not one of its items: references, notes, a glossary
_APPARATUS = re.compile(r"^\s*(?:[A-Z]?[\d.]*\s+)?(?:references|bibliography|acknowledge?ments|glossary|index|"
                        r"notes|endnotes|footnotes|sources)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class ListConfig:
    max_words: int = 220  # the whole answer; items past it are named by title only
    # ... unless the whole list, every item with its sentence, is at most this share of the budget: a last item
    # cut to a bare title ("- 7.3.7 Expanding the ZTA" after six items with their sentences) reads as a fragment,
    # and its sentence would still fit on the screen
    whole_share: float = 1.25
    detail_words: int = 380  # the same when each item also says what a follow-up asked of it
    max_items: int = 25  # lines listed; the rest counted


@dataclass(frozen=True)
class Item:
    label: str  # "1." for a list item, the title for a sub-section
    text: str  # its first sentence, whole ("" for a sub-section that opens with none)


@dataclass(frozen=True)
class Listing:
    """The list a question asked for: which section, its items in order, how many in all."""

    node: Node
    title: str
    items: list[Item]
    count: int
    numbered: bool  # list items carry their own markers; sub-sections their titles
    heading: str = ""  # the lead-in of a list taken for the period it heads ("Fourth Quarter 2022:"), not its kind
    lead: str = ""  # the sentence announcing the list ("… the following assumptions about network connectivity:")

    def said(self) -> str:
        """What the list says: its section's title, its heading and every item."""
        return " ".join([self.title, self.heading, *(f"{i.label} {i.text}" for i in self.items)])


class ListAnswerer:
    def __init__(self, view: MemoryView, config: ListConfig | None = None,
                 stating: Callable[[str, Listing], Listing] | None = None) -> None:
        """`stating`: per sub-section, the sentence stating it for the question (item_sentence.py), else its first."""
        self.view = view
        self.config = config or ListConfig()
        self.stating = stating

    def listing(self, question: str, selection: Selection) -> Listing | None:
        """The list of the outline the block shows whole, when the question asks for one and it has ≥2 items."""
        whole = next((c for c in selection.nodes if c.whole), None)
        if whole is None:
            return None
        listing = self._outline_listing(question, whole.node, whole.lead_in)
        inner = self._inner(question, listing) if listing is not None else None
        if inner is None and listing is not None and _within_a_category(question, listing):
            return None
        return inner or listing

    def _outline_listing(self, question: str, node: Node, lead_in: str = "") -> Listing | None:
        """`lead_in`: the sentence announcing the section's sub-sections as a list, when the block found one."""
        found = next(((o, e.text) for e in self.view.entries_for(node.id)
                      if (o := Outline.from_metadata(e.metadata)) is not None), None)
        if found is None:
            return None
        outline, text = found
        if outline.lists and node.section():  # the passages of the section, where a note's mark is pointed at
            text += " ".join(e.text for n in self.view.in_section(node.section()) for e in self.view.entries_for(n.id))
        return _best_listing(question, node, outline.model_copy(
            update={"lists": [lst for lst in outline.lists if not footnotes(lst, text)]}), lead_in)

    def _inner(self, question: str, listing: Listing) -> Listing | None:
        """The list of the one sub-section whose title alone says what the question qualifies the items by:
        "What SaaS applications does Oracle offer?" is the list under "Oracle Cloud Software-as-a-Service
        (SaaS)", not the three offerings of "Oracle Applications Technologies" that heads it."""
        if listing.numbered:
            return None
        labels = [bare_stems(i.label) for i in listing.items]
        everywhere = set.intersection(*labels) if labels else set()  # a name every title says qualifies none
        qualifier = _qualifier(question, listing.node) - everywhere
        titled = [k for k, said in enumerate(labels) if qualifier & said]
        if not titled or not qualifier - bare_stems(listing.title):
            return None
        groups = [k for k in titled if _heads(listing, listing.items[k])]
        if len(groups) == 1:  # "… – Hardware Business Offerings" among hardware products' own titles
            return _group(listing, groups[0])
        if len(titled) != 1:
            return None
        path = (*listing.node.section(), listing.items[titled[0]].label)
        child = next((n for n in self.view.section_nodes() if n.section() == path), None)
        return self._outline_listing(question, child) if child is not None else None

    def meets(self, question: str, listing: Listing, evidence: list[Evidence]) -> bool:
        """Does the list meet what the question qualifies its items by, unless another place of the evidence
        does (`qualifier.py`)? "In a hybrid zero trust and perimeter-based enterprise, which shared components
        …?" is not answered by the logical components of §3, which say none of "hybrid", "perimeter-based",
        "shared", while a sentence of §7.2 says most of them."""
        listed = " ".join([*listing.node.section(), listing.lead, listing.said()])
        return self.met_by(question, listed, listing.node, evidence)

    def met_by(self, question: str, said: str, node: Node, evidence: list[Evidence]) -> bool:
        """Does `said`, read in `node`'s section, meet the question's qualifier as well as the evidence read
        elsewhere does? A sentence naming its items ("… broken into two different components: …") is held to it
        like a list."""
        weights = qualifier_weights(question, self.view, _NO_QUALIFIERS | _file_names(node))
        return not elsewhere(weights, f"{' '.join(node.section())} {said}", node.section(), evidence)

    def compose(self, question: str, listing: Listing, details: list[str | None] | None = None) -> str:
        """The answer's text: one line that answers, then the items, within the word and line budgets. `details`:
        per item, the sentence that answers a follow-up asked of every item (item_details.py), said after it."""
        if self.stating is not None:
            listing = self.stating(question, listing)
        per_item: list[str | None] = [d if d is None or d != i.text else None
                                      for d, i in zip(details or [None] * len(listing.items), listing.items)]
        budget = self.config.detail_words if any(per_item) else self.config.max_words
        # a list taken for the period it heads is not said to be of the asked kind: it is what its heading lists
        noun = f"items under “{listing.heading.rstrip(': ')}”" if listing.heading else listed_noun(question) or "items"
        source = listing.node.sources[0] if listing.node.sources else None
        where = (place_label(source.name, source.section, tuple(listing.node.pages()), listing.node.printed_pages())
                 if source else "")
        lead = (f"There are {listing.count} {noun}" if "how many" in question.lower()
                else f"The documents give {listing.count} {noun}")
        lines = [f"{lead} ({where}):" if where else f"{lead}:"]
        words = len(lines[0].split())
        if words + _whole_words(listing, per_item, self.config.max_items) <= self.config.whole_share * budget:
            budget = float("inf")  # the whole list fits on the screen: no item is cut to its title
        for number, (item, detail) in enumerate(zip(listing.items[: self.config.max_items], per_item), start=1):
            if listing.numbered:
                line = f"{number}. {item.text}"
                if words + len(line.split()) > budget and len(lines) > 1:
                    break  # a list item is its whole sentence or nothing: the rest are counted below
            else:
                said = " ".join(t for t in (item.text, detail) if t)
                line = f"- {item.label}: {said}" if said else f"- {item.label}"
                if said and words + len(line.split()) > budget:
                    line = f"- {item.label}"  # past the budget a sub-section is named by its title
            lines.append(line)
            words += len(line.split())
        if listing.count > len(lines) - 1:
            lines.append(f"… and {listing.count - (len(lines) - 1)} more.")
        return "\n".join(lines)

    def answer(self, question: str, listing: Listing) -> Answer:
        """The list as an answer, cited to the section it was read from."""
        return Answer(self.compose(question, listing), [section_evidence(listing)], 1.0)


def _whole_words(listing: Listing, details: list[str | None], max_items: int) -> int:
    """The words of the list's lines with every item said whole (its marker or title, its text, its detail)."""
    return sum(len(f"- {item.label}: {item.text} {detail or ''}".split())
               for item, detail in zip(listing.items[:max_items], details))


def footnotes(lst: OutlineList, text: str) -> bool:
    """Is the list a table's footnotes ("(1) Products net sales include …" under a table whose rows read "iPhone
    (1)")? Each marker is a bracketed number or a note sign, and each is also said elsewhere in the section's
    text, where a row or a word points at it. Notes qualify the items; they are not the items a question asks for."""
    return bool(lst.items) and all(_NOTE_MARK.match(item.marker) and _pointed_at(item, text) for item in lst.items)


def _pointed_at(item: OutlineItem, text: str) -> bool:
    """Is the item's mark said in the text other than where it opens the item itself?"""
    opening = " ".join(item.text.split()[:4])
    return any(not " ".join(text[m.end():m.end() + 2 * len(opening)].split()).startswith(opening)
               for m in re.finditer(re.escape(item.marker), text))


def _best_listing(question: str, node: Node, outline: Outline, lead_in: str = "") -> Listing | None:
    """The outline's list that matches the question best, or its sub-sections taken as the list: each
    candidate weighed by how many of its lines name the kind of item asked for, then by coverage. None when the
    best one is not of the kind asked for: neither the section's title, nor the list's lead-in, nor two of its
    lines name it."""
    candidates: list[tuple[Listing, str]] = [
        (Listing(node, outline.title, [Item(i.marker, i.text) for i in lst.items], lst.count, True), lst.lead_in)
        for lst in outline.lists if lst.count >= MIN_ITEMS]
    kept = [c for c in outline.children if not _APPARATUS.match(c.title)]  # "B.5 References" is no gap
    if len(kept) >= MIN_ITEMS:
        children = [Item(c.title, c.opening) for c in kept]
        candidates.append((Listing(node, outline.title, children, len(children), False), lead_in))
    if not candidates:
        return None
    texts = [[frozenset(stems(lead))] + [frozenset(stems(f"{i.label} {i.text}")) for i in listing.items]
             for listing, lead in candidates]
    weights = idf_weights(stems(asked_part(question)), texts)
    noun = frozenset(stems(listed_noun(question) or ""))
    period = periods(asked_part(question))

    def asked(listing: Listing) -> int:  # items worded as questions, when questions are asked for
        return questions_listed(noun, [item.text for item in listing.items])

    forms = kind_forms(noun) if noun else []

    def of_kind(line: frozenset[str]) -> bool:  # says the asked kind, in any of its words ("Steps" for "stages")
        return any(form <= line for form in forms)

    def score(k: int) -> tuple[bool, int, float]:
        named = sum(of_kind(line) for line in texts[k]) + asked(candidates[k][0])
        return names_period(period, candidates[k][1]), min(named, 3), max(coverage(weights, line) for line in texts[k])

    best = max(range(len(candidates)), key=lambda k: (score(k), -k))
    listing, lead = candidates[best]
    listing = replace(listing, lead=lead)
    # a section's own list is of the kind its title names; its sub-sections only of a kind it names in the plural;
    # a list headed by the quarter asked about ("Fourth Quarter 2022:") is what that quarter brought, of any kind
    title = frozenset(stems(outline.title)) if listing.numbered else plural_title(outline.title)
    # a sub-section is of the kind its title or opening says; a bullet only of the kind its first words say
    heads = [head_stems(i.text) for i in listing.items] if listing.numbered else texts[best][1:]
    if not kind_named(noun, title, texts[best][0], heads) and asked(listing) < MIN_ITEMS:
        if not names_period(period, lead):
            return None  # a list of something else answers no "which companies"
        listing = replace(listing, heading=lead)
    if (not listing.numbered and noun and not noun & VAGUE_KINDS and not of_kind(title)
            and not of_kind(texts[best][0]) and 2 * sum(of_kind(line) for line in heads) < len(heads)):
        return None  # "How many markets …?": two of Item 1's eleven sub-sections open on markets; they are no markets
    worded = sum("?" in item.text for item in listing.items)
    if noun and 2 * worded >= len(listing.items) and not asked(listing) and not noun <= plural_title(lead):
        # "Which federal programs does ZTA interact with?": the CDM program's questions are no programs, though its
        # title and lead-in say "program"; questions a lead-in calls factors ("some factors to consider") are
        return None
    if noun and any(frozenset(stems(item.label)) == noun for item in listing.items):
        return None  # "What does Apple's Services category include?": a list with "Services" among its items lists
        # its peers (iPhone, Mac, …), not what it includes
    if _one_item_answers(weights, noun, frozenset(stems(outline.title)) | texts[best][0], texts[best][1:]):
        return None  # "Which products are in the Wearables category?": one line of a list of categories
    if _subject_unsaid(question, noun, node, frozenset(stems(outline.title)) | texts[best][0], texts[best][1:]):
        return None  # "What risks does Apple face from its reliance on outsourcing partners?": not the categories
    said = f"{outline.title} {lead} " + " ".join(f"{i.label} {i.text}" for i in listing.items)
    if any(year not in said for year in asked_years(asked_part(question))):
        return None  # "… announced in the fourth quarter of 2022": a list that never says 2022 is another list
    return listing


def _one_item_answers(weights: dict[str, float], noun: frozenset[str], head: frozenset[str],
                      lines: list[frozenset[str]]) -> bool:
    """Is the question about one item of the list rather than the list? Its subject (the asked words besides the
    kind of item) is said by one line and not by the list's title or lead-in: "Which products are in the
    Wearables, Home and Accessories category?" meets a list of net-sales notes, one of which names the
    category's products. The line is then the answer, found by the ordinary answerer."""
    subject = {bare_stem(t): w for t, w in weights.items() if t not in noun}
    if not subject:
        return False
    said = sorted((coverage(subject, frozenset(map(bare_stem, line))) for line in lines), reverse=True)
    head_says = coverage(subject, frozenset(map(bare_stem, head)))
    return bool(said) and said[0] >= SUBJECT_SAID and head_says < said[0] / 2 and \
        (len(said) == 1 or said[1] < said[0] / 2)


def _within_a_category(question: str, listing: Listing) -> bool:
    """Does the question ask for items inside one of the list's categories rather than for the categories?
    The list is of sub-sections most of whose titles name the asked kind ("Business Risks", "Financial Risks":
    kinds of risk), and the question qualifies the items by two words or more that no title says ("What risks does
    Apple face related to its global operations?"): the risks it asks for are items under some category, which
    the sentences say, not the categories' names."""
    noun = bare_stems(listed_noun(question) or "")
    labels = [bare_stems(i.label) for i in listing.items]
    if listing.numbered or not noun or 2 * sum(noun <= label for label in labels) <= len(labels):
        return False
    qualifier = _qualifier(question, listing.node) - bare_stems(listing.title)
    return len(qualifier) >= MIN_ITEMS and not any(qualifier & label for label in labels)


def _heads(listing: Listing, item: Item) -> bool:
    """Does the sub-section head a group of those after it: titled by the section's own title and a group
    ("Oracle Infrastructure Technologies – Hardware Business Offerings")?"""
    rest = item.label[len(listing.title):].lstrip()
    return item.label.casefold().startswith(listing.title.casefold()) and rest.startswith(("–", "—", "-", ":"))


def _group(listing: Listing, index: int) -> Listing | None:
    """The sub-sections the group heading at `index` heads: those after it up to the next heading."""
    members = list(itertools.takewhile(lambda item: not _heads(listing, item), listing.items[index + 1:]))
    if len(members) < MIN_ITEMS:
        return None
    return replace(listing, title=listing.items[index].label, items=members, count=len(members))


def _file_names(node: Node) -> set[str]:
    """The words of the node's files' names ("ORACLE_2023_10K.pdf" -> oracle, pdf): the document's own name."""
    return {bare_stem(s) for source in node.sources for s in stems(re.sub(r"[\W\d_]+", " ", source.name))}


def _qualifier(question: str, node: Node) -> set[str]:
    """The question's words besides the kind of item, the verbs it asks by and the document's own name."""
    noun = bare_stems(listed_noun(question) or "")
    return bare_stems(asked_part(question)) - noun - _file_names(node) - _NO_QUALIFIERS


def _subject_unsaid(question: str, noun: frozenset[str], node: Node, head: frozenset[str],
                    lines: list[frozenset[str]]) -> bool:
    """Does the question qualify the items by a subject the list never says? Besides the kind of item and the
    document's own name (its file's, an acronym such as "ZTA", or a name every line says) and the verbs a
    question asks by ("describe", "face"), it names three or more words and the section's title, the
    lead-in and the lines together say fewer than a third of them: "risks … from its reliance on outsourcing
    partners" asks for one risk inside a list of risk categories, which the ordinary answerer finds; "What risks
    does Apple face?" (one word besides) and "What products does the company sell?" (two) ask for the list. A
    name none of them says ("… from its acquisition of Cerner") qualifies the items alone."""
    asked = asked_part(question)
    own = _file_names(node)
    own |= {bare_stem(s) for word in asked.split() if sum(c.isupper() for c in word) >= 2 for s in stems(word)}
    names = {bare_stem(s) for word in asked.split()[1:] if word[:1].isupper() for s in stems(word)}
    if len(lines) >= MIN_ITEMS:  # a name every line says is whose list it is ("Northwind must …")
        own |= names & {bare_stem(s) for s in frozenset.intersection(*lines)}
    subject = bare_stems(asked) - {bare_stem(s) for s in noun} - own - _NO_QUALIFIERS
    said = {bare_stem(s) for s in head.union(*lines)}
    # a name is a qualifier on its own: "What risks does Oracle see from its acquisition of Cerner?" asks for the
    # risks a list of risk categories never ties to Cerner (a name among the subject's words: a question in title
    # case, "What Risks Does Oracle Face?", capitalises the kind of item and the verb it asks by too)
    # most of the subject unsaid: "What steps does Oracle take to protect its customers' data?" is not answered by
    # the revenue recognition steps, whose lines say "customer" and nothing else of it; "Which deployment scenarios
    # or use cases lend themselves to zero trust?" is by the section "Deployment Scenarios/Use Cases" (a third)
    few = 3 * len(subject & said) < len(subject)
    return bool((names & subject) - said) or (len(subject) >= QUALIFIER_WORDS and few)


def section_evidence(listing: Listing) -> Evidence:
    """The citation of a list answer: the section node, its place, the list's first line as the quote."""
    first = listing.items[0]
    return node_evidence(f"{first.label} {first.text}".strip() if listing.numbered else first.label, listing.node)
