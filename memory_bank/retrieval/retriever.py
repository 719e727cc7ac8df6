"""Hybrid retrieval over the Query Graph (DESIGN §2).

score = alpha * BM25_norm + (1 - alpha) * cosine, top-k, then the one-hop neighbours of the hits, most relevant
first (what an agent reads is cut to a budget, so order is relevance, not age).
A question (text query) is re-ranked by its best matching source sentence (`rerank.py`) before the cut to k;
a node used as a query (analysis candidates) is not: it has no single sentence to match. As evidence for a
question, document furniture (contents, notices, acronym lists, ...: `text/furniture.py`) ranks below body text.
The index lives in `HybridIndex` and is kept in step by `GraphOps`; this class only answers queries.
"""

from __future__ import annotations

import numpy as np

from ..memory.query_graph import Node, QueryGraph
from ..text.furniture import Role
from ..text.tokens import tokenize
from .embedding import Embedder
from .hybrid_index import HybridIndex
from .rerank import SentenceReranker

# A furniture hit's score is multiplied by this: it must match a question twice as well as body text to rank
# above it. A penalty rather than "body first": the acronym list is still the best answer to "what does PEP
# stand for?", and a strict partition would bury it under every weakly related body node.
FURNITURE_WEIGHT = 0.5


def demoted(score: float, role: Role) -> float:
    """The score as evidence: furniture's moved toward worse (a negative cosine blend must not rise)."""
    return score if role is Role.BODY else score - (1.0 - FURNITURE_WEIGHT) * abs(score)


def node_query_tokens(node: Node) -> list[str]:
    """A node used as a query: its topic and keywords weigh most, the summary adds recall."""
    return tokenize(f"{node.context} {' '.join(node.keywords)} {node.summary}")


class Retriever:
    def __init__(self, graph: QueryGraph, index: HybridIndex, embedder: Embedder, k: int, alpha: float,
                 reranker: SentenceReranker | None = None) -> None:
        self.graph = graph
        self.reranker = reranker
        self.index = index
        self.embedder = embedder
        self.k = k
        self.alpha = alpha

    def ranked_ids(self, tokens: list[str], vector: np.ndarray | None, k: int | None = None,
                   exclude: set[str] | None = None) -> list[tuple[str, float]]:
        return self.index.search(tokens, vector, k or self.k, self.alpha, exclude)

    def ranked(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[tuple[Node, float]]:
        """The k best nodes for a question, furniture demoted before the cut (so body text it outranked by less
        than the penalty comes in). Without furniture this is exactly the hybrid (+ re-ranked) top k."""
        vector, tokens, k = self.embedder.embed([query])[0], tokenize(query), k or self.k
        if self.reranker is None:
            hits = self.ranked_ids(tokens, vector, 2 * k, exclude)
        else:
            depth = max(k, self.reranker.config.depth)
            hits = self.reranker.rerank(query, self.ranked_ids(tokens, vector, depth, exclude))
        scored = [(self.graph.get(i), s) for i, s in hits]
        scored = [(node, demoted(s, node.role)) for node, s in scored]
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][1], i))  # stable: ties keep the ranking
        return [scored[i] for i in order[:k]]

    def with_neighbours(self, hits: list[str], exclude: set[str] | None = None,
                        newest_first: bool = False) -> list[Node]:
        """The hits in rank order, then their one-hop neighbours (a better hit's first), de-duplicated; or all of
        them newest first (analysis candidates keep the order linking was tuned with)."""
        exclude = exclude or set()
        chosen: dict[str, Node] = {node_id: self.graph.get(node_id) for node_id in hits}
        for node_id in hits:
            for n in self.graph.neighbors(node_id):
                if n not in exclude:
                    chosen.setdefault(n, self.graph.get(n))
        nodes = list(chosen.values())
        return sorted(nodes, key=lambda n: (-n.timestamp, n.id)) if newest_first else nodes

    def retrieve(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        return self.with_neighbours([n.id for n, _ in self.ranked(query, k, exclude)], exclude)

    def candidates_for(self, node: Node, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        """Nodes an analysis agent should judge against `node`: top-k + neighbours, never the node itself, and
        never a section node: it restates its children, so it would always look like their duplicate; it is
        linked to them by the document's structure, not by judgement."""
        exclude = set(exclude or ()) | {node.id}
        hits = self.ranked_ids(node_query_tokens(node), node.embedding, k, exclude)
        return [n for n in self.with_neighbours([i for i, _ in hits], exclude, newest_first=True)
                if n.id != node.id and n.kind != "section"]
