"""Retrieval speed: p50/p99 per query at 1k, 10k and 100k nodes, and the cost of inserting nodes one by one.

Query embedding is excluded (it is the embedder's cost, ~6 ms a query here); node vectors are random unit
vectors because the index's cost does not depend on their values. Node text is real: sentences from the SQuAD
articles, so BM25 postings have a natural word distribution.

    python bench/retrieval.py            # 1k, 10k, 100k
    python bench/retrieval.py --sizes 1000 10000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.events import EventBus  # noqa: E402
from memory_bank.ingest.graph_ops import GraphOps  # noqa: E402
from memory_bank.memory.query_graph import Node  # noqa: E402
from memory_bank.memory.store import Memory  # noqa: E402
from memory_bank.retrieval.hybrid_index import HybridIndex  # noqa: E402
from memory_bank.retrieval.rerank import SentenceReranker  # noqa: E402
from memory_bank.retrieval.retriever import Retriever  # noqa: E402
from memory_bank.text.split import split_sentences  # noqa: E402
from memory_bank.text.tokens import tokenize  # noqa: E402

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "data" / "squad" / "squad_dev_visible.json"


def sentences() -> list[str]:
    data = json.loads(SQUAD.read_text())
    return [s for art in data["data"] for p in art["paragraphs"] for s in split_sentences(p["context"])]


def make_nodes(n: int, pool: list[str], rng: random.Random, dim: int = 384) -> list[Node]:
    vecs = np.random.default_rng(rng.randrange(1 << 30)).standard_normal((n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    nodes = []
    for i in range(n):
        text = " ".join(rng.sample(pool, 3))
        nodes.append(Node(id=f"n{i}", summary=text, context=pool[rng.randrange(len(pool))][:80],
                          keywords=text.split()[:5], embedding=vecs[i], timestamp=float(i)))
    return nodes


class NullEmbedder:
    """Nodes arrive with vectors; nothing may be embedded during the benchmark."""

    name, dim, warning = "none", 384, None

    def embed(self, texts: list[str]) -> np.ndarray:
        raise AssertionError("the benchmark must not embed")


def build(nodes: list[Node]) -> tuple[Retriever, GraphOps, float]:
    memory = Memory()
    index = HybridIndex(384)
    ops = GraphOps(memory, index, NullEmbedder(), EventBus(keep=10))
    t0 = time.perf_counter()
    for node in nodes:  # one by one, as the pipeline does
        ops.add_nodes([node])
    seconds = time.perf_counter() - t0
    rng = random.Random(1)
    for i in range(1, len(nodes)):
        for _ in range(2):
            j = rng.randrange(i)
            memory.graph.add_edge(nodes[i].id, nodes[j].id)
    return Retriever(memory.graph, index, NullEmbedder(), k=5, alpha=0.5), ops, seconds


def query_times(retriever: Retriever, pool: list[str], rng: random.Random,
                n: int = 300) -> tuple[list[float], list[float]]:
    """Milliseconds per query: hybrid top-k + neighbours; and, apart, re-ranking the top 20 by their best
    sentence (`SentenceReranker`, each node's summary standing in for its source text; first touches of a
    node, which stem its text, are included)."""
    times, rerank_times = [], []
    qvec = np.random.default_rng(7).standard_normal((n, 384)).astype(np.float32)
    qvec /= np.linalg.norm(qvec, axis=1, keepdims=True)
    reranker = SentenceReranker(lambda node_id: retriever.graph.get(node_id).summary)
    for i in range(n):
        query = pool[rng.randrange(len(pool))]
        tokens = tokenize(query)
        t0 = time.perf_counter()
        hits = retriever.ranked_ids(tokens, qvec[i])
        retriever.with_neighbours([h for h, _ in hits])
        times.append((time.perf_counter() - t0) * 1000)
        top = retriever.ranked_ids(tokens, qvec[i], k=reranker.config.depth)
        t0 = time.perf_counter()
        reranker.rerank(query, top)
        rerank_times.append((time.perf_counter() - t0) * 1000)
    return times, rerank_times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    args = parser.parse_args()
    pool = sentences()
    rng = random.Random(0)
    inserts: dict[int, float] = {}
    print(f"{'nodes':>8} {'insert s':>9} {'p50 ms':>8} {'p99 ms':>8} {'rerank p50':>11} {'rerank p99':>11}")
    for size in args.sizes:
        retriever, _, seconds = build(make_nodes(size, pool, rng))
        inserts[size] = seconds
        times, rerank = query_times(retriever, pool, rng)
        print(f"{size:>8} {seconds:>9.2f} {np.percentile(times, 50):>8.2f} {np.percentile(times, 99):>8.2f} "
              f"{np.percentile(rerank, 50):>11.2f} {np.percentile(rerank, 99):>11.2f}")
    if 1_000 in inserts and 10_000 in inserts:
        print(f"insert 10k / insert 1k = {inserts[10_000] / inserts[1_000]:.1f}x (target < 15x; linear is 10x)")


if __name__ == "__main__":
    main()
