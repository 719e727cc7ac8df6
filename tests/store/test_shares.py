"""Read-only links on SQLite and PostgreSQL: only the owner makes, lists and revokes them; a revoked, unknown,
malformed, expired link and one to a deleted task all read as not found; reading through a link takes no lease."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from memory_bank import InputError, MemoryBank, SqlTaskStore, TaskNotFound
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store.shares import TaskShares


def test_only_the_owner_shares_and_revokes_and_a_link_reads_without_the_lease(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder(), owner="alice")
    bank.ingest_text("The pump moves 40 litres a minute.", source="notes")
    bank.flush()
    task_id = bank.task_id
    with pytest.raises(TaskNotFound):
        store.shares.create(task_id, "bob")
    token = store.shares.create(task_id, "alice")
    assert [s.token for s in store.shares.of_task(task_id, "alice")] == [token]
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


def test_a_link_works_until_its_chosen_expiry_and_then_reads_exactly_like_an_unknown_one(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder(), owner="alice")
    bank.ingest_text("The pump moves 40 litres a minute.", source="notes")
    bank.flush()
    task_id, now = bank.task_id, [1_000_000.0]
    shares = TaskShares(store.engine, store.where, clock=lambda: now[0])
    week = shares.create(task_id, "alice")
    hour = shares.create(task_id, "alice", lifetime=3600)
    assert [(s.token, s.expires - s.created) for s in shares.of_task(task_id, "alice")] == [(week, 7 * 86400),
                                                                                           (hour, 3600)]
    now[0] += 3599
    assert shares.resolve(hour) == task_id
    now[0] += 1
    with pytest.raises(TaskNotFound) as expired:
        shares.resolve(hour)
    with pytest.raises(TaskNotFound) as unknown:
        shares.resolve("A" * 32)
    assert str(expired.value) == str(unknown.value)
    assert [s.token for s in shares.of_task(task_id, "alice")] == [week], "the owner no longer sees it"
    now[0] += 7 * 86400
    with pytest.raises(TaskNotFound):
        shares.resolve(week)
    fresh = shares.create(task_id, "alice", lifetime=60)
    with store.engine.connect() as conn:  # making a link cleared the expired ones out
        assert conn.execute(text("SELECT token FROM task_shares")).scalars().all() == [fresh]
    for bad in (0, 59, 366 * 86400, float("nan")):
        with pytest.raises(InputError):
            shares.create(task_id, "alice", lifetime=bad)
    bank.close()


def test_links_made_before_expiry_existed_last_the_default_week_from_when_they_were_made(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder(), owner="alice")
    bank.flush()
    token = store.shares.create(bank.task_id, "alice")
    bank.close()
    with store.engine.begin() as conn:  # what version 3 wrote: no expiry
        conn.execute(text("ALTER TABLE task_shares DROP COLUMN expires"))
        conn.execute(text("UPDATE task_shares SET created = created - 8 * 86400"))
        conn.execute(text("UPDATE schema_version SET version = 3"))
    store.close()
    migrated = SqlTaskStore.from_settings(settings)
    with migrated.engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM schema_version")).scalar() == 4
    with pytest.raises(TaskNotFound):  # made 8 days ago: expired a day ago
        migrated.shares.resolve(token)
    with migrated.engine.begin() as conn:
        conn.execute(text("UPDATE task_shares SET expires = expires + 2 * 86400"))
    assert migrated.shares.resolve(token) == bank.task_id
    migrated.close()
