"""MiniLM through ONNX Runtime: the same vectors as PyTorch (cosine 1.000000 on SQuAD text), 1.3-1.5x faster on 2
cores, and no torch import in a process that only embeds.

The ONNX file is never downloaded: it is exported here from the verified local package (torch.onnx, then ONNX
Runtime's BERT fusions: attention, GELU and layer norms fused), checked against PyTorch on probe sentences before it
is kept, and written atomically into a cache folder with a record of its sha256 and the sha256 of the weights it
came from. Loading checks both; a missing, truncated or altered file, or a record that does not match, is rebuilt
(and when that fails the caller falls back to PyTorch with the reason). This fp32 file is also what the int8 file
(`onnx_int8`, the default runtime's sentence vectors) is quantised from, and what serves its token vectors.
`OnnxEmbedder(one_text=True)` runs each text alone, one per core at a time: the int8 file's mode.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .vectors import DIM, TokenVectors, normalise, sha256_of

log = logging.getLogger(__name__)

FORMAT = 1  # bump when the export recipe changes: an older file is then rebuilt, not trusted
PROBES = ("Zero trust assumes there is no implicit trust granted to assets or user accounts.",
          "The policy engine decides whether to grant access to a resource.",
          "Who was the Mongol ruler in 1241?")
LOCK_SECONDS = 300.0
MIN_PROBE_COSINE = 0.9999  # an export whose vectors drift from PyTorch's on the probes is thrown away


class OnnxUnavailable(RuntimeError):
    """ONNX Runtime cannot serve the model here (not installed, export failed, file fails its check)."""


BATCH_OVERHEAD_TOKENS = 24  # the model's fixed cost of a batch, in tokens' worth of work (~2 ms / ~100 us)


def onnx_file(cache_dir: Path) -> Path:
    return cache_dir / f"all-MiniLM-L6-v2.v{FORMAT}.onnx"


def record_file(model: Path) -> Path:
    return model.with_suffix(".json")


def _max_length(model_path: Path) -> int:
    config = model_path / "sentence_bert_config.json"
    try:
        return int(json.loads(config.read_text(encoding="utf-8")).get("max_seq_length", 256))
    except (OSError, ValueError, TypeError):
        return 256


def write_atomically(target: Path, write) -> None:  # noqa: ANN001 - write(Path) fills the temporary file
    """Write through a temporary file in the same folder, then rename: a reader sees the old file or the whole
    new one, never half of one (two processes exporting at once each rename a complete file)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, target)
    finally:
        Path(tmp).unlink(missing_ok=True)


def export_onnx(model_path: Path, target: Path, weights_sha256: str) -> str:
    """Export the local model to `target` (fused for CPU), check it against PyTorch, record its sha256."""
    try:
        import torch
        from onnxruntime.transformers import optimizer
        from transformers import AutoModel
    except ImportError as exc:
        raise OnnxUnavailable(f"cannot export to ONNX here ({exc})") from exc

    bert = AutoModel.from_pretrained(str(model_path), local_files_only=True, attn_implementation="eager").eval()

    class Hidden(torch.nn.Module):
        """The encoder's last hidden state alone: pooling stays in numpy, so one pass gives both the sentence
        vector and the token vectors the word alignment needs."""

        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN202
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    sample = (torch.ones(2, 16, dtype=torch.long), torch.ones(2, 16, dtype=torch.long),
              torch.zeros(2, 16, dtype=torch.long))
    with tempfile.TemporaryDirectory(dir=target.parent if target.parent.is_dir() else None) as tmp:
        raw = Path(tmp) / "raw.onnx"
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the tracer's notes on Python booleans: checked by the probes below
            torch.onnx.export(Hidden(), sample, str(raw), dynamo=False, input_names=names,
                              output_names=["token_embeddings"], opset_version=17,
                              dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "token_embeddings"]})
        fused = optimizer.optimize_model(str(raw), model_type="bert", num_heads=bert.config.num_attention_heads,
                                         hidden_size=bert.config.hidden_size, opt_level=1, use_gpu=False)
        write_atomically(target, lambda p: fused.save_model_to_file(str(p)))
    digest = sha256_of(target)
    check = OnnxEmbedder(target, model_path, expected_sha256=digest)
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(model_path), device="cpu", local_files_only=True)
    expected = reference.encode(list(PROBES), normalize_embeddings=True, convert_to_numpy=True)
    return keep_if_close(target, digest, check.embed(list(PROBES)), expected, MIN_PROBE_COSINE,
                         weights_sha256, FORMAT, "the ONNX export drifts from PyTorch")


