from __future__ import annotations

import numpy as np

from memory_bank.events import EdgeAdded, EventBus, NodesMerged, NodeUpdated
from memory_bank.ingest.graph_ops import GraphOps
from memory_bank.memory.query_graph import Node
from memory_bank.memory.store import Memory
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.retrieval.hybrid_index import HybridIndex
from memory_bank.retrieval.retriever import Retriever


def setup(n: int = 5):
    memory, events, emb = Memory(), EventBus(), HashingEmbedder()
    index = HybridIndex(emb.dim)
    ops = GraphOps(memory, index, emb, events)
    nodes = [Node(id=f"n{i}", summary=f"topic {i} words about subject{i}", context=f"context {i}",
                  keywords=[f"k{i}"], timestamp=float(i)) for i in range(n)]
    vecs = emb.embed([x.embedding_text() for x in nodes])
    for node, v in zip(nodes, vecs):
        node.embedding = v
    ops.add_nodes(nodes)
    return memory, events, ops, Retriever(memory.graph, index, emb, k=2, alpha=0.5)


def test_merge_inherits_edges_without_duplicates_or_self_loops() -> None:
    memory, events, ops, _ = setup()
    for a, b in [("n0", "n1"), ("n0", "n2"), ("n1", "n2"), ("n1", "n3")]:
        ops.add_edge(a, b)
    assert not ops.add_edge("n4", "n4")
    node, inherited = ops.merge(["n0", "n1"], summary="merged", context="c", keywords=["k"], description="dup")
    assert sorted(inherited) == ["n2", "n3"]
    assert sorted(memory.graph.neighbors(node.id)) == ["n2", "n3"]
    assert "n0" not in memory.graph and "n1" not in memory.graph
    assert memory.resolve_id("n0") == node.id
    assert node.id not in memory.graph.neighbors(node.id)
    assert memory.tree.merge_events[-1].merged_node_ids == ("n0", "n1")
    assert any(isinstance(e, NodesMerged) for e in events.log())
    assert sum(isinstance(e, EdgeAdded) for e in events.log()) == 4


def test_merge_of_a_chain_follows_successors() -> None:
    memory, _, ops, _ = setup()
    first, _ = ops.merge(["n0", "n1"], summary="a", context="a", keywords=[], description="")
    second, _ = ops.merge([first.id, "n2"], summary="b", context="b", keywords=[], description="")
    assert memory.resolve_id("n0") == second.id
    assert [e.new_node_id for e in memory.tree.lineage(second.id)] == [first.id, second.id]


def test_update_context_reembeds_only_changed_nodes() -> None:
    _, events, ops, retriever = setup()
    before = ops.index.vector("n0").copy()
    ops.update_context({"n0": ("brand new zebra context", ["zebra"]), "n1": (None, None)})
    assert not np.allclose(before, ops.index.vector("n0"))
    updated = [e.node_id for e in events.log() if isinstance(e, NodeUpdated)]
    assert updated == ["n0"]
    assert retriever.ranked_ids(["zebra"], None, k=1)[0][0] == "n0"


def test_retrieve_puts_hits_first_then_neighbours_and_honours_exclude() -> None:
    memory, _, ops, retriever = setup()
    ops.add_edge("n0", "n4")
    ops.add_edge("n0", "n3")
    vec = memory.graph.get("n0").embedding
    hits = retriever.with_neighbours([k for k, _ in retriever.ranked_ids(["subject0"], vec, k=1)])
    assert hits[0].id == "n0" and {n.id for n in hits[1:]} == {"n3", "n4"}
    assert [n.id for n in retriever.with_neighbours(["n0"], newest_first=True)] == ["n4", "n3", "n0"]
    hits = retriever.with_neighbours(["n0"], exclude={"n4"})
    assert [n.id for n in hits] == ["n0", "n3"]
    cands = retriever.candidates_for(memory.graph.get("n0"), k=2)
    assert "n0" not in [c.id for c in cands]


def test_conflict_follows_a_merge_and_closes_when_both_sides_merge() -> None:
    memory, _, ops, _ = setup()
    c = ops.flag_conflict("n0", "n1", "year differs")
    assert ops.flag_conflict("n1", "n0", "again").id == c.id  # one record per pair
    other, _ = ops.merge(["n1", "n2"], summary="x", context="x", keywords=[], description="")
    assert {c.node_a, c.node_b} == {"n0", other.id}
    ops.merge(["n0", other.id], summary="y", context="y", keywords=[], description="")
    assert c.status == "resolved"
