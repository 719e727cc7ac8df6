"""Every field of `Node` reaches the store: the change tracker and the node's record read the fields from the
dataclass, so a field added to `Node` is written and read back without a hand list to extend.

Each node below changes in exactly one field after it was first written, so a field the tracker did not compare
would leave its node unwritten and the reopened task would show the old value.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.memory.export import NodeRecord
from memory_bank.memory.query_graph import Node, Source
from memory_bank.store import SqlTaskStore
from memory_bank.text.furniture import Role


def _changed(dim: int) -> dict[str, object]:
    """One new value per field but the id. A field added to `Node` fails the first test until it has one here."""
    vector = np.zeros(dim, dtype=np.float32)
    vector[0] = 1.0
    return {"summary": "a changed summary", "context": "a changed topic", "keywords": ["changed"],
            "embedding": vector, "timestamp": 1_700_000_000.0,
            "sources": [Source("changed.pdf", page_start=3, page_end=4, printed_start="ii", printed_end="iii",
                               section=("2 Changed",))],
            "merged_from": ["an-old-node"], "kind": "section", "role": Role.CONTENTS, "title": "Changed title"}


def test_every_node_field_has_a_changed_value_and_a_record_field() -> None:
    names = {f.name for f in fields(Node)}
    assert set(_changed(4)) == names - {"id"}, "a new Node field: give it a changed value in _changed()"
    assert set(NodeRecord.model_fields) == names, "the export record and the node hold the same fields"


def _node(i: int, dim: int) -> Node:
    vector = np.zeros(dim, dtype=np.float32)
    vector[1] = 1.0
    return Node(id=f"node-{i}", summary=f"summary {i}", context=f"topic {i}", keywords=[f"k{i}"], embedding=vector,
                timestamp=1_600_000_000.0 + i, sources=[Source(f"doc{i}.md")], title=f"Title {i}")


@pytest.fixture
def sqlite_store(tmp_path):  # noqa: ANN001, ANN201
    opened = SqlTaskStore.from_settings(Settings(data_dir=tmp_path / "data"))
    yield opened
    opened.close()


def test_a_change_to_any_one_node_field_is_stored_and_read_back(tmp_path, sqlite_store, embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    changed = _changed(embedder.dim)
    bank = MemoryBank(settings, store=sqlite_store, embedder=embedder)
    names = sorted(changed)
    with bank.memory.write():
        for i in range(len(names) + 1):
            bank.memory.graph.add_node(_node(i, embedder.dim))
    bank.flush()
    with bank.memory.write():
        for i, name in enumerate(names):
            setattr(bank.memory.graph.get(f"node-{i}"), name, changed[name])
        bank.memory.graph.get(f"node-{len(names)}").keywords.append("added in place")
    bank.flush()
    bank.close()

    reopened = MemoryBank.open(bank.task_id, sqlite_store, settings, embedder=embedder)
    try:
        for i, name in enumerate(names):
            stored = getattr(reopened.memory.graph.get(f"node-{i}"), name)
            if name == "embedding":
                assert np.array_equal(stored, changed[name])
            else:
                assert stored == changed[name], f"{name} was not stored"
        assert reopened.memory.graph.get(f"node-{len(names)}").keywords == [f"k{len(names)}", "added in place"]
    finally:
        reopened.close()
