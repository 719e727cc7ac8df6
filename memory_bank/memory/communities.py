"""Topic communities of the Query Graph, each named by its keywords.

A graph of 300 or 2,000 topic nodes drawn in one colour reads as a ball; grouped into communities (Louvain
modularity on the related edges, seeded so the same graph gives the same groups) and named by the keywords that
set each group apart from the rest, it reads as a map of the document. Document furniture (cover, notices,
contents, references) takes no part: it would glue unrelated topics together and name groups "contents".

Cost is bounded: Louvain is near-linear in edges, and above `exact_limit` nodes the cheaper label propagation
runs instead, so a redraw of a big graph never stalls on grouping.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from .snapshot import NodeView

MIN_SIZE = 3  # smaller groups (and lone nodes) are pooled as "other topics": a legend of singletons names nothing
NAME_WORDS = 3


@dataclass(frozen=True)
class Community:
    """One topic group: its members and the keywords that name it (`index` -1 is the pool of small groups)."""

    index: int
    members: tuple[str, ...]
    keywords: tuple[str, ...]

    @property
    def name(self) -> str:
        return " · ".join(self.keywords) if self.keywords else "other topics"


def find_communities(nodes: Sequence[NodeView], edges: Iterable[tuple[str, str]], *, max_groups: int = 12,
                     exact_limit: int = 20_000, seed: int = 7) -> list[Community]:
    """Body nodes grouped by topic, largest group first; furniture belongs to none.

    At most `max_groups` named groups; the rest (groups under `MIN_SIZE`, lone nodes) form one last group with
    index -1, named by its own keywords only when it has any in common.
    """
    body = {n.id: n for n in nodes if n.role == "body"}
    graph = nx.Graph()
    graph.add_nodes_from(body)
    graph.add_edges_from((a, b) for a, b in edges if a in body and b in body and a != b)
    if not body:
        return []
    if graph.number_of_edges() == 0:
        parts: list[set[str]] = [set(body)]
    elif len(body) <= exact_limit:
        parts = nx.community.louvain_communities(graph, seed=seed)
    else:
        parts = list(nx.community.asyn_lpa_communities(graph, seed=seed))
    order = sorted(parts, key=lambda p: (-len(p), min(p)))
    named = [p for p in order if len(p) >= MIN_SIZE][:max_groups]
    pooled = sorted({m for p in order if len(p) < MIN_SIZE or p not in named for m in p})
    words = _naming_words([[body[m] for m in p] for p in named])
    groups = [Community(i, tuple(sorted(p)), words[i]) for i, p in enumerate(named)]
    if pooled:
        groups.append(Community(-1, tuple(pooled), ()))
    return groups


def _naming_words(groups: list[list[NodeView]]) -> list[tuple[str, ...]]:
    """Per group, the keywords frequent in it and rare elsewhere (class-based tf-idf over node keywords). A word
    every group shares names none of them, nor does a word only one node of a big group carries."""
    counts = [Counter(k for node in group for k in _keywords(node)) for group in groups]
    spread = Counter(k for c in counts for k in c)
    total = len(groups)
    names = []
    for group, c in zip(groups, counts, strict=True):
        least = 2 if len(group) >= 4 else 1
        weight = {k: c[k] * (math.log(total / spread[k]) if total > 1 else 1.0) for k in c if c[k] >= least}
        ranked = sorted((k for k in weight if weight[k] > 0), key=lambda k: (-weight[k], k))
        names.append(_distinct(ranked, NAME_WORDS))
    return names


def _keywords(node: NodeView) -> set[str]:
    """A node's keywords, each once, lower-cased, longer than two letters (a bare "pa" names nothing)."""
    return {w for w in (" ".join(k.lower().split()) for k in node.keywords) if len(w) >= 3}


def _distinct(ranked: list[str], count: int) -> tuple[str, ...]:
    """The first `count` keywords that are not part of one already taken ("policy" after "policy engine")."""
    taken: list[str] = []
    for word in ranked:
        if any(word in t or t in word for t in taken):
            continue
        taken.append(word)
        if len(taken) == count:
            break
    return tuple(taken)
