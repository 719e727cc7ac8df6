"""Read-only links on SQLite and PostgreSQL: only the owner makes, lists and revokes them; a revoked, unknown,
malformed link and one to a deleted task all read as not found; reading through a link takes no lease."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank, TaskNotFound
from memory_bank.retrieval.embedding import HashingEmbedder


def test_only_the_owner_shares_and_revokes_and_a_link_reads_without_the_lease(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder(), owner="alice")
    bank.ingest_text("The pump moves 40 litres a minute.", source="notes")
    bank.flush()
    task_id = bank.task_id
    with pytest.raises(TaskNotFound):
        store.shares.create(task_id, "bob")
    token = store.shares.create(task_id, "alice")
    assert [t for t, _ in store.shares.of_task(task_id, "alice")] == [token]
    assert store.shares.of_task(task_id, "bob") == []
    assert store.shares.resolve(token) == task_id
    assert store.load(task_id).export["query_graph"]["nodes"], "a reader loads the task while its writer holds it"
    assert store.leases.holder_of(task_id) == store.leases.holder, "and the lease stays the writer's"
    assert store.shares.revoke(token, "bob") is False and store.shares.resolve(token) == task_id
    assert store.shares.revoke(token, "alice") is True
    for bad in (token, "x" * 32, "../../etc/passwd", "' OR '1'='1", ""):
        with pytest.raises(TaskNotFound):
            store.shares.resolve(bad)
    again = store.shares.create(task_id, "alice")
    bank.close(save=False)
    store.delete_task(task_id)
    with pytest.raises(TaskNotFound):
        store.shares.resolve(again)
