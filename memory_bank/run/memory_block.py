"""The `<memory>` block, built for one question within a token budget (DESIGN §4).

What an agent reads of memory is cut to a budget, so the block spends it on evidence, not on whole summaries:
nodes in relevance order, each as a one-line header (topic, file, pages) followed by the sentences of its raw
entries and summary that bear most on the question, then neighbours as one-line pointers to deep-retrieve.

It fills the budget sentence by sentence in order of (share of the question the sentence covers) x (how high its
node ranks), so the top node's second sentence comes before the tenth node's best one when both cover the
question about as well; a node's header is paid with its first sentence; neighbour pointers use what is left.
(Filling in rounds, every node's best sentence first, lost at 500 words on SQuAD: the low-ranked nodes ate the
budget.) The whole string, tags and hint included, is measured with the project's one token estimate and never
exceeds the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engines.protocol.escaping import escape_tags
from ..memory.query_graph import Node
from ..retrieval.view import MemoryView
from ..text.coverage import coverage, idf_weights
from ..text.split import split_sentences
from ..text.tokens import chars_for_tokens, estimate_tokens, stems

OPEN, CLOSE = "<memory>", "</memory>"
NO_MEMORY = "(no related memory yet)"
HINT = "To read a memory's full source text, call deep_retrieval with its node id."
MIN_BUDGET = 16  # tokens: the tags and a "nothing found" line
COVER_FLOOR = 0.02  # a sentence without a question word still beats nothing, the top node's first


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


@dataclass
class _Candidate:
    node: Node
    sentences: list[tuple[float, int, str, str]]  # (score, position, sentence, where) best first
    shown: list[tuple[int, str, str]] = field(default_factory=list)  # (position, sentence, where)


class MemoryBlockBuilder:
    def __init__(self, view: MemoryView, config: BlockConfig | None = None) -> None:
        self.view = view
        self.config = config or BlockConfig()

    def build(self, question: str, budget_tokens: int) -> tuple[str, list[Node]]:
        """The block and the nodes it shows (evidence first, then pointers), at most `budget_tokens` long."""
        if budget_tokens < MIN_BUDGET:
            raise ValueError(f"a memory block needs at least {MIN_BUDGET} tokens, got {budget_tokens}")
        candidates = self._candidates(question) if question.strip() else []
        room = chars_for_tokens(budget_tokens) - len(OPEN) - len(CLOSE) - 2  # two newlines around the body
        chosen = self._fill(candidates, room - len(HINT) - 2)
        if not chosen:
            return f"{OPEN}\n{NO_MEMORY}\n{CLOSE}", []
        lines = [line for c in chosen for line in self._render(c)]
        shown = [c.node for c in chosen]
        used = sum(len(line) + 1 for line in lines) + len(HINT) + 1
        pointers = self._pointers(chosen, room - used)
        lines += [text for _, text in pointers]
        block = f"{OPEN}\n" + "\n".join(lines) + f"\n\n{HINT}\n{CLOSE}"
        if estimate_tokens(block) > budget_tokens:  # the arithmetic above makes this impossible; never hand it on
            raise RuntimeError(f"memory block of {estimate_tokens(block)} tokens over its {budget_tokens} budget")
        return block, shown + [node for node, _ in pointers]

    # -- candidates: ranked nodes plus the nodes of the best passages, with their sentences scored ---------------

    def _candidates(self, question: str) -> list[_Candidate]:
        ranked = [node for node, _ in self.view.ranked(question, self.config.nodes)]
        seen = {n.id for n in ranked}
        for passage in self.view.search_passages(question, self.config.passages):
            for node_id in passage.node_ids[:1]:
                if node_id not in seen:
                    seen.add(node_id)
                    ranked.append(self.view.node(node_id))
        rejected = self.view.rejected_entries()
        texts = [self._sentences(node, rejected) for node in ranked]
        stemmed = [[frozenset(stems(s)) for s, _ in sentences] for sentences in texts]
        weights = idf_weights(stems(question), stemmed)
        candidates = []
        for node, sentences, sentence_stems in zip(ranked, texts, stemmed):
            scored = [(coverage(weights, st), i, s, where)
                      for i, ((s, where), st) in enumerate(zip(sentences, sentence_stems))]
            scored.sort(key=lambda item: (-item[0], item[1]))
            candidates.append(_Candidate(node, scored))
        return candidates

    def _sentences(self, node: Node, rejected: set[str]) -> list[tuple[str, str]]:
        """(sentence, where it was read) for the node's raw entries, oldest first; the summary when it has none.
        A claim that lost a cross-validation is not shown as evidence."""
        out: list[tuple[str, str]] = []
        for entry in self.view.entries_for(node.id):
            if entry.entry_id in rejected:
                continue
            source, pages = str(entry.metadata.get("source", "")), entry.pages_label()
            where = f"{source}, {pages}" if pages else source
            out.extend((s, where) for s in split_sentences(entry.text))
        if not out:
            where = "; ".join(s.label() for s in node.sources)
            out = [(s, where) for s in split_sentences(node.summary)]
        return out

    # -- filling the budget -------------------------------------------------------------------------------------

    def _fill(self, candidates: list[_Candidate], room: int) -> list[_Candidate]:
        """Sentences in order of (how much of the question they cover) x (how high their node ranks), each taken
        while it fits; a node's header is paid with its first sentence. The top node's second sentence beats
        the tenth node's best one when it covers the question about as well."""
        ranked = sorted((((cover + COVER_FLOOR) / (1.0 + self.config.rank_decay * rank), rank, depth)
                         for rank, c in enumerate(candidates)
                         for depth, (cover, *_rest) in enumerate(c.sentences[: self.config.max_sentences])),
                        key=lambda item: (-item[0], item[1], item[2]))
        used = 0
        for _, rank, depth in ranked:
            c = candidates[rank]
            _, position, sentence, where = c.sentences[depth]
            cost = self._cost(c, sentence, where, new=not c.shown)
            if used + cost <= room:
                c.shown.append((position, sentence, where))
                used += cost
        return [c for c in candidates if c.shown]

    def _cost(self, c: _Candidate, sentence: str, where: str, new: bool) -> int:
        line = len(self._evidence_line(sentence, where)) + 1
        return line + (len(self._header(c.node)) + 1 if new else 0)

    @staticmethod
    def _header(node: Node) -> str:
        return f"[node:{escape_tags(node.id)}] {escape_tags(node.context)}"

    @staticmethod
    def _evidence_line(sentence: str, where: str) -> str:
        return f"- {escape_tags(sentence)} ({escape_tags(where)})" if where else f"- {escape_tags(sentence)}"

    def _render(self, c: _Candidate) -> list[str]:
        """The header, then the chosen sentences in document order (they read as the source reads)."""
        return [self._header(c.node)] + [self._evidence_line(s, w) for _, s, w in sorted(c.shown)]

    def _pointers(self, chosen: list[_Candidate], room: int) -> list[tuple[Node, str]]:
        shown = {c.node.id for c in chosen}
        out: list[tuple[Node, str]] = []
        for c in chosen:
            for neighbour in self.view.neighbors(c.node.id):
                if neighbour.id in shown or len(out) >= self.config.max_pointers:
                    continue
                line = f"Related: [node:{escape_tags(neighbour.id)}] {escape_tags(neighbour.context)}"
                if len(line) + 1 > room:
                    continue
                shown.add(neighbour.id)
                out.append((neighbour, line))
                room -= len(line) + 1
        return out