def keep_if_close(target: Path, digest: str, made: np.ndarray, expected: np.ndarray, bar: float,
                  weights_sha256: str, fmt: int, drift: str) -> str:
    """Keep a file just made when its probe vectors (`made`) are within cosine `bar` of the reference's: record
    its sha256, the file or weights it came from and the recipe, and return the sha256. Else the file is deleted
    and `OnnxUnavailable` says how far it drifts."""
    cosine = (made * expected).sum(axis=1)
    if float(cosine.min()) < bar:
        target.unlink(missing_ok=True)
        raise OnnxUnavailable(f"{drift} (cosine {cosine.min():.5f} on a probe)")
    record = {"sha256": digest, "weights_sha256": weights_sha256, "format": fmt,
              "probe_cosine_min": round(float(cosine.min()), 6)}
    write_atomically(record_file(target), lambda p: p.write_text(json.dumps(record), encoding="utf-8"))
    return digest


def verified_onnx(target: Path, weights_sha256: str, *, fmt: int = FORMAT) -> str | None:
    """The file's recorded sha256 when the file is there, matches it, was made by this recipe (`fmt`) and came
    from these weights (`weights_sha256`: the file it was made from); else None."""
    record_path = record_file(target)
    if not target.is_file() or not record_path.is_file():
        return None
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("weights_sha256") != weights_sha256 \
            or record.get("format") != fmt or sha256_of(target) != record.get("sha256"):
        return None
    return str(record["sha256"])


def load_onnx(model_path: Path, cache_dir: Path, weights_sha256: str, *, lock_seconds: float = LOCK_SECONDS
              ) -> OnnxEmbedder:
    """The embedder on the verified ONNX file in `cache_dir`, exported first when it is missing or fails its check
    (`made_or_verified`)."""
    target = onnx_file(cache_dir)
    digest = made_or_verified(target, weights_sha256, FORMAT, lambda: export_onnx(model_path, target, weights_sha256),
                              lock_seconds=lock_seconds, what="ONNX model")
    return OnnxEmbedder(target, model_path, expected_sha256=digest)


def made_or_verified(target: Path, source_sha256: str, fmt: int, make: Callable[[], str], *, lock_seconds: float,
                     what: str) -> str:
    """The sha256 of `target` when it checks out (`verified_onnx`), else of the file `make` writes there. One
    process makes a file at a time (a file lock in its folder, waited for at most `lock_seconds`: past that
    `OnnxUnavailable`, so the caller falls back rather than hang behind another process), and the file is checked
    again under the lock: another process may have just made it."""
    from filelock import FileLock, Timeout

    digest = verified_onnx(target, source_sha256, fmt=fmt)
    if digest is not None:
        return digest
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(target.parent / ".export.lock"), timeout=lock_seconds):
            digest = verified_onnx(target, source_sha256, fmt=fmt)
            if digest is None:
                if target.exists():
                    log.warning("The %s at %s fails its sha256 check: rebuilding it", what, target)
                digest = make()
    except Timeout as exc:
        raise OnnxUnavailable(f"another process has been exporting the {what} for {lock_seconds:.0f}s") from exc
    return digest


def pad_batches(lengths: list[int], max_batch: int, overhead: int = BATCH_OVERHEAD_TOKENS) -> list[tuple[int, int]]:
    """Cut texts ordered longest first into batches [start, end) that cost least: a batch costs its size times
    its first (longest) text's tokens, padding included, plus a fixed overhead. Measured on 2 cores the model
    takes ~100 us a token and ~2 ms a batch, so a few small batches beat one that pads short texts to a long
    one's length. Exact (dynamic programming over at most `max_batch` texts a batch)."""
    best = [0] + [0] * len(lengths)
    cut = [0] * (len(lengths) + 1)
    for end in range(1, len(lengths) + 1):
        best[end] = -1
        for start in range(max(0, end - max_batch), end):
            cost = best[start] + (end - start) * lengths[start] + overhead
            if best[end] < 0 or cost < best[end]:
                best[end], cut[end] = cost, start
    batches, end = [], len(lengths)
    while end > 0:
        batches.append((cut[end], end))
        end = cut[end]
    return batches[::-1]


