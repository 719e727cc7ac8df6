"""The ONNX Runtime embedder (issue 26): the same vectors as PyTorch on real text, its file checked before use, a
broken file rebuilt or replaced by PyTorch with a note, and a task embedded by one runtime searched the same by the
other. Real model, real files; skipped where the model or onnxruntime is not installed."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from filelock import FileLock

from memory_bank.retrieval.embedding import OFFICIAL_SHA256, CachedEmbedder, bundled_model_path, load_embedder
from memory_bank.retrieval.onnx_runtime import (
    OnnxEmbedder,
    OnnxUnavailable,
    load_onnx,
    onnx_file,
    pad_batches,
    verified_onnx,
)
from memory_bank.retrieval.vectors import sha256_of

pytest.importorskip("onnxruntime")


@pytest.fixture(scope="module")
def runtimes(runtime_embedder: Callable[[str], CachedEmbedder]) -> dict[str, CachedEmbedder]:
    """Both runtimes on the bundled model; the ONNX file is the one setup prepared (made here if it is not)."""
    return {name: runtime_embedder(name) for name in ("onnx", "torch")}


@pytest.fixture(scope="module")
def prepared(runtimes: dict[str, CachedEmbedder]) -> Path:
    """The verified ONNX file the runtimes fixture loaded (from the default cache folder)."""
    from memory_bank.settings import default_data_dir

    path = onnx_file(default_data_dir() / "models" / "embedding")
    assert verified_onnx(path, OFFICIAL_SHA256) is not None
    return path


def test_onnx_vectors_match_pytorch_on_dev_text(runtimes: dict[str, CachedEmbedder], dev_texts: list[str]) -> None:
    texts = dev_texts
    onnx, torch = runtimes["onnx"].inner.embed(texts), runtimes["torch"].inner.embed(texts)
    assert onnx.shape == torch.shape == (len(texts), 384) and onnx.dtype == np.float32
    cosine = (onnx * torch).sum(axis=1)
    assert cosine.mean() >= 0.999 and cosine.min() >= 0.995, (cosine.mean(), cosine.min())


def test_onnx_token_vectors_match_pytorch(runtimes: dict[str, CachedEmbedder], dev_texts: list[str]) -> None:
    texts = dev_texts[55:70]
    onnx, torch = runtimes["onnx"].inner.token_vectors(texts), runtimes["torch"].inner.token_vectors(texts)
    for a, b in zip(onnx, torch):
        assert a.pieces == b.pieces
        if a.pieces:
            assert float((a.vectors * b.vectors).sum(axis=1).min()) >= 0.995


def test_batches_cover_every_text_once_and_do_not_pad_short_texts_to_long_ones() -> None:
    lengths = [256, 250, 240] + [40] * 30 + [12] * 20  # ordered longest first, as the embedder orders them
    batches = pad_batches(lengths, max_batch=64, overhead=24)
    assert batches[0][0] == 0 and batches[-1][1] == len(lengths)
    assert all(a[1] == b[0] for a, b in zip(batches, batches[1:])) and all(s < e for s, e in batches)
    padded = sum((end - start) * lengths[start] for start, end in batches)
    assert padded < 1.1 * sum(lengths)  # one batch of 32 + one of 21 would pad to 32 * 256 + 21 * 40
    assert max(e - s for s, e in pad_batches([100] * 200, max_batch=64)) == 64
    assert pad_batches([], max_batch=64) == []


def test_a_text_gets_the_same_vector_whatever_it_is_batched_with(runtimes: dict[str, CachedEmbedder],
                                                                  dev_texts: list[str]) -> None:
    texts = dev_texts
    alone = runtimes["onnx"].inner.embed(texts[:1])[0]
    mixed = runtimes["onnx"].inner.embed(texts[60:90] + texts[:1] + texts[:5])
    assert float(alone @ mixed[30]) >= 0.99999 and float(alone @ mixed[31]) >= 0.99999


@pytest.mark.parametrize("runtime", ["onnx", "torch"])
def test_one_pass_gives_token_and_sentence_vectors(runtimes: dict[str, CachedEmbedder], runtime: str) -> None:
    """The word alignment's token vectors and the cosine's sentence vectors of the same texts: one model pass."""
    inner = runtimes[runtime].inner
    cache = CachedEmbedder(inner)
    texts = ["Who decides whether access is granted?", "The policy engine decides whether to grant access.",
             "A policy administrator executes the decision."]
    calls: list[int] = []
    real_embed = inner.embed
    inner.embed = lambda batch: calls.append(len(batch)) or real_embed(batch)
    try:
        tokens = cache.token_vectors(texts)
        vectors = cache.embed(texts)
    finally:
        del inner.embed
    assert calls == [], "the sentence vectors were computed a second time"
    assert len(tokens) == 3 and tokens[1].pieces[:3] == ("the", "policy", "engine")
    direct = real_embed(texts)
    assert float((vectors * direct).sum(axis=1).min()) >= 0.9999


def _copy_verified(prepared: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = onnx_file(folder)
    shutil.copyfile(prepared, target)
    shutil.copyfile(prepared.with_suffix(".json"), target.with_suffix(".json"))
    return target


def test_a_file_that_fails_its_check_is_never_used(prepared: Path, tmp_path: Path) -> None:
    model = bundled_model_path()
    target = _copy_verified(prepared, tmp_path / "cache")
    assert verified_onnx(target, OFFICIAL_SHA256) == sha256_of(target)
    assert verified_onnx(target, "0" * 64) is None  # made from other weights
    with target.open("r+b") as f:  # the same length, one byte changed
        f.seek(1_000_000)
        byte = f.read(1)
        f.seek(1_000_000)
        f.write(bytes([byte[0] ^ 0xFF]))
    assert verified_onnx(target, OFFICIAL_SHA256) is None
    with pytest.raises(OnnxUnavailable, match="sha256"):
        OnnxEmbedder(target, model, expected_sha256=json.loads(target.with_suffix(".json").read_text())["sha256"])
    target.write_bytes(prepared.read_bytes()[:4096])  # truncated
    assert verified_onnx(target, OFFICIAL_SHA256) is None
    target.unlink()  # missing
    assert verified_onnx(target, OFFICIAL_SHA256) is None


def test_a_truncated_file_is_rebuilt_and_verified(prepared: Path, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    target = _copy_verified(prepared, tmp_path / "cache")
    target.write_bytes(prepared.read_bytes()[: prepared.stat().st_size // 2])
    with caplog.at_level(logging.WARNING):
        embedder = load_embedder(runtime="onnx", cache_dir=tmp_path / "cache")
    assert embedder.runtime == "onnx" and embedder.warning is None
    assert "fails its sha256 check: rebuilding" in caplog.text
    assert verified_onnx(target, OFFICIAL_SHA256) == sha256_of(target)
    assert not [p.name for p in target.parent.iterdir() if p.name.endswith(".part")], "a temporary file was left"


def test_without_a_usable_onnx_file_pytorch_embeds_with_a_note(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """A cache folder that cannot be made (a file is in the way): no export, no hang, PyTorch with the reason."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    with caplog.at_level(logging.WARNING):
        embedder = load_embedder(runtime="auto", cache_dir=blocker / "embedding")
    assert embedder.runtime == "torch" and embedder.name == "all-MiniLM-L6-v2" and embedder.warning is None
    assert "Embedding on PyTorch: the ONNX export failed" in caplog.text
    assert embedder.embed(["zero trust"]).shape == (1, 384)


def test_another_export_in_progress_is_not_waited_on_forever(prepared: Path, tmp_path: Path) -> None:
    target = _copy_verified(prepared, tmp_path / "cache")
    target.write_bytes(b"not a model")
    with FileLock(str(target.parent / ".export.lock")), \
            pytest.raises(OnnxUnavailable, match="another process has been exporting"):
        load_onnx(bundled_model_path(), target.parent, OFFICIAL_SHA256, lock_seconds=0.2)


def test_an_export_made_on_one_runtime_searches_the_same_on_the_other(runtimes: dict[str, CachedEmbedder],
                                                                      ranked_across: Callable) -> None:
    for made_on, read_on in (("torch", "onnx"), ("onnx", "torch")):
        for question, before, after in ranked_across(runtimes[made_on], runtimes[read_on]):
            assert [n.id for n, _ in after] == [n.id for n, _ in before], question
            assert np.allclose([s for _, s in after], [s for _, s in before], atol=1e-3)
