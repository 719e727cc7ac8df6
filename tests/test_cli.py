"""The CLI end to end on the real NIST PDF with the offline engine, and its behaviour on bad input."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, cwd: Path, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "OPENAI_", "MEMORY_BANK_"))}
    env.update(PYTHONPATH=str(ROOT), **env_extra)
    return subprocess.run([sys.executable, "-m", "memory_bank", "ask", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_offline_cli_on_the_nist_pdf(nist_pdf: Path, tmp_path: Path) -> None:
    out = tmp_path / "memory.json"
    proc = cli(str(nist_pdf), "--engine", "offline", "--question", "What is a policy enforcement point?",
               "--export", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Offline engine" in proc.stderr
    summary = re.search(r"nodes=(\d+) edges=(\d+) merges=(\d+) conflicts=(\d+)", proc.stdout)
    assert summary, proc.stdout
    nodes, edges = int(summary[1]), int(summary[2])
    assert nodes >= 20 and edges >= 10
    cites = re.findall(r"\[\d+\] node (\w+): NIST\.SP\.800-207\.pdf, (.+)", proc.stdout)
    assert cites, proc.stdout
    for _, shown in cites:  # the printed page first, then the PDF page: "p. 5 (PDF p. 14)"
        labelled = re.fullmatch(r"pp?\. ([\w, -]+) \(PDF pp?\. ([\d, -]+)\)", shown)
        pdf_pages = [int(p) for p in re.findall(r"\d+", labelled[2] if labelled else shown)]
        assert all(1 <= p <= 59 for p in pdf_pages), shown
        if min(pdf_pages) >= 10:  # the body, numbered from 1 on PDF page 10
            assert labelled and [int(p) for p in re.findall(r"\d+", labelled[1])] == [p - 9 for p in pdf_pages]

    data = json.loads(out.read_text())
    assert len(data["query_graph"]["nodes"]) == nodes
    with_pages = [n for n in data["query_graph"]["nodes"] if n["sources"] and n["sources"][0]["page_start"]]
    assert len(with_pages) == nodes, "every node of a PDF knows its pages"
    body = [s for n in with_pages for s in n["sources"] if s["page_start"] >= 10]
    assert body and all(s["printed_start"] == str(s["page_start"] - 9) for s in body)
    bank = MemoryBank.from_export(data, Settings(), embedder=HashingEmbedder())
    node_id = cites[0][0]
    entry_pages = {e.pages for e in bank.deep_retrieve(node_id).entries}
    assert all(start and 1 <= start <= 59 for start, _ in entry_pages)


@pytest.mark.parametrize("content, message", [(b"", "empty"), (b"%PDF-1.4 garbage", "not a readable PDF")])
def test_bad_input_exits_non_zero_with_a_clear_message(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "report.pdf"
    bad.write_bytes(content)
    proc = cli(str(bad), "--engine", "offline", "-q", "anything", "--quiet", cwd=tmp_path)
    assert proc.returncode == 2
    assert "report.pdf" in proc.stderr and message in proc.stderr


def test_missing_file_and_llm_without_model(tmp_path: Path) -> None:
    proc = cli(str(tmp_path / "nope.pdf"), "-q", "x", cwd=tmp_path)
    assert proc.returncode == 2 and "no such file" in proc.stderr
    proc = cli("--engine", "llm", "-q", "x", cwd=tmp_path)
    assert proc.returncode == 2 and "model name" in proc.stderr
    proc = cli(str(tmp_path / "nope.pdf"), "-q", "first?", "-q", "second?", cwd=tmp_path)
    assert proc.returncode == 2 and "given once" in proc.stderr  # not the second question alone, silently


def test_a_run_stopped_by_a_dead_endpoint_says_so(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on: every call is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    notes = tmp_path / "notes.txt"
    notes.write_text("The pump room is in building 4. The pump is blue.", encoding="utf-8")
    proc = cli(str(notes), "--preset", "answers", "-q", "What colour is the pump?", "--quiet", cwd=tmp_path,
               LLM_BASE_URL=f"http://127.0.0.1:{port}/v1", LLM_MODEL="m", LLM_API_KEY="k", LLM_MAX_RETRIES="0",
               EMBEDDING_MODEL_PATH=str(tmp_path / "no-model"))
    assert "termination=endpoint_down" in proc.stdout, (proc.stdout, proc.stderr)
    assert "stopped early (endpoint_down)" in proc.stderr and "Traceback" not in proc.stderr
    assert "warning: LLM endpoint: The LLM endpoint is not usable" in proc.stderr
