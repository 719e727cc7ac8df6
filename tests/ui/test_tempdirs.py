"""No stray temp folders: a task's folder goes with its process, a killed process's folders with the next one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from ui import tempdirs

ROOT = Path(__file__).resolve().parents[2]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_sweep_removes_only_folders_of_processes_that_are_gone(tmp_path: Path) -> None:
    dead = tmp_path / f"amb-task-{_dead_pid()}-x1y2"
    (dead / "images").mkdir(parents=True)
    (dead / "images" / "page.png").write_bytes(b"\x89PNG")
    mine = tempdirs.make("session", tmp_path)
    other = tmp_path / "amb-task-notapid-zz"
    other.mkdir()
    unrelated = tmp_path / "amb-pg-123-abc"
    unrelated.mkdir()

    assert tempdirs.sweep_orphans(tmp_path) == [dead]
    assert not dead.exists() and mine.is_dir() and other.is_dir() and unrelated.is_dir()


def test_an_open_task_folder_goes_when_the_process_exits(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from memory_bank import Settings
        from memory_bank.retrieval.embedding import load_embedder
        from ui.tasks import TaskRegistry
        from memory_bank import SqlTaskStore
        settings = Settings(data_dir={str(tmp_path / "data")!r}, temp_dir={str(tmp_path)!r})
        registry = TaskRegistry(SqlTaskStore.from_settings(settings))
        live = registry.create(settings, load_embedder("/no/model/here"), "a task", "local")
        print(live.workdir)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    workdir = Path(done.stdout.strip().splitlines()[-1])
    assert workdir.parent == tmp_path and workdir.name.startswith("amb-task-")
    assert not workdir.exists(), "the open task's temp folder outlived its process"
