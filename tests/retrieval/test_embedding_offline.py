"""Loading the embedding model is offline by construction: no hub connection, no process-environment writes.

Checked in a fresh interpreter with neither `HF_HUB_OFFLINE` nor `TRANSFORMERS_OFFLINE` set (huggingface_hub reads
them once, at import, so an earlier import in the test process could hide a regression): what is measured is the
app's own setup.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_bank.retrieval.embedding import bundled_model_path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, socket, sys
attempts = []
def refuse(*args, **kwargs):
    attempts.append(repr(args[1:] if len(args) > 1 else args))
    raise OSError("network refused by the probe")
socket.socket.connect = refuse
socket.getaddrinfo = refuse
import sentence_transformers  # torch sets variables of its own on import: not the app's to judge
from memory_bank.retrieval.embedding import load_embedder
results = []
for path in sys.argv[1:]:
    before = dict(os.environ)
    emb = load_embedder(path or None)
    if emb.name != "hashing-fallback":
        emb.embed(["zero trust"])
    changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
    results.append({"name": emb.name, "warning": emb.warning, "changed": changed})
print(json.dumps({"results": results, "attempts": attempts}))
"""


def _load_in_fresh_interpreter(*paths: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    proc = subprocess.run([sys.executable, "-c", PROBE, *paths], capture_output=True, text=True, timeout=240,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_loading_leaves_the_environment_alone_and_never_reaches_for_the_hub(tmp_path: Path) -> None:
    """A broken or missing model falls back at once; the bundled one loads; none touches os.environ or a socket."""
    pytest.importorskip("sentence_transformers")
    empty, half = tmp_path / "empty", tmp_path / "half"
    empty.mkdir()
    half.mkdir()
    (half / "config.json").write_text("{}")
    (half / "modules.json").write_text("[]")
    broken = [str(empty), str(half), str(tmp_path / "missing")]
    bundled = [""] if bundled_model_path() is not None else []  # "" = no configured path: the bundled model
    report = _load_in_fresh_interpreter(*broken, *bundled)
    assert report["attempts"] == []
    assert [r["changed"] for r in report["results"]] == [[]] * len(broken + bundled)
    assert all(r["name"] == "hashing-fallback" and r["warning"] for r in report["results"][:len(broken)])
    if bundled:
        assert report["results"][-1]["name"] == "all-MiniLM-L6-v2" and report["results"][-1]["warning"] is None
