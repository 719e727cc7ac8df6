"""`MemoryReader`: the read-only view of one task's memory that engines, tools and the adapter read.

Engines get this object, never the `MemoryBank`: they can rank, retrieve, search passages and deep-retrieve, and
nothing they hold can change memory. Each call takes the memory's read lock, so a reader on a worker thread sees
a consistent state while the UI thread reads too.
"""

from __future__ import annotations

import re

from ..memory.interaction_tree import InteractionEntry
from ..memory.query_graph import Node, PendingConflict
from ..memory.store import Memory
from ..text.acronyms import defined_acronyms, spelled_out
from ..text.furniture import Role
from ..text.spelling import MIN_LETTERS, misspelt, words
from .deep_retrieval import DeepRetrieval, DeepRetriever
from .passages import PassageSearch
from .retriever import Retriever
from .view import Mentions, Passage


class MemoryReader:
    """Implements `MemoryView` (see view.py) over the live memory."""

    def __init__(self, memory: Memory, retriever: Retriever, passages: PassageSearch, deep: DeepRetriever) -> None:
        self._memory = memory
        self._retriever = retriever
        self._passages = passages
        self._deep = deep
        self._acronyms: tuple[int, dict[str, str]] = (-1, {})
        self._words: tuple[int, set[str]] = (-1, set())
        self._spelled: tuple[int, dict[str, str | None]] = (-1, {})  # acronym -> its long form, or None
        self._said: tuple[int, dict[tuple[str, str], bool]] = (-1, {})  # (acronym, long form) -> said more

    def ranked(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[tuple[Node, float]]:
        with self._memory.read():
            return self._retriever.ranked(query, k, exclude)

    def retrieve(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        with self._memory.read():
            return self._retriever.retrieve(query, k, exclude)

    def node(self, node_id: str) -> Node:
        with self._memory.read():
            return self._memory.graph.get(node_id)

    def section_nodes(self) -> list[Node]:
        with self._memory.read():
            return [n for n in self._memory.graph.nodes() if n.kind == "section"]

    def front_matter(self) -> list[Node]:
        with self._memory.read():
            nodes = [n for n in self._memory.graph.nodes() if n.role in (Role.COVER, Role.NOTICE)]
        return sorted(nodes, key=lambda n: (n.sources[0].name if n.sources else "", min(n.pages(), default=0)))

    def in_section(self, path: tuple[str, ...]) -> list[Node]:
        with self._memory.read():
            return [n for n in self._memory.graph.nodes() if n.kind != "section" and path
                    and any(s.section[:len(path)] == path for s in n.sources)]

    def neighbors(self, node_id: str) -> list[Node]:
        with self._memory.read():
            return [self._memory.graph.get(n) for n in self._memory.graph.neighbors(node_id)]

    def entries_for(self, node_id: str) -> list[InteractionEntry]:
        with self._memory.read():
            return self._memory.tree.entries_for(node_id)

    def search_passages(self, query: str, k: int) -> list[Passage]:
        with self._memory.read():
            return self._passages.search(query, k)

    def mentions(self, terms: list[str]) -> dict[str, bool]:
        """Whether the task's documents (their raw text) say each term anywhere: as a whole word, in any case,
        with a hyphen or a space between its parts ("peer-to-peer", "peer to peer"), an acronym by the
        capitalised words that spell it, or a long word misspelt by a letter (`text/spelling.py`)."""
        patterns = {t: _term_pattern(t) for t in dict.fromkeys(terms) if t.strip()}
        found = dict.fromkeys(patterns, False)
        with self._memory.read():
            for entry in self._memory.tree.entries.values():
                for term, pattern in patterns.items():
                    if not found[term] and pattern.search(entry.text):
                        found[term] = True
                if all(found.values()):
                    return found
            # an acronym the documents write out ("CEO": "Chief Executive Officer") is mentioned
            found |= {term: True for term in self._long_forms([t for t, said in found.items() if not said])}
            unseen = [t for t, said in found.items() if not said]
            loose = any(t.isalpha() and len(t) >= MIN_LETTERS for t in unseen)
            vocabulary = self._vocabulary() if loose else set()
        # a reader's typo of a long name ("Ologesailie") is the name the documents say ("Olorgesailie")
        return {t: said or misspelt(t, vocabulary) for t, said in found.items()}

    def passages_saying(self, groups: list[tuple[str, ...]]) -> Mentions:
        """Which raw passages (interaction entries) say which group (a term and its other forms, an acronym by its
        long form too): whether a question's names are ever said together ("R&D" and "India" of a filing that
        gives R&D only in total)."""
        with self._memory.read():
            entries = list(self._memory.tree.entries.values())
            spelled = self._long_forms([t for group in groups for t in group])
            patterns = [[_term_pattern(f) for f in dict.fromkeys((*g, *(spelled[t] for t in g if t in spelled)))
                         if f.strip()] for g in groups]
            said = tuple(tuple(any(p.search(e.text) for p in group) for group in patterns) for e in entries)
        return Mentions(said)

    def long_forms(self, terms: list[str]) -> dict[str, str]:
        """For each acronym among the terms that the documents seldom say (in `SELDOM` passages at most) and write
        out more often, the long form they write ("CEO" -> "Chief Executive Officer": a filing says "CEO" only in
        two exhibit titles). An acronym they use ("LM" for the Lunar Module) stays: its sentences say it."""
        with self._memory.read():
            return self._long_forms(terms)

    def _long_forms(self, terms: list[str]) -> dict[str, str]:
        """`long_forms` under the read lock; each acronym's answer is kept until entries are added (a question is
        read twice, by its memory block and by its answer)."""
        entries = self._memory.tree.entries
        if self._spelled[0] != len(entries):
            self._spelled = (len(entries), {})
        known = self._spelled[1]
        for term in dict.fromkeys(terms):
            pattern = spelled_out(term)
            if pattern is None or term in known:
                continue
            said = _term_pattern(term)
            times = sum(said.search(e.text) is not None for e in entries.values())
            written: list[re.Match[str]] = []
            if times <= SELDOM:  # counted only as far as the comparison needs
                for entry in entries.values():
                    if (match := pattern.search(entry.text)) is not None:
                        written.append(match)
                        if len(written) > times:
                            break
            known[term] = " ".join(written[0].group(0).split()) if len(written) > times else None
        return {t: form for t in terms if (form := known.get(t)) is not None}

    def _vocabulary(self) -> set[str]:
        """Every word of the task's documents, lower case (read again when entries are added); under the read
        lock."""
        entries = self._memory.tree.entries
        if self._words[0] != len(entries):
            self._words = (len(entries), set().union(*(words(e.text) for e in entries.values())))
        return self._words[1]

    def acronyms_said(self, pairs: list[tuple[str, str]]) -> set[str]:
        """Each pair's answer is kept until entries are added: a question is read twice, by its memory block and
        by its answer, and every read scans all passages (0.1 s for three acronyms of a 10-K)."""
        with self._memory.read():
            count = len(self._memory.tree.entries)
        if self._said[0] != count:
            self._said = (count, {})
        known = self._said[1]
        missing = [pair for pair in dict.fromkeys(pairs) if pair not in known]
        if missing:
            mentions = self.passages_saying([(form,) for pair in missing for form in pair])
            for i, pair in enumerate(missing):
                known[pair] = mentions.each(2 * i + 1) < mentions.each(2 * i) <= TOPICAL_SHARE * mentions.passages
        return {acronym for acronym, long_form in pairs if known[(acronym, long_form)]}

    def acronyms(self) -> dict[str, str]:
        """The acronyms the task's documents define, with their long forms (read again when entries are added)."""
        with self._memory.read():
            entries = self._memory.tree.entries
            if self._acronyms[0] != len(entries):
                found: dict[str, str] = {}
                for entry in entries.values():
                    for acronym, long_form in defined_acronyms(entry.text).items():
                        found.setdefault(acronym, long_form)
                self._acronyms = (len(entries), found)
            return dict(self._acronyms[1])

    def conflict(self, conflict_id: str) -> PendingConflict:
        with self._memory.read():
            return self._memory.conflicts[conflict_id]

    def rejected_entries(self) -> set[str]:
        with self._memory.read():
            return self._memory.rejected_entries()

    def table_entries(self) -> list[tuple[InteractionEntry, tuple[str, ...]]]:
        with self._memory.read():
            tree, graph = self._memory.tree, self._memory.graph
            found = ((e, tuple(n for n in tree.nodes_for(e.entry_id) if n in graph))
                     for e in tree.entries.values() if e.metadata.get("rows"))
            return [(entry, nodes) for entry, nodes in found if nodes]

    def rejected_claims(self) -> set[str]:
        with self._memory.read():
            return self._memory.rejected_claims()

    def deep_retrieve(self, node_id: str, with_attachments: bool = True) -> DeepRetrieval:
        """A node's interaction tree; an id that was merged away reads its successor."""
        with self._memory.read():
            resolved = self._memory.resolve_id(node_id) or node_id
            return self._deep.run(resolved, with_attachments)


TOPICAL_SHARE = 0.2  # a term said in more passages than this share is what the documents are about
SELDOM = 2  # an acronym said in at most this many passages, and written out in more, is read as written out


def _term_pattern(term: str) -> re.Pattern[str]:
    """A number's digits with thousands separators optional ('1577' is '1,577'); a term's parts joined by
    hyphens, dashes or spaces, or none; a word its plural too ("the Bronco's head coach" of a text on the
    Broncos)."""
    term = term.strip()
    if not any(c.isalnum() for c in term):  # a symbol ("€") is written against its number: no word bounds
        return re.compile(re.escape(term))
    if re.fullmatch(r"\d[\d.]*", term):
        body = ",?".join(re.escape(c) for c in term)
    else:
        body = r"[\s\-‐‑–]*".join(re.escape(p) for p in re.split(r"[\s\-‐‑–]+", term) if p)
        body += "(?:e?s)?" if term[-1:].isalpha() else ""
    return re.compile(r"(?<![\w.])" + body + r"(?!\w|\.\d)", re.IGNORECASE)
