"""A task whose vectors another model made (issue 26, bad input): reopened or imported under another embedding
model (the hashing fallback after the model failed to load, or a model of another size), its nodes are embedded
again with a note, never searched with questions of one model against nodes of another; the store then records
the new model, so the next reopen embeds nothing. Real MiniLM, real SQLite and PostgreSQL."""

from __future__ import annotations

import json

import numpy as np

from memory_bank import MemoryBank, Settings
from memory_bank.events import ErrorRaised
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder
from memory_bank.store import SqlTaskStore

TEXT = ("The policy engine decides whether to grant access to a resource.\n\n"
        "Photosynthesis turns light, water and carbon dioxide into sugar in the leaves of plants.\n\n"
        "The Mongol forces withdrew from central Europe in 1242 after the death of the Great Khan.")
QUESTION = "Why did the Mongol army leave Europe?"


def _exported(settings: Settings, embedder: CachedEmbedder) -> dict:
    """The export of a bank that read TEXT with `embedder`."""
    source = MemoryBank(settings, embedder=embedder)
    try:
        source.ingest_text(TEXT, source="notes.txt")
        return source.export()
    finally:
        source.clear()


def _notes(bank: MemoryBank) -> list[str]:
    return [e.message for e in bank.events.log() if isinstance(e, ErrorRaised) and e.where == "embedding"]


def test_a_task_reopened_under_another_model_is_embedded_again_once(settings: Settings, store: SqlTaskStore,
                                                                    embedder: CachedEmbedder) -> None:
    hashing = CachedEmbedder(HashingEmbedder())
    first = MemoryBank(settings, embedder=hashing, store=store, task_name="made while the model was missing")
    first.ingest_text(TEXT, source="notes.txt")
    task_id = first.task_id
    assert task_id is not None
    first.close()

    again = MemoryBank.open(task_id, store, settings, embedder=embedder)
    try:
        nodes = again.memory.graph.nodes()
        expected = embedder.embed([n.embedding_text() for n in nodes])
        for node, vector in zip(nodes, expected):
            assert float(node.embedding @ vector) >= 0.9999, "a node kept the hashing fallback's vector"
        assert any("made by hashing-fallback" in note and f"its {len(nodes)} nodes were embedded again with "
                   "all-MiniLM-L6-v2" in note for note in _notes(again)), _notes(again)
        top = again.ranked(QUESTION, k=1)[0][0]
        assert "Mongol" in top.summary + top.context + again.memory.source_text(top.id)
        assert again.export()["embedding_model"] == "all-MiniLM-L6-v2"
    finally:
        again.close()

    third = MemoryBank.open(task_id, store, settings, embedder=embedder)
    try:
        assert _notes(third) == [], "the new vectors were not stored: the task was embedded a second time"
        assert store.load(task_id).export["embedding_model"] == "all-MiniLM-L6-v2"
        stored = {n.id: n.embedding for n in third.memory.graph.nodes()}
        for node, vector in zip(third.memory.graph.nodes(), embedder.embed([n.embedding_text() for n in
                                                                             third.memory.graph.nodes()])):
            assert float(stored[node.id] @ vector) >= 0.9999
    finally:
        third.close()


def test_an_export_of_another_model_or_size_is_embedded_again_not_mixed(embedder: CachedEmbedder) -> None:
    settings = Settings(engine="offline")
    exported = _exported(settings, CachedEmbedder(HashingEmbedder()))
    assert exported["embedding_model"] == "hashing-fallback"
    small = json.loads(json.dumps(exported))  # the same task from a model of 8 dimensions, named like ours
    small["embedding_model"] = "all-MiniLM-L6-v2"
    for node in small["query_graph"]["nodes"]:
        node["embedding"] = [0.5] * 8
    for document in (exported, small):
        bank = MemoryBank.from_export(json.dumps(document), settings, embedder=embedder)
        try:
            nodes = bank.memory.graph.nodes()
            assert all(n.embedding is not None and n.embedding.shape == (384,) for n in nodes)
            vectors = np.stack([n.embedding for n in nodes])
            expected = embedder.embed([n.embedding_text() for n in nodes])
            assert float((vectors * expected).sum(axis=1).min()) >= 0.9999
            assert len(_notes(bank)) == 1
            assert "Mongol" in bank.memory.source_text(bank.ranked(QUESTION, k=1)[0][0].id)
        finally:
            bank.clear()


def test_an_export_of_the_same_model_keeps_its_vectors(embedder: CachedEmbedder) -> None:
    settings = Settings(engine="offline")
    exported = _exported(settings, embedder)
    marked = json.loads(json.dumps(exported))
    for node in marked["query_graph"]["nodes"]:  # still unit length, visibly not what the model would make
        node["embedding"] = list(np.roll(np.asarray(node["embedding"]), 1))
    bank = MemoryBank.from_export(json.dumps(marked), settings, embedder=embedder)
    try:
        assert _notes(bank) == []
        for node, record in zip(bank.memory.graph.nodes(), marked["query_graph"]["nodes"]):
            assert np.allclose(node.embedding, record["embedding"], atol=1e-6)
    finally:
        bank.clear()


def test_a_node_without_a_vector_is_embedded_without_a_note_about_another_model(embedder: CachedEmbedder) -> None:
    settings = Settings(engine="offline")
    exported = _exported(settings, embedder)
    exported["query_graph"]["nodes"][0]["embedding"] = None
    bank = MemoryBank.from_export(json.dumps(exported), settings, embedder=embedder)
    try:
        assert _notes(bank) == []  # the vectors there are this model's: nothing was replaced
        first = bank.memory.graph.get(exported["query_graph"]["nodes"][0]["id"])
        assert first is not None and first.embedding is not None
        assert float(first.embedding @ embedder.embed([first.embedding_text()])[0]) >= 0.9999
    finally:
        bank.clear()
