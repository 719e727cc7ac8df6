"""Nothing is lost on the way out: the CLI keeps the memory when its export cannot be written, `clear()` removes
only what the bank created, a failed pasted text is recorded like a failed file, and an ingestion outside a run
has its own budget."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory_bank import MemoryBank
from memory_bank.errors import InputError
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import ScriptedLLM

from .support import NOTES, SECRET, make_bank, within_deadline

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path, **env_extra: str) -> subprocess.CompletedProcess:
    """The real CLI in a subprocess; the embedding model path is left empty so the hashing fallback loads in
    milliseconds (the CLI's behaviour, not the model, is under test)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "OPENAI_", "MEMORY_BANK_"))}
    env.update(PYTHONPATH=str(ROOT), EMBEDDING_MODEL_PATH=str(cwd / "no-model"), LLM_API_KEY=SECRET, **env_extra)
    return subprocess.run([sys.executable, "-m", "memory_bank", "ask", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("target", ["missing-dir/memory.json", "a-directory", "read-only/memory.json"])
def test_an_unwritable_export_keeps_the_run_and_says_where_the_memory_went(tmp_path: Path, target: str) -> None:
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "read-only").mkdir()
    (tmp_path / "read-only").chmod(0o500)
    notes = tmp_path / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    try:
        proc = cli(str(notes), "-q", "What does the BETA valve do?", "--export", str(tmp_path / target),
                   "--quiet", cwd=tmp_path)
    finally:
        (tmp_path / "read-only").chmod(0o700)
    if target.startswith("read-only") and os.geteuid() == 0 and proc.returncode == 0:
        pytest.skip("root writes into a read-only folder")
    assert proc.returncode == 2, proc.stderr
    assert "BETA" in proc.stdout and "nodes=" in proc.stdout, "the run's answer is still printed"
    [line] = [x for x in proc.stderr.splitlines() if x.startswith("error:")]
    assert "Traceback" not in proc.stderr and SECRET not in proc.stderr + proc.stdout
    fallback = Path(re.search(r"saved to (\S+\.json) instead", line)[1])
    try:
        data = json.loads(fallback.read_text(encoding="utf-8"))
        assert data["query_graph"]["nodes"] and SECRET not in json.dumps(data)
        assert MemoryBank.from_export(data, embedder=HashingEmbedder()).snapshot().counts["nodes"] > 0
    finally:
        fallback.unlink()


def test_a_good_export_is_written_before_the_memory_is_cleared(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    out = tmp_path / "memory.json"
    proc = cli(str(notes), "-q", "What does the BETA valve do?", "--export", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["query_graph"]["nodes"]


def test_clear_removes_only_what_the_bank_created(tmp_path: Path) -> None:
    workdir = tmp_path / "mine"
    (workdir / "storage").mkdir(parents=True)
    keep = [workdir / "notes-of-the-user.txt", workdir / "storage" / "theirs.bin"]
    for path in keep:
        path.write_text("not the bank's")
    bank = make_bank(workdir)
    source = tmp_path / "notes.txt"
    source.write_text(NOTES, encoding="utf-8")
    bank.ingest_file(source)
    created = [p for p in workdir.rglob("*") if p.is_file() and p not in keep]
    assert created, "the ingested document was copied into the storage"
    bank.clear()
    assert all(p.read_text() == "not the bank's" for p in keep)
    assert not any(p.exists() for p in created)
    assert source.exists(), "the user's own file is never touched"


def test_a_bank_without_a_workdir_removes_its_own_folder(tmp_path: Path) -> None:
    from memory_bank import Settings
    from tests.support.fake_engine import fake_engine

    bank = MemoryBank(Settings(temp_dir=str(tmp_path)), embedder=HashingEmbedder(), engine=fake_engine())
    bank.ingest_text(NOTES)
    assert bank.workdir.is_dir()
    bank.clear()
    assert not bank.workdir.exists() and list(tmp_path.iterdir()) == []


def test_a_failed_pasted_text_is_recorded_like_a_failed_file(tmp_path: Path) -> None:
    bank = make_bank(tmp_path / "w")
    bank.ingest_text(NOTES)
    before = bank.export()
    bad = tmp_path / "empty.pdf"
    bad.write_bytes(b"")

    def failing_ingest(*_args, **_kwargs):  # noqa: ANN002, ANN003
        raise InputError("cannot be classified", source="pasted text")

    bank._loop.pipeline.run = failing_ingest  # the pasted text fails inside ingestion, as a bad text would
    result = within_deadline(lambda: bank.run("What does the BETA valve do?", files=[bad], text="some text"))
    assert any("empty.pdf" in str(e) for e in result.errors)
    assert any("pasted text" in str(e) for e in result.errors)
    assert result.answer, "the run still answers from the memory it has"
    assert bank.export()["query_graph"] == before["query_graph"]


def test_an_ingestion_after_a_run_has_its_own_budget(tmp_path: Path) -> None:
    with FakeOpenAI(handler=ScriptedLLM(per_cluster=1)) as fake:
        bank = MemoryBank(fake.settings(max_llm_calls=6), embedder=HashingEmbedder(), workdir=tmp_path / "w")
        result = within_deadline(lambda: bank.run("When were ALPHA systems first deployed?",
                                                  text="ALPHA systems were first deployed in 1990."))
        assert bank.usage()["run_calls"] >= 1, result
        calls_before = len(fake.chat_requests)
        ids = within_deadline(lambda: bank.ingest_text("The BETA protocol carries telemetry between sites."))
        assert ids and len(fake.chat_requests) > calls_before
        assert bank.usage()["run_calls"] == len(fake.chat_requests) - calls_before
