"""Nothing is lost silently when the store fails: every failed write is a `SaveFailed` event, the task's save
status and a `StoreError` from `flush()` and `close()`; what was not written stays in memory, and the first
flush after the cause is fixed writes all of it (a reopen then finds exactly the memory the bank held).

Failures are real, not simulated: an SQLite trigger that aborts inserts, a memory item the export schema refuses,
data folders the system will not let this user write.
"""

from __future__ import annotations

import os
import select
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text

from memory_bank import MemoryBank
from memory_bank.errors import StoreError
from memory_bank.events import Event, SaveFailed, SaveRecovered
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore

from .stored import node_ids, reopened_equal, stored_bank

TEXT = "The DELTA gateway routes traffic between sites.\n\nThe OMEGA tank holds forty litres."
FAIL = "CREATE TRIGGER amb_fail BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
HANG_GUARD = 60.0  # seconds: waiting for the writer's own retry; reaching it means it never came


def _recorder(bank: MemoryBank) -> list[Event]:
    seen: list[Event] = []
    bank.subscribe(lambda e: seen.append(e) if isinstance(e, (SaveFailed, SaveRecovered)) else None)
    return seen


def _stored_nodes(store: SqlTaskStore, task_id: str | None) -> int:
    return store.list_tasks([task_id or ""])[0].nodes


@pytest.mark.parametrize("table", ["nodes", "events", "entries"])
def test_a_failing_write_is_reported_kept_and_saved_once_fixed(tmp_path: Path, table: str) -> None:
    bank, store, settings = stored_bank(tmp_path)
    before, stored_before = node_ids(bank), _stored_nodes(store, bank.task_id)
    seen = _recorder(bank)
    with store.engine.begin() as conn:
        conn.execute(text(FAIL.format(table=table)))

    new = bank.ingest_text(TEXT, source="more.txt")
    for _ in range(3):  # every flush says so; the event is published once per distinct failure
        with pytest.raises(StoreError, match="injected failure"):
            bank.flush()
    with pytest.raises(StoreError, match="injected failure"):
        bank.close()
    status = bank.save_status()
    assert status is not None and not status.ok and "injected failure" in status.error and status.failures >= 4
    assert [type(e) for e in seen] == [SaveFailed] and "kept in memory" in seen[0].message
    assert node_ids(bank) == before | set(new), "the memory keeps everything"
    assert _stored_nodes(store, bank.task_id) == stored_before, "the failed write was rolled back whole"

    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER amb_fail"))
    reopened_equal(bank, store, settings)  # close() now succeeds and the reopen has every node
    assert [type(e) for e in seen] == [SaveFailed, SaveRecovered]
    assert bank.save_status() == type(status)(ok=True)


def test_a_run_whose_memory_cannot_be_saved_still_answers_and_is_recorded_later(tmp_path: Path) -> None:
    bank, store, settings = stored_bank(tmp_path)
    with store.engine.begin() as conn:
        conn.execute(text(FAIL.format(table="nodes")))
    result = bank.run("What does the OMEGA tank hold?", text=TEXT)
    assert "forty" in result.answer
    assert any("injected failure" in str(e) for e in result.errors), result.errors
    (run,) = bank.stored_runs()
    assert run.status == "running", "not recorded as done ahead of the nodes it cites"
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER amb_fail"))
    bank.flush()
    (run,) = bank.stored_runs()
    assert (run.status, run.result["answer"]) == ("done", result.answer)
    reopened_equal(bank, store, settings)


def test_the_writer_survives_a_record_the_schema_refuses_and_saves_by_itself_once_fixed(tmp_path: Path) -> None:
    """The original failure class (a value past the export schema's bound reaching the writer), forced past the
    entry bounds: the background writer must report it and keep going, not die."""
    bank, store, settings = stored_bank(tmp_path)
    seen = _recorder(bank)
    with bank.memory.write():
        node = next(iter(bank.memory.graph.nodes()))
        node.context = "c" * 30_000  # bypasses every entry point on purpose
    bank.ingest_text(TEXT, source="more.txt")  # marks the task dirty: the writer tries on its own
    _wait_for(lambda: bool(seen), "the writer reported the failure")
    assert isinstance(seen[0], SaveFailed) and "context" in seen[0].message
    with pytest.raises(StoreError, match="context"):
        bank.flush()
    with bank.memory.write():
        node.context = "fixed"
    _wait_for(lambda: bank.save_status().ok, "the writer saved by itself after the fix")
    assert isinstance(seen[-1], SaveRecovered)
    assert _stored_nodes(store, bank.task_id) == len(node_ids(bank))
    reopened_equal(bank, store, settings)


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def test_a_new_task_whose_first_write_fails_leaves_no_writer_behind(tmp_path: Path) -> None:
    bank, store, settings = stored_bank(tmp_path)
    exported = bank.export()
    with store.engine.begin() as conn:
        conn.execute(text(FAIL.format(table="nodes")))
    writers = {t for t in threading.enumerate() if t.name.startswith("task-writer-")}
    with pytest.raises(StoreError, match="injected failure"):
        MemoryBank.from_export(exported, settings, store=store, embedder=HashingEmbedder())
    assert {t for t in threading.enumerate() if t.name.startswith("task-writer-")} == writers
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER amb_fail"))
    reopened_equal(bank, store, settings)


# -- data folders this user cannot write ---------------------------------------------------------------------


def test_a_data_folder_under_a_file_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be made"):
        SqlTaskStore(blocker / "data")


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux's read-only /sys")
@pytest.mark.parametrize("folder", ["/sys/kernel", "/sys/amb-not-there"])
def test_a_data_folder_on_a_read_only_file_system_is_a_store_error(folder: str) -> None:
    """/sys refuses writes even to root: a read-only place every user meets alike."""
    with pytest.raises(StoreError):
        SqlTaskStore(Path(folder))


def test_a_read_only_data_folder_is_a_store_error_and_the_open_task_is_intact(tmp_path: Path) -> None:
    """A folder without write permission; as root (who ignores permissions) the check runs in a child process
    that drops to the `nobody` user first."""
    bank, store, _ = stored_bank(tmp_path)
    before = node_ids(bank)
    base = Path(tempfile.mkdtemp(prefix="amb-read-only-"))  # pytest's own folders are closed to other users
    try:
        base.chmod(0o755)
        locked = base / "locked"
        locked.mkdir(mode=0o555)
        outcome = _as_unprivileged(lambda: _open_store(locked))
    finally:
        shutil.rmtree(base)
    assert outcome.startswith("StoreError: the data folder") and "read-only" in outcome, outcome
    assert node_ids(bank) == before
    bank.flush()
    assert _stored_nodes(store, bank.task_id) == len(before)
    bank.close()


def _open_store(folder: Path) -> str:
    try:
        SqlTaskStore(folder)
    except StoreError as exc:
        return f"StoreError: {exc}"
    except BaseException as exc:  # noqa: BLE001 - reported to the parent as the wrong outcome
        return f"{type(exc).__name__}: {exc}"
    return "opened"


def _as_unprivileged(work: Callable[[], str]) -> str:
    if os.geteuid() != 0:
        return work()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no pytest machinery from here on, only the result down the pipe
        try:
            os.setgid(65534)
            os.setuid(65534)
            result = work()
        except BaseException as exc:  # noqa: BLE001
            result = f"child failed: {exc!r}"
        os.write(write, result.encode()[:4000])
        os._exit(0)
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], HANG_GUARD)
        assert ready, "the unprivileged child hung"
        return os.read(read, 4000).decode()
    finally:
        os.close(read)
        os.waitpid(pid, 0)
