"""One writer per task across processes, on SQLite and on a real PostgreSQL server (see conftest).

Before the lease, two processes writing one task collided on the run log's keys ("UNIQUE constraint failed:
events.task_id, events.seq") and one side's writes were lost for good. Now the second process is told the task
is busy, a process that lost its lease cannot write, and a killed holder's task is taken over with everything it
had written.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from memory_bank import MemoryBank, SaveFailed, StoreError, TaskBusy
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore
from memory_bank.store.lease import LEASE_SECONDS, LeaseKeeper, TaskLeases, dead_here

ROOT = Path(__file__).resolve().parents[2]


def _second(settings) -> SqlTaskStore:  # noqa: ANN001 - another app process's store on the same database
    return SqlTaskStore.from_settings(settings)


def test_a_second_process_gets_task_busy_and_the_task_once_the_first_closes_it(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder())
    bank.ingest_text("The first server wrote this about the pump.", source="first")
    other = _second(settings)
    with pytest.raises(TaskBusy, match=f"process {os.getpid()} on") as caught:
        MemoryBank.open(bank.task_id, other, settings, embedder=HashingEmbedder())
    assert caught.value.holder == store.leases.holder and isinstance(caught.value, StoreError)
    nodes = bank.snapshot().counts["nodes"]
    bank.close()
    reopened = MemoryBank.open(bank.task_id, other, settings, embedder=HashingEmbedder())
    assert reopened.snapshot().counts["nodes"] == nodes >= 1
    reopened.ingest_text("The second server added this about the valve.", source="second")
    reopened.close()
    again = MemoryBank.open(bank.task_id, store, settings, embedder=HashingEmbedder())
    assert again.snapshot().counts["nodes"] > nodes
    again.close()
    other.close()


def test_a_process_whose_lease_was_taken_writes_nothing_and_says_so(settings, store):
    bank = MemoryBank(settings, store=store, embedder=HashingEmbedder())
    bank.ingest_text("Written while the lease was held.", source="held")
    bank.flush()
    failures: list[SaveFailed] = []
    bank.subscribe(lambda e: failures.append(e) if isinstance(e, SaveFailed) else None)
    with store.engine.begin() as conn:  # this holder froze past its lease, and another process took the task
        conn.execute(text("UPDATE task_leases SET holder = 'elsewhere:1:1:x', expires = 0"))
    thief = TaskLeases(store.engine, store.where, holder="elsewhere:2:2:y")
    thief.acquire(bank.task_id)
    rows_before = _count(store, bank.task_id)
    bank.ingest_text("Written after the lease was lost: it must not land.", source="late")
    with pytest.raises(TaskBusy, match="open for writing in another app process"):
        bank.flush()
    assert _count(store, bank.task_id) == rows_before, "nothing was written without the lease"
    assert any("open for writing in another app process" in f.message for f in failures)
    bank.close(save=False)


def _count(store: SqlTaskStore, task_id: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM nodes WHERE task_id = :t"), {"t": task_id}).scalar()


def test_a_lease_that_ran_out_is_taken_over_and_a_live_one_is_not(store):
    task_id = store.create_task("t", "", "model")
    now = [1000.0]
    far = TaskLeases(store.engine, store.where, holder="another-host:7:7:a", clock=lambda: now[0])
    near = TaskLeases(store.engine, store.where, clock=lambda: now[0])
    far.acquire(task_id)
    assert near.live() == {task_id}
    now[0] += LEASE_SECONDS - 1
    with pytest.raises(TaskBusy):
        near.acquire(task_id)
    now[0] += 2  # the other machine stopped renewing LEASE_SECONDS ago
    assert near.live() == set(), "a lease that ran out holds nothing"
    near.acquire(task_id)
    assert near.holder_of(task_id) == near.holder
    assert not dead_here("another-host:7:7:a"), "a holder on another machine is judged by its lease only"


def test_two_processes_racing_for_one_task_get_exactly_one_lease(settings, store):
    task_id = store.create_task("t", "", "model")
    stores = [_second(settings) for _ in range(4)]
    won: list[str] = []
    busy: list[str] = []
    barrier = threading.Barrier(len(stores))

    def take(s: SqlTaskStore) -> None:
        barrier.wait()
        try:
            s.leases.acquire(task_id)
            won.append(s.leases.holder)
        except TaskBusy as exc:
            busy.append(exc.holder)

    threads = [threading.Thread(target=take, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(won) == 1 and len(busy) == 3 and set(busy) == set(won)
    for s in stores:
        s.close()


def test_a_killed_holder_is_taken_over_with_everything_it_wrote(settings, store):
    task_id = store.create_task("shared", "", HashingEmbedder().name)
    env = {**os.environ, "MEMORY_BANK_DATA_DIR": str(settings.data_dir), "MEMORY_BANK_ENGINE": "offline"}
    if settings.database_url is not None:
        env["DATABASE_URL"] = settings.secret("database_url")
    proc = subprocess.Popen([sys.executable, "-m", "tests.store.lease_child", task_id], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("wrote"), proc.stderr.read()[-3000:]
        child_nodes = int(line.split()[2])
        with pytest.raises(TaskBusy, match=f"process {proc.pid} on"):
            MemoryBank.open(task_id, store, settings, embedder=HashingEmbedder())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    # the holder is dead: this machine sees its process gone and takes the task at once (another machine would
    # after LEASE_SECONDS); what the child flushed before the kill is all there
    bank = MemoryBank.open(task_id, store, settings, embedder=HashingEmbedder())
    assert bank.snapshot().counts["nodes"] == child_nodes >= 1
    assert any("child process wrote" in n.summary.lower() or "pump" in n.summary.lower()
               for n in bank.memory.graph.nodes())
    bank.ingest_text("The survivor goes on writing.", source="survivor")
    bank.close()
    again = MemoryBank.open(task_id, store, settings, embedder=HashingEmbedder())
    assert again.snapshot().counts["nodes"] > child_nodes
    again.close()


def test_retention_leaves_a_task_another_process_has_open(store):
    leased, idle = (store.create_task(name, "", "model") for name in ("leased", "idle"))
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE tasks SET updated = 0"))  # both untouched for decades
    TaskLeases(store.engine, store.where, holder="another-host:9:9:z").acquire(leased)
    assert store.delete_untouched(30, keep=store.leases.live()) == [idle]  # as the app's hourly sweep calls it
    assert store.exists(leased) and not store.exists(idle)


def _until(condition, seconds: float = 30.0) -> bool:  # noqa: ANN001 - waits, never asserts on time
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_a_keeper_says_when_its_open_task_was_taken(store, caplog):  # noqa: ANN001
    task_id = store.create_task("t", "", "model")
    store.leases.acquire(task_id)
    lost: list[StoreError] = []
    keeper = LeaseKeeper(store.leases, task_id, lost.append, every=0.02)
    with store.engine.begin() as conn:  # another process took the task while it was open here
        conn.execute(text("UPDATE task_leases SET holder = 'elsewhere:1:1:x'"))
    assert _until(lambda: not keeper.running), "a keeper whose task was taken stops"
    assert len(lost) == 1 and isinstance(lost[0], TaskBusy)
    assert "open for writing in another app process" in caplog.text


def test_a_keeper_stops_without_a_word_once_its_store_is_closed(settings, caplog):  # noqa: ANN001
    """The database may be gone once its store is closed (the session's PostgreSQL server stops): a keeper of a
    task still open on that store ends at its next turn, and logs nothing."""
    store = SqlTaskStore.from_settings(settings)
    task_id = store.create_task("t", "", "model")
    store.leases.acquire(task_id)
    lost: list[StoreError] = []
    keeper = LeaseKeeper(store.leases, task_id, lost.append, every=0.02)
    assert _until(lambda: (store.leases.holder_of(task_id) or "") == store.leases.holder)
    store.close()
    assert _until(lambda: not keeper.running), "the keeper ended with its store"
    assert lost == [] and not [r for r in caplog.records if r.levelno >= logging.WARNING]
