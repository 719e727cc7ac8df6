"""`pip install .` must carry what the code reads at run time: the agents' prompt files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_every_prompt_and_the_cli(tmp_path: Path) -> None:
    source = tmp_path / "src"  # a copy: setuptools writes build/ and *.egg-info next to the sources
    shutil.copytree(ROOT / "memory_bank", source / "memory_bank", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "requirements.txt"):
        shutil.copy(ROOT / name, source / name)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("agentic_memory_bank-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    folder = "memory_bank/engines/llm/prompts"
    prompts = {f"{folder}/{p.name}" for p in (ROOT / folder).glob("*.md")}
    assert prompts and prompts <= names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "memory-bank = memory_bank.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    assert not any(n.startswith(("tests/", "ui/", "pages/")) for n in names)
