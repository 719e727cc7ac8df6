"""The `<memory>` block, built for one question within a token budget (DESIGN §4).

What an agent reads of memory is cut to a budget, so the block spends it on evidence, not on whole summaries:
nodes in relevance order, each as a one-line header (topic, file, pages) followed by the sentences of its raw
entries and summary that bear most on the question, then neighbours as one-line pointers to deep-retrieve.

It fills the budget sentence by sentence in order of (share of the question the sentence covers) x (how high its
node ranks), so the top node's second sentence comes before the tenth node's best one when both cover the
question about as well; a node's header is paid with its first sentence; neighbour pointers use what is left.
(Filling in rounds, every node's best sentence first, lost at 500 words on SQuAD: the low-ranked nodes ate the
budget.) The whole string, tags and hint included, is measured with the project's one token estimate and never
exceeds the budget. A node's place (file, pages) is written once, on its first line from that place.

Structure comes first where the question asks for it: a question for a list, steps, kinds or "how many"
(`text.asks`) brings the best-matching section node to the front and shows its outline whole, in order (its
lists' items, its sub-sections), before single sentences. A section's outline and a table's rows are read line
by line, not cut into sentences. A conversation is read turn by turn, each turn whole with its speaker, and a
turn's place names its session with the date ("pasted text, §Session 3 (8 May 2023)"), so "when did ..." is
answered from the block.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...memory.outline import Outline, questions_listed
from ...memory.query_graph import Node, place_label
from ...memory.store import claim_key
from ...retrieval.view import MemoryView, Passage
from ...text.asks import asked_part, asks_for_items, listed_noun, open_count, open_kind
from ...text.counts import question_terms, sentence_terms
from ...text.coverage import coverage, idf_weights
from ...text.kinds import kind_forms
from ...text.periods import names_period, periods
from ...text.reader_concepts import in_document_terms
from ...text.split import split_sentences
from ...text.tokens import chars_for_tokens, estimate_tokens, stems, tokens_for_chars
from .children_lead import children_leads
from .entry_lines import entry_sentences
from .escaping import escape_tags
from .figures import TableIndex
from .table_rows import TableRowRef, names_row

OPEN, CLOSE = "<memory>", "</memory>"
NO_MEMORY = "(no related memory yet)"
HINT = "To read a memory's full source text, call deep_retrieval with its node id."
MIN_BUDGET = 16  # tokens: the tags and a "nothing found" line
COVER_FLOOR = 0.02  # a sentence without a question word still beats nothing, the top node's first
SECTIONS_TRIED = 3  # best-scored sections a list question may take its list from, best first


@dataclass(frozen=True)
class BlockConfig:
    """`nodes`: ranked nodes considered; `passages`: local-search hits whose nodes join them; `max_sentences`:
    sentences shown per node at most; `max_pointers`: neighbour pointers at the end; `rank_decay`: how fast a
    sentence's priority falls with its node's rank (priority = coverage / (1 + decay x rank))."""

    nodes: int = 8
    passages: int = 8
    max_sentences: int = 6
    max_pointers: int = 6
    rank_decay: float = 0.5
    outline_lines: int = 40  # lines of a section's outline a list question may be shown
    row_nodes: int = 3  # nodes brought in because a table row in them is named by the question
    # a question for items of a kind reads this many more passages: the sentence naming them ("including
    # Amazon.com, Inc., Microsoft Corporation, …") repeats few of its words, so it ranks below prose about the kind
    item_passages: int = 2
    reply_share: float = 0.65  # a conversation's turn is worth at least this share of the turn before it
    follow_share: float = 0.5  # a prose sentence is worth at least this share of the one before it (fading on)


@dataclass(frozen=True)
class Sentence:
    """One sentence of evidence and where it was read: the unit the block shows and the offline answerer weighs."""

    text: str
    position: int  # its place among the node's sentences (document order)
    cover: float  # the share of the question it covers, in [0, 1]
    source: str = ""
    pages: tuple[int, ...] = ()  # PDF pages
    printed: tuple[tuple[int, str], ...] = ()  # (PDF page, printed page) for the pages known
    section: tuple[str, ...] = ()  # the section path it was read in ("Session 3 (8 May 2023)" in a conversation)
    turn: bool = False  # a conversation's turn, shown whole
    row: TableRowRef | None = None  # a table row's label and its table's column headers

    def where(self) -> str:
        """'file, §2.1 Tenets of Zero Trust, p. 6 (PDF p. 15)' (or fewer parts): a conversation's evidence names
        its session and date this way."""
        return place_label(self.source, self.section, self.pages, dict(self.printed))


@dataclass
class Selected:
    """A node of the selection, in relevance order, with the sentences of it chosen for the question."""

    node: Node
    rank: int
    sentences: list[Sentence]  # every scored sentence, best first (an outline shown whole: in its order)
    shown: list[Sentence] = field(default_factory=list)  # those the budget took, in document order once chosen
    whole: bool = False  # a section's outline a list question asked for: shown from the top, line by line
    lead_in: str = ""  # of a whole outline: the sentence announcing its sub-sections as a list (children_lead.py)


@dataclass
class Selection:
    """What the block is made of: the typed evidence, shared with the offline answerer (never re-parsed from
    the block's text)."""

    question: str
    nodes: list[Selected]
    room: int  # characters of the block's body the selection may use
    passages: list[Passage] = field(default_factory=list)  # the local-search hits that brought nodes in
    parts: list[Selection] = field(default_factory=list)  # a question asking several things: each part's own


class MemoryBlockBuilder:
    def __init__(self, view: MemoryView, config: BlockConfig | None = None) -> None:
        self.view = view
        self.config = config or BlockConfig()
        self.tables = TableIndex(view)

    def build(self, question: str, budget_tokens: int) -> tuple[str, list[Node]]:
        """The block and the nodes it shows (evidence first, then pointers), at most `budget_tokens` long."""
        return self.render(self.select(question, budget_tokens))

    def select(self, question: str, budget_tokens: int) -> Selection:
        """The evidence for `question` that fits a block of `budget_tokens`, nodes in relevance order."""
        if budget_tokens < MIN_BUDGET:
            raise ValueError(f"a memory block needs at least {MIN_BUDGET} tokens, got {budget_tokens}")
        # "CEO", "return capital", "drawback": in the filing's words
        question = in_document_terms(question, self.view.long_forms, self.view.mentions, self.view.acronyms(),
                                     self.view.acronyms_said)
        k = self.config.passages + (self.config.item_passages if asks_for_items(question) else 0)
        passages = self.view.search_passages(question, k) if question.strip() else []
        candidates = self._candidates(question, passages) if question.strip() else []
        room = chars_for_tokens(budget_tokens) - len(OPEN) - len(CLOSE) - 2  # two newlines around the body
        return Selection(question, self._fill(candidates, room - len(HINT) - 2), room, passages)

    def narrowed(self, selection: Selection, budget_tokens: int) -> Selection:
        """The same selection refilled into a smaller block: a reader that can afford fewer tokens (the local
        model's one call) answers from the evidence the adapter chose for the task, never from a second search.
        Its best sentences are those the larger block took first, so the smaller one is its head."""
        if budget_tokens < MIN_BUDGET:
            raise ValueError(f"a memory block needs at least {MIN_BUDGET} tokens, got {budget_tokens}")
        room = chars_for_tokens(budget_tokens) - len(OPEN) - len(CLOSE) - 2
        if room >= selection.room:
            return selection
        fresh = [replace(c, rank=rank, shown=[]) for rank, c in enumerate(selection.nodes)]
        return Selection(selection.question, self._fill(fresh, room - len(HINT) - 2), room, selection.passages,
                         [self.narrowed(part, budget_tokens) for part in selection.parts])

    def render(self, selection: Selection) -> tuple[str, list[Node]]:
        chosen = selection.nodes
        if not chosen:
            return f"{OPEN}\n{NO_MEMORY}\n{CLOSE}", []
        lines = [line for c in chosen for line in self._render(c)]
        shown = [c.node for c in chosen]
        used = sum(len(line) + 1 for line in lines) + len(HINT) + 1
        pointers = self._pointers(chosen, selection.room - used)
        lines += [text for _, text in pointers]
        block = f"{OPEN}\n" + "\n".join(lines) + f"\n\n{HINT}\n{CLOSE}"
        budget = tokens_for_chars(selection.room + len(OPEN) + len(CLOSE) + 2)
        if estimate_tokens(block) > budget:  # the arithmetic above makes this impossible; never hand it on
            raise RuntimeError(f"memory block of {estimate_tokens(block)} tokens over its {budget} budget")
        return block, shown + [node for node, _ in pointers]

    def evidence(self, selection: Selection) -> str:
        """The selection's evidence alone, in its tags: no neighbour pointers and no deep-retrieval hint, for a
        reader without tools that may cite only what it was shown (the one-call answer). Within the budget the
        selection was made for, since the fill left room for the hint."""
        lines = [line for c in selection.nodes for line in self._render(c)] or [NO_MEMORY]
        return f"{OPEN}\n" + "\n".join(lines) + f"\n{CLOSE}"

    # -- candidates: ranked nodes plus the nodes of the best passages, with their sentences scored ---------------

    def _candidates(self, question: str, passages: list[Passage]) -> list[Selected]:
        rejected = self.view.rejected_entries()
        claims = self.view.rejected_claims() if rejected else set()  # read every entry: only when it can matter
        leads = children_leads(self.view, passages) if asks_for_items(question) else {}
        outline = self._section_asked(question, rejected, claims, leads)
        ranked = [node for node, _ in self.view.ranked(question, self.config.nodes)]
        if outline is not None:
            ranked = [outline] + [n for n in ranked if n.id != outline.id]
        seen = {n.id for n in ranked}
        for passage in passages:
            for node_id in passage.node_ids[:1]:
                if node_id not in seen:
                    seen.add(node_id)
                    ranked.append(self.view.node(node_id))
        named = [node_id for node_id in self._nodes_with_named_rows(question) if node_id not in seen]
        # a row the question names by its label and column answers it outright: it ranks beside the best node
        ranked[1:1] = [self.view.node(node_id) for node_id in named]
        texts = [self._sentences(node, rejected, claims) for node in ranked]
        stemmed = [[sentence_terms(s.text) for s in sentences] for sentences in texts]
        weights = idf_weights(question_terms(question), stemmed)
        asked = frozenset(self.tables.terms(question))
        candidates = []
        for rank, (node, sentences, sentence_stems) in enumerate(zip(ranked, texts, stemmed)):
            scored = _replies([replace(s, cover=1.0 if names_row(asked, s.row) else coverage(weights, st))
                               for s, st in zip(sentences, sentence_stems)], self.config.reply_share,
                              self.config.follow_share)
            if outline is not None and node.id == outline.id:
                best = max((s.cover for s in scored), default=0.0)
                scored = [replace(s, cover=best) for s in scored[: self.config.outline_lines]]
                candidates.append(Selected(node, rank, scored, whole=True, lead_in=leads.get(node.section(), "")))
                continue
            scored.sort(key=lambda s: (-s.cover, s.position))
            candidates.append(Selected(node, rank, scored))
        return candidates

    def _nodes_with_named_rows(self, question: str) -> list[str]:
        """Nodes holding a table row the question names with one of its columns ("total revenues" in "2023"),
        the value most tables agree on first: a table's node is mostly numbers and ranks low, its row answers
        the question outright."""
        out: list[str] = []
        for named in self.tables.named_rows(question):
            if named.node_id not in out:
                out.append(named.node_id)
            if len(out) >= self.config.row_nodes:
                break
        return out

    def _section_asked(self, question: str, rejected: set[str], claims: set[str],
                       leads: dict[tuple[str, ...], str]) -> Node | None:
        """For a question that asks for items, the section node whose outline answers it best: its own title
        and its best lines (items, sub-section titles) measured against the question's rarer words, so "the tenets"
        finds "2.1 Tenets of Zero Trust" rather than the chapter above it, and "deployment models" finds the
        section whose sub-sections each open with "In this deployment model". Every section node is weighed
        (a document has tens to a few thousand): the hybrid ranking of whole nodes buries an outline. A question
        dated by a quarter ("announced in the fourth quarter of 2022") is answered by a section that names that
        quarter when one does ("Fourth Quarter 2022:" heading a list), not by one titled with its kind of item.
        `leads`: sentences announcing sub-sections as a list (children_lead.py), read as a line and a title."""
        listed = asks_for_items(question)
        if not listed and open_count(question) is None:
            return None
        sections = self.view.section_nodes()
        if not sections:
            return None
        said = [self._sentences(node, rejected, claims) for node in sections]
        period = periods(asked_part(question))
        dated = [i for i, ss in enumerate(said) if any(names_period(period, s.text) for s in ss)]
        if dated:
            sections, said = [sections[i] for i in dated], [said[i] for i in dated]
        heads = [frozenset(stems(leads.get(node.section(), ""))) for node in sections]
        lines = [[frozenset(stems(s.text)) for s in ss] + ([head] if head else []) for ss, head in zip(said, heads)]
        titles = [frozenset(stems(node.section()[-1] if node.section() else node.label())) for node in sections]
        weights = idf_weights(stems(asked_part(question)), [[t, *ls] for t, ls in zip(titles, lines)])
        # "If a defect turns up, what costs … could it face?": a which/what question's plural is its kind too
        noun = frozenset(stems(listed_noun(question) or open_kind(question) or ""))
        forms = kind_forms(noun) if noun else []  # the kind in each of its words ("stages", "steps", "phases")
        # lines worded as questions are of the kind "questions" whatever words they use
        asked_lines = [questions_listed(noun, [s.text for s in ss]) for ss in said]
        scores = [2.0 * coverage(weights, title) + _breadth([coverage(weights, line) for line in ls], 3)
                  + _kind_match(forms, title | head, ls, extra) for title, head, ls, extra
                  in zip(titles, heads, lines, asked_lines)]
        # a list of something else is no answer, one headed by the asked quarter is that quarter's: the best of the
        # few best-scored sections that lists the asked kind ("factors": "7.3.5 Identifying Candidate Solutions",
        # whose list "These are some factors to consider:" opens, not "7.3 Steps to Introducing ZTA" above it)
        best = sorted((i for i in range(len(sections)) if scores[i] > 0), key=lambda i: (-scores[i], i))
        for i in best[:SECTIONS_TRIED]:
            outline = next((o for e in self.view.entries_for(sections[i].id)
                            if (o := Outline.from_metadata(e.metadata)) is not None), None)
            if outline is not None and outline.names_kind(noun):
                return sections[i]
            if listed and (outline is None or any(form <= heads[i] for form in forms)
                           or any(names_period(period, lst.lead_in) for lst in outline.lists)):
                return sections[i]  # a count of a noun no list is known by takes a list of that kind only
        return None

    def _sentences(self, node: Node, rejected: set[str], claims: set[str]) -> list[Sentence]:
        """The sentences of the node's raw entries, oldest first, each with the file and pages it was read
        from; the summary's when it has none. A claim that lost a cross-validation is not shown as evidence,
        nor is its sentence where a section's outline restates it."""
        out: list[Sentence] = []
        entries = self.view.entries_for(node.id)
        for entry in entries:
            if entry.entry_id in rejected:
                continue
            source, printed = str(entry.metadata.get("source", "")), tuple(sorted(entry.printed_pages.items()))
            base = len(out)
            rows = self.tables.rows_of(entry)
            said = entry_sentences(entry, rows)
            if node.kind == "section" and claims:
                said = [s for s in said if not _restates(s, claims)]
            turn = entry.metadata.get("structure") == "turn"
            out.extend(Sentence(s, base + i, 0.0, source, entry.pages, printed, entry.section, turn, rows.get(s))
                       for i, s in enumerate(said))
        if not entries:  # a node whose every sentence lost a cross-validation shows none: not its summary either
            source = "; ".join(dict.fromkeys(s.name for s in node.sources))
            pages, printed = tuple(node.pages()), tuple(sorted(node.printed_pages().items()))
            out = [Sentence(s, i, 0.0, source, pages, printed, node.section())
                   for i, s in enumerate(split_sentences(node.summary))]
        return out

    # -- filling the budget -------------------------------------------------------------------------------------

    def _fill(self, candidates: list[Selected], room: int) -> list[Selected]:
        """Sentences in order of (how much of the question they cover) x (how high their node ranks), each taken
        while it fits; a node's header is paid with its first sentence. The top node's second sentence beats
        the tenth node's best one when it covers the question about as well."""
        ranked = sorted((((s.cover + COVER_FLOOR) / (1.0 + self.config.rank_decay * c.rank), c.rank, depth)
                         for c in candidates
                         for depth, s in enumerate(c.sentences if c.whole else
                                                   c.sentences[: self.config.max_sentences])),
                        key=lambda item: (-item[0], item[1], item[2]))
        used, taken = 0, set()
        for _, rank, depth in ranked:
            c = candidates[rank]
            sentence = c.sentences[depth]
            said = _said(sentence.text)
            if said in taken:
                continue  # a section's outline and its passages' nodes restate the same lines: show them once
            cost = self._cost(c, sentence, new=not c.shown)
            if used + cost <= room:
                c.shown.append(sentence)
                taken.add(said)
                used += cost
        for c in candidates:
            c.shown.sort(key=lambda s: s.position)  # they read as the source reads
        return [c for c in candidates if c.shown]

    def _cost(self, c: Selected, sentence: Sentence, new: bool) -> int:
        placed = any(s.where() == sentence.where() for s in c.shown)
        line = len(self._evidence_line(sentence, "" if placed else _place(c.node, sentence))) + 1
        return line + (len(self._header(c.node)) + 1 if new else 0)

    @staticmethod
    def _header(node: Node) -> str:
        return f"[node:{escape_tags(node.id)}] {escape_tags(node.context)}"

    @staticmethod
    def _evidence_line(sentence: Sentence, where: str) -> str:
        text = escape_tags(sentence.text)
        return f"- {text} ({escape_tags(where)})" if where else f"- {text}"

    def _render(self, c: Selected) -> list[str]:
        """The header, then the chosen sentences in document order, each place named on its first line."""
        lines, placed = [self._header(c.node)], set()
        for sentence in c.shown:
            lines.append(self._evidence_line(sentence, "" if sentence.where() in placed else _place(c.node, sentence)))
            placed.add(sentence.where())
        return lines

    def _pointers(self, chosen: list[Selected], room: int) -> list[tuple[Node, str]]:
        shown = {c.node.id for c in chosen}
        out: list[tuple[Node, str]] = []
        claims = self.view.rejected_claims() if self.view.rejected_entries() else set()
        for c in chosen:
            for neighbour in self.view.neighbors(c.node.id):
                if neighbour.id in shown or len(out) >= self.config.max_pointers or _restates(neighbour.context,
                                                                                               claims):
                    continue  # a section named after its first sentence, the claim that lost, points nowhere
                line = f"Related: [node:{escape_tags(neighbour.id)}] {escape_tags(neighbour.context)}"
                if len(line) + 1 > room:
                    continue
                shown.add(neighbour.id)
                out.append((neighbour, line))
                room -= len(line) + 1
        return out


def _said(text: str) -> str:
    """A sentence as compared for repeats: case and spacing aside."""
    return " ".join(text.split()).casefold()


def _replies(sentences: list[Sentence], share: float, follow: float) -> list[Sentence]:
    """In a conversation the answer is often the reply to the turn that shares the question's words ("How was
    Alicia's 10K?" / "She ran it last Sunday and finished in fifty-eight minutes"), and the reply rarely
    repeats them: a turn is worth at least `share` of the turn just before it. Prose does the same at a lower
    share (`follow`): "the Company has a capital return program" is followed by the repurchases and dividends
    that answer "How does Apple return capital?" without its words. `sentences` in document order."""
    out = list(sentences)
    for i in range(1, len(sentences)):
        here = sentences[i]
        before = sentences[i - 1] if here.turn else out[i - 1]  # prose: a paragraph's topic carries on, fading
        if before.position + 1 == here.position and here.turn == before.turn and here.row is None:
            out[i] = replace(here, cover=max(here.cover, (share if here.turn else follow) * before.cover))
    return out


def _place(node: Node, sentence: Sentence) -> str:
    """Where the sentence was read; a section the node's header already names (the offline topic line opens
    with its section's title, a session's with its date) is not paid for twice."""
    if sentence.section and sentence.section[-1] in node.context:
        return replace(sentence, section=()).where()
    return sentence.where()


def _restates(line: str, claims: set[str]) -> bool:
    """Whether an outline line is (the start of) one of the claims: outline lines are cut at a word budget, and
    a section's first line carries its heading before the claim ("Budget The Northwind project budget is 9
    million dollars ...", where the 9 million lost a cross-validation)."""
    key = claim_key(line.removesuffix(" …"))
    return any(claim.startswith(key) or claim in key for claim in claims)


def _kind_match(forms: list[frozenset[str]], title: frozenset[str], lines: list[frozenset[str]],
                of_kind: int = 0) -> float:
    """How plainly a section holds items of the kind asked for (`forms`: the kind in each of its words): named in
    its title ("2.1 Tenets of Zero Trust", "7.3 Steps to ...") counts most, then lines that each name it
    (sub-sections that each open "In this deployment model") or are of it by their form (`of_kind`: questions), up
    to three."""
    return max(((2.0 if form <= title else 0.0) + min(3, of_kind + sum(form <= line for line in lines)) / 3
                for form in forms), default=0.0)


def _breadth(values: list[float], count: int) -> float:
    """How well a section's best `count` lines cover the question, an absent line counting as 0: a question for
    several items wants the section where several lines answer (each sub-section of 3.2 opens "In this
    deployment model"), not the sub-section that answers once."""
    top = sorted(values, reverse=True)[:count]
    return sum(top) / count if top else 0.0
