"""The task store's contract, on SQLite and on a real PostgreSQL server (see conftest)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from memory_bank import MemoryBank, Settings
from memory_bank.errors import StoreError, TaskNotFound
from memory_bank.limits import LOCAL_USER
from memory_bank.store import SqlTaskStore
from memory_bank.store.migrations import CURRENT
from memory_bank.store.schema import TASK_TABLES, FileRow, TaskRow

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "northwind"
NOTES = [SAMPLES / n for n in ("project-overview.md", "finance-review.md", "board-minutes.md")]
QUESTION = "What is the Northwind project budget, and who approved it?"


def _bank(settings: Settings, store: SqlTaskStore, embedder) -> MemoryBank:  # noqa: ANN001
    return MemoryBank(settings, store=store, embedder=embedder)


def test_a_stored_run_reopens_equal_to_its_export_and_import_restores_the_session(settings, store, embedder,
                                                                                  reopen):
    bank = _bank(settings, store, embedder)
    result = bank.run(QUESTION, files=NOTES)
    exported = bank.export()
    bank.close()
    assert exported["interaction_tree"]["merge_events"] and exported["conflicts"], "the notes merge and conflict"

    reopened = MemoryBank.open(bank.task_id, store, settings, embedder=embedder)
    assert reopened.export() == exported
    (run,) = reopened.stored_runs()
    assert (run.status, run.question, run.result["answer"]) == ("done", QUESTION, result.answer)
    assert run.result["citations"] == [c.model_dump(mode="json") for c in result.citations]
    assert run.result["usage"]["calls"] == 0 and run.inputs["files"][0]["name"] == "project-overview.md"
    reopened.close()

    imported = MemoryBank.from_export(exported, settings, store=store, embedder=embedder)
    imported.close()
    assert imported.task_id != bank.task_id
    assert reopen(imported.task_id).export() == exported


def test_changes_are_written_within_a_second_without_a_flush(settings, store, embedder):
    bank = _bank(settings, store, embedder)
    ids = bank.ingest_text(NOTES[0].read_text(), source="overview")
    deadline = time.monotonic() + 10  # generous on a loaded machine; the writer runs every 0.5 s
    while store.list_tasks([bank.task_id])[0].nodes != len(ids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.list_tasks([bank.task_id])[0].nodes == len(ids) > 0
    bank.close()


def test_two_banks_writing_from_two_threads(settings, store, embedder, reopen):
    banks = [_bank(settings, store, embedder) for _ in range(2)]
    errors: list[BaseException] = []

    def work(bank: MemoryBank, files: list[Path]) -> None:
        try:
            for f in files:
                bank.ingest_file(f)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread's assert
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(banks[0], NOTES[:2])),
               threading.Thread(target=work, args=(banks[1], NOTES[1:]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    exports = [b.export() for b in banks]
    for b in banks:
        b.close()
    for bank, exported in zip(banks, exports):
        assert reopen(bank.task_id).export() == exported
    assert {t.id: t.sources for t in store.list_tasks()} == {
        banks[0].task_id: ("finance-review.md", "project-overview.md"),
        banks[1].task_id: ("board-minutes.md", "finance-review.md")}


def _rows(store: SqlTaskStore, task_id: str) -> int:
    with store.engine.connect() as conn:
        total = sum(conn.execute(select(func.count()).select_from(t).where(t.task_id == task_id)).scalar()
                    for t in TASK_TABLES)
        return total + conn.execute(select(func.count()).select_from(TaskRow).where(TaskRow.id == task_id)).scalar()


def test_delete_leaves_no_rows_and_no_files_but_keeps_what_another_task_uses(settings, store, embedder):
    a, b = _bank(settings, store, embedder), _bank(settings, store, embedder)
    a.run(QUESTION, files=NOTES[:2])
    b.ingest_file(NOTES[1])  # the same content as a's second file: stored once
    a.close()
    b.close()
    assert len(store.files.stored()) == 2 and _rows(store, a.task_id) > 20

    store.delete_task(a.task_id)
    assert _rows(store, a.task_id) == 0
    assert [p.name for p in store.files.root.glob("*/*")] == [store.files.path(
        next(iter(store.files.stored()))).name]
    with pytest.raises(TaskNotFound):
        MemoryBank.open(a.task_id, store, settings, embedder=embedder)

    store.delete_task(b.task_id)
    assert _rows(store, b.task_id) == 0 and store.files.stored() == set()
    assert list(store.files.root.iterdir()) == []
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(FileRow)).scalar() == 0


def test_end_task_clears_the_stored_memory(settings, store, embedder, reopen):
    bank = _bank(settings, store, embedder)
    bank.run(QUESTION, files=NOTES[:1])
    bank.clear()
    bank.close()
    reopened = reopen(bank.task_id)
    assert reopened.snapshot().counts["nodes"] == 0 and reopened.stored_runs() == []
    assert reopened.export()["run_log"] == []


def test_a_corrupt_sqlite_file_is_a_clear_error(tmp_path: Path):
    (tmp_path / "tasks.sqlite3").write_bytes(b"this is not a database" * 400)
    with pytest.raises(StoreError, match="cannot be opened as a task store: file is not a database"):
        SqlTaskStore(tmp_path)


def test_someone_elses_database_is_refused(settings, store):
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE schema_version"))
    store.close()
    with pytest.raises(StoreError, match="not a memory bank task store"):
        SqlTaskStore.from_settings(settings)


def test_a_newer_schema_is_refused_untouched(settings, store):
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = 99"))
    store.close()
    with pytest.raises(StoreError, match="newer version of the app"):
        SqlTaskStore.from_settings(settings)


def test_a_version_1_database_is_migrated_keeping_its_tasks(settings, store):
    task_id = store.create_task("old", "", "model")
    run_id = store.start_run(task_id, "a question", {"files": []})
    with store.engine.begin() as conn:  # make it what version 1 wrote
        conn.execute(text("DROP TABLE ingest_progress"))
        conn.execute(text("ALTER TABLE runs DROP COLUMN heartbeat"))
        _make_v2(conn)
        conn.execute(text("UPDATE schema_version SET version = 1"))
    store.close()
    migrated = SqlTaskStore.from_settings(settings)
    with migrated.engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM schema_version")).scalar() == CURRENT == 4
    assert [(t.id, t.name, t.last_question) for t in migrated.list_tasks()] == [(task_id, "old", "a question")]
    assert migrated.owners.owned(LOCAL_USER) == [task_id], "a task from before accounts is the single user's"
    assert migrated.mark_interrupted(task_id, stale_seconds=0) == [run_id]  # no heartbeat: the run is dead
    assert migrated.progress(task_id, run_id) == {}
    migrated.close()


def _make_v2(conn) -> None:  # noqa: ANN001 - what version 2 had: no owners, leases or share links
    conn.execute(text("DROP TABLE task_leases"))
    conn.execute(text("DROP TABLE task_shares"))
    conn.execute(text("DROP INDEX ix_tasks_owner"))
    conn.execute(text("ALTER TABLE tasks DROP COLUMN owner"))


def test_a_version_2_database_is_migrated_its_tasks_the_single_users(settings, store, embedder):
    bank = _bank(settings, store, embedder)
    bank.ingest_text("The pump moves 40 litres a minute.")
    bank.close()
    with store.engine.begin() as conn:
        _make_v2(conn)
        conn.execute(text("UPDATE schema_version SET version = 2"))
    store.close()
    migrated = SqlTaskStore.from_settings(settings)
    assert migrated.owners.owned(LOCAL_USER) == [bank.task_id]
    reopened = MemoryBank.open(bank.task_id, migrated, settings, embedder=embedder)
    assert reopened.snapshot().counts["nodes"] == bank.snapshot().counts["nodes"] >= 1
    reopened.close()
    assert migrated.owners.assign("alice") == 1
    assert migrated.owners.owned("alice") == [bank.task_id] and migrated.owners.owned(LOCAL_USER) == []
    migrated.close()


def test_the_longest_source_name_of_wide_characters_stores_on_every_backend(settings, store, embedder, tmp_path):
    """A name shortened at entry must still fit every backend's keys: PostgreSQL refuses an index row over
    2,704 bytes, and a file's name is part of `task_files`' and `ingest_progress`' keys."""
    import random

    from memory_bank.limits import MAX_NAME

    rng = random.Random(7)
    name = "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(MAX_NAME + 50)) + ".md"  # 3 bytes each
    doc = tmp_path / "doc.md"
    doc.write_text(NOTES[0].read_text())
    bank = _bank(settings, store, embedder)
    assert bank.ingest_file(doc, name=name)
    result = bank.run(QUESTION, files=[doc])
    assert result.new_node_ids is not None
    bank.close()
    reopened = MemoryBank.open(bank.task_id, store, settings, embedder=embedder)
    assert reopened.export()["query_graph"] == bank.export()["query_graph"]
    reopened.close()