class OnnxEmbedder:
    """all-MiniLM-L6-v2 on ONNX Runtime with the tokenizer the package ships; mean pooling as the model's own
    pooling config says. `runtime` names the engine for reports; `name` stays the model's, since the vectors are
    the same as PyTorch's and a task embedded by either opens with the other."""

    def __init__(self, onnx_path: Path, model_path: Path, *, expected_sha256: str, batch_size: int = 32,
                 threads: int = 0, one_text: bool = False, runtime: str = "onnx") -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise OnnxUnavailable(f"onnxruntime is not installed ({exc})") from exc
        if sha256_of(onnx_path) != expected_sha256:  # the bytes handed to the session are the ones checked
            raise OnnxUnavailable(f"{onnx_path} does not match its recorded sha256")
        cores = threads or min(os.cpu_count() or 1, 4)
        # A batch of texts runs on every core (intra-op threads). One text a run is too small a product to split
        # well (2 threads on one text: 1.0x a batch's speed here), so then each core runs texts of its own
        # (`workers` callers of one single-threaded session: 1.35-1.4x, measured on SQuAD paragraphs).
        self.workers = cores if one_text else 1
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1 if one_text else cores
        options.inter_op_num_threads = 1
        # no busy-waiting between batches: on a shared 2-core machine a spinning thread takes a core from the
        # page's other work (measured at load 11: 5.0 passages/s without spinning, 4.4 with)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            self.session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors for a bad file
            raise OnnxUnavailable(f"ONNX Runtime cannot open {onnx_path}: {exc}") from exc
        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.enable_truncation(_max_length(model_path))
        self.tokenizer.no_padding()  # each batch is padded to its own longest text in _forward
        self.path, self.sha256 = onnx_path, expected_sha256
        self.name = "all-MiniLM-L6-v2"
        self.runtime = runtime
        # one text a model run: no padding, and a file whose activations are quantised per run (int8) then
        # gives a text the same vector whatever else is embedded with it
        self.batch_size = batch_size
        self.max_batch = 1 if one_text else batch_size * 2  # pad_batches' longest batch
        self.warning: str | None = None
        self._lock = threading.Lock()
        probe = self._forward(["dimension probe"])[0]
        self.dim = int(probe[1].shape[1])
        if self.dim != DIM:
            raise OnnxUnavailable(f"{onnx_path} gives {self.dim}-dimensional vectors, not {DIM}")

    def _forward(self, texts: list[str]) -> list[tuple[tuple[str, ...], np.ndarray, np.ndarray]]:
        """Per text: its word pieces, its token states (special tokens included) and its sentence vector. Texts
        are tokenized once, ordered by token count and cut into batches that pad little (`pad_batches`):
        one batch of 32 texts padded to its longest, as sentence-transformers does by characters, ran the
        model on 1.6 times the NIST sample's tokens (numbers and tables tokenize densely)."""
        encoded = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: -len(encoded[i].ids))
        chunks = [order[start:end] for start, end in pad_batches([len(encoded[i].ids) for i in order],
                                                                   self.max_batch)]

        def run(chunk: list[int]) -> tuple[np.ndarray, np.ndarray]:
            width = len(encoded[chunk[0]].ids)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                ids[row, :len(encoded[i].ids)] = encoded[i].ids
                mask[row, :len(encoded[i].ids)] = 1
            states = np.asarray(self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                                        "token_type_ids": np.zeros_like(ids)})[0])
            return states, (states * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)

        with self._lock:  # one call at a time: a call already uses every core
            if self.workers > 1 and len(chunks) > 1:
                with ThreadPoolExecutor(min(self.workers, len(chunks))) as pool:  # the session releases the GIL
                    results = list(pool.map(run, chunks))
            else:
                results = [run(chunk) for chunk in chunks]
        out: list = [None] * len(texts)
        for chunk, (states, pooled) in zip(chunks, results):
            for row, i in enumerate(chunk):
                out[i] = (tuple(encoded[i].tokens), states[row, :len(encoded[i].ids)], pooled[row])
        return out

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(np.stack([vector for _, _, vector in self._forward(texts)]))

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        return self.embed_with_tokens(texts)[1]

    def embed_with_tokens(self, texts: list[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        """Sentence vectors and token vectors from one pass (the word alignment wants both for the same texts)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32), []
        done = self._forward(texts)
        tokens = [TokenVectors(pieces[1:-1], normalise(states[1:-1]) if len(pieces) > 2 else
                               np.zeros((0, self.dim), dtype=np.float32)) for pieces, states, _ in done]
        return normalise(np.stack([vector for _, _, vector in done])), tokens
