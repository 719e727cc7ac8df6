"""The question-aware re-ranker: one sentence holding the question's words beats words scattered over a node."""

from __future__ import annotations

from memory_bank.events import EventBus
from memory_bank.ingest.graph_ops import GraphOps
from memory_bank.memory.query_graph import Node
from memory_bank.memory.store import Memory
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.retrieval.hybrid_index import HybridIndex
from memory_bank.retrieval.rerank import RerankConfig, SentenceReranker
from memory_bank.retrieval.retriever import Retriever

SCATTERED = ("The club plays in blue. The stadium hosts concerts in the summer. Railway workers founded a choir. "
             "The club and the stadium share a car park. A bakery was founded nearby.")
TOGETHER = ("The club was founded in 1905 beside its stadium. Rainfall in the valley is high. The river floods "
            "in spring. Farmers grow barley and oats. The railway reached the valley late.")
SOURCES = {"scattered": SCATTERED, "together": TOGETHER, "other": "Rainfall in the valley averages 600 mm a year."}


def test_the_node_whose_one_sentence_answers_moves_first() -> None:
    reranker = SentenceReranker(SOURCES.__getitem__)
    hits = [("scattered", 0.9), ("together", 0.7), ("other", 0.1)]
    order = [node_id for node_id, _ in reranker.rerank("When was the club founded?", hits)]
    assert order == ["together", "scattered", "other"]


def test_scores_stay_in_unit_range_and_ties_keep_retrieval_order() -> None:
    reranker = SentenceReranker({"a": "alpha beta", "b": "alpha beta"}.__getitem__)
    out = reranker.rerank("alpha beta", [("a", 1.0), ("b", 1.0)])
    assert [i for i, _ in out] == ["a", "b"]
    assert all(0.0 <= s <= 1.0 for _, s in out)


def test_only_the_first_depth_hits_move() -> None:
    reranker = SentenceReranker(SOURCES.__getitem__, RerankConfig(depth=2))
    hits = [("other", 0.9), ("scattered", 0.8), ("together", 0.7)]
    order = [i for i, _ in reranker.rerank("When was the club founded?", hits)]
    assert order[2] == "together"  # beyond the depth: untouched even though it would win


def test_retriever_reranks_text_queries_from_the_memorys_source_text() -> None:
    memory, emb = Memory(), HashingEmbedder()
    index = HybridIndex(emb.dim)
    ops = GraphOps(memory, index, emb, EventBus())
    nodes = []
    for node_id in SOURCES:
        node = Node(id=node_id, summary="notes on the town", context="local history", keywords=[])
        node.embedding = emb.embed([node.embedding_text()])[0]
        nodes.append(node)
    for node in nodes:
        memory.tree.create_entry(SOURCES[node.id], [node.id])
    ops.add_nodes(nodes)
    plain = Retriever(memory.graph, index, emb, k=1, alpha=0.5)
    reranked = Retriever(memory.graph, index, emb, k=1, alpha=0.5, reranker=SentenceReranker(memory.source_text))
    question = "When was the stadium club founded?"
    assert plain.ranked(question)[0][0].id == "scattered"  # more question words overall
    assert reranked.ranked(question)[0][0].id == "together"
