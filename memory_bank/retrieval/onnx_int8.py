"""MiniLM with int8 matrix products: ~2x the fp32 ONNX file's speed on 2 cores, vectors within a stated cosine.

Made here, never downloaded: ONNX Runtime's dynamic quantiser turns the verified fp32 file (`onnx_runtime`) into
one whose MatMuls multiply int8 weights (one scale per output channel) by activations quantised at run time. That
run-time scale is shared by everything in one model run, so a text batched with others would get a vector that
depends on its neighbours; the embedder therefore runs one text a run (`one_text`), which costs nothing here (no
padding either) and makes each text's vector its own. Measured (`bench/embedding_int8.py --one-text`, variant
matmul-pc): mean cosine to PyTorch 0.9950-0.9958 on SQuAD and NIST text, min 0.988; the retrieval and answer benches
in `bench/OFFLINE_RESULTS.md` section 3. Token vectors (the answer's word alignment) stay on the fp32 file
(`Int8Embedder`). The file is checked like the fp32 one: its sha256 and the sha256 of the
fp32 file it came from are recorded, and a file that fails either is rebuilt; a quantised file whose probe vectors
drift from the fp32 ones past `MIN_PROBE_COSINE` is thrown away (the caller then embeds on fp32, with the note).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from .onnx_runtime import (
    LOCK_SECONDS,
    PROBES,
    OnnxEmbedder,
    OnnxUnavailable,
    keep_if_close,
    load_onnx,
    made_or_verified,
    write_atomically,
)
from .vectors import TokenVectors, sha256_of

log = logging.getLogger(__name__)

INT8_FORMAT = 1  # bump when the quantisation recipe changes
RUNTIME = "onnx-int8"
MIN_PROBE_COSINE = 0.98  # the stated bar's minimum (mean >= 0.995 is measured on the dev text, not per file)


def int8_file(cache_dir: Path) -> Path:
    return cache_dir / f"all-MiniLM-L6-v2.int8-v{INT8_FORMAT}.onnx"


class _DropPreprocessingAdvice(logging.Filter):
    """The quantiser logs, on the root logger, a warning to pre-process the model first: advice for image
    models, not an error, and noise in the user's log at setup."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "consider to run pre-processing" not in record.getMessage()


def quantise(fp32: OnnxEmbedder, target: Path, model_path: Path) -> str:
    """Quantise the fp32 embedder's file into `target`, check its probes against the fp32 vectors, record its
    sha256 and the fp32 file's (`keep_if_close`)."""
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise OnnxUnavailable(f"cannot quantise to int8 here ({exc})") from exc

    def write(path: Path) -> None:
        quantize_dynamic(str(fp32.path), str(path), op_types_to_quantize=["MatMul"], per_channel=True,
                         reduce_range=False, weight_type=QuantType.QInt8,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})  # fused ops defeat inference

    advice = _DropPreprocessingAdvice()
    logging.getLogger().addFilter(advice)
    try:
        write_atomically(target, write)
    finally:
        logging.getLogger().removeFilter(advice)
    digest = sha256_of(target)
    check = OnnxEmbedder(target, model_path, expected_sha256=digest, one_text=True, runtime=RUNTIME)
    return keep_if_close(target, digest, check.embed(list(PROBES)), fp32.embed(list(PROBES)), MIN_PROBE_COSINE,
                         fp32.sha256, INT8_FORMAT, "the int8 file drifts from the fp32 one")


def load_int8(model_path: Path, cache_dir: Path, weights_sha256: str, *, lock_seconds: float = LOCK_SECONDS
              ) -> Int8Embedder:
    """The int8 embedder on the verified file in `cache_dir`, quantised first (from the verified fp32 file, itself
    exported first when missing) when it is missing or fails its check (`made_or_verified`)."""
    fp32 = load_onnx(model_path, cache_dir, weights_sha256, lock_seconds=lock_seconds)
    target = int8_file(cache_dir)
    digest = made_or_verified(target, fp32.sha256, INT8_FORMAT, lambda: quantise(fp32, target, model_path),
                              lock_seconds=lock_seconds, what="int8 embedding model")
    return Int8Embedder(OnnxEmbedder(target, model_path, expected_sha256=digest, one_text=True, runtime=RUNTIME),
                        fp32)


class Int8Embedder:
    """Sentence vectors in int8, token vectors in fp32. Sentence vectors are the bulk (every node of a document,
    every question) and int8 left the retrieval benches where fp32 has them; token vectors are the answer's
    word alignment, a few dozen sentences a question, and there int8 cost 0.5-1.5 points of SQuAD final answers
    (0.740 / 0.725 / 0.730 against 0.755 / 0.730 / 0.735 on seeds 13 / 7 / 21), fp32 none."""

    def __init__(self, fast: OnnxEmbedder, exact: OnnxEmbedder) -> None:
        self.fast, self.exact = fast, exact
        self.name, self.dim, self.runtime = fast.name, fast.dim, RUNTIME
        self.warning: str | None = None

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.fast.embed(texts)

    def token_vectors(self, texts: list[str]) -> list[TokenVectors]:
        """No `embed_with_tokens` here: the fp32 pass's sentence vectors are not this embedder's, and a cache that
        kept them would give a text aligned once (a question, a sentence) another vector the next time."""
        return self.exact.token_vectors(texts)
