"""A run killed mid-ingestion (SIGKILL, as a crash) is 'interrupted' on reopen, and `resume` finishes it from
the chunk where it stopped without storing anything twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from memory_bank import MemoryBank
from memory_bank.store import SqlTaskStore

from ..conftest import SHARED_DATA

SQUAD = SHARED_DATA / "squad" / "squad_dev_visible.json"
ROOT = Path(__file__).resolve().parents[2]


def _document(tmp_path: Path) -> Path:
    """Real text: the first SQuAD contexts, about 1,300 words (three or more chunks at a 512-token window)."""
    if not SQUAD.is_file():
        pytest.skip(f"shared data missing: {SQUAD}")
    data = json.loads(SQUAD.read_text())
    paragraphs = [p["context"] for article in data["data"][:3] for p in article["paragraphs"]][:9]
    path = tmp_path / "squad-notes.txt"
    path.write_text("\n\n".join(paragraphs))
    return path


def _wait_for_chunks(store: SqlTaskStore, proc: subprocess.Popen, done: int) -> tuple[str, str]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
        tasks = store.list_tasks()
        if tasks:
            runs = store.runs(tasks[0].id)
            if runs and store.progress(tasks[0].id, runs[0].run_id).get("squad-notes.txt", (0, 0))[0] >= done:
                return tasks[0].id, runs[0].run_id
        time.sleep(0.2)
    raise TimeoutError("the child never stored its second chunk")


def test_a_killed_run_is_interrupted_and_resumes_without_duplicates(tmp_path, settings, store, embedder,
                                                                    reopen):
    settings = settings.model_copy(update={"agent_window": 512})
    doc = _document(tmp_path)
    env = {**os.environ, "MEMORY_BANK_DATA_DIR": str(settings.data_dir), "AGENT_WINDOW": "512",
           "MEMORY_BANK_ENGINE": "offline"}
    if settings.database_url is not None:
        env["DATABASE_URL"] = settings.secret("database_url")
    proc = subprocess.Popen([sys.executable, "-m", "tests.store.crash_child", str(doc), "Who founded it?"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        task_id, run_id = _wait_for_chunks(store, proc, 2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

    bank = MemoryBank.open(task_id, store, settings, embedder=embedder, stale_seconds=0)
    (run,) = bank.stored_runs()
    assert run.status == "interrupted"
    before = bank.snapshot().counts
    assert before["nodes"] > 0
    done, total = store.progress(task_id, run_id)["squad-notes.txt"]
    assert 2 <= done < total

    result = bank.resume()
    bank.close()
    assert result.answer and result.termination == "done"
    reopened = reopen(task_id, settings)
    exported = reopened.export()
    entries = Counter((e["metadata"]["source"], e["text"]) for e in exported["interaction_tree"]["entries"])
    assert entries and max(entries.values()) == 1, "an entry was stored twice"
    assert reopened.snapshot().counts["nodes"] > before["nodes"]
    assert store.progress(task_id, run_id)["squad-notes.txt"] == (total, total)
    stored = [e["done"] for e in exported["run_log"] if e["kind"] == "chunks_stored"]
    assert stored == list(range(1, total + 1)), "resume re-read chunks already stored, or skipped some"
    assert [r.status for r in reopened.stored_runs()] == ["done"]
