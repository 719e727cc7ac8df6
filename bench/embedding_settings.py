"""ONNX Runtime settings for MiniLM on this 2-core machine (issue 26): intra-op threads, graph optimisation level
and the largest batch, each a session on the same verified fp32 file, measured in one process with rounds
interleaved (a busy neighbour slows every setting alike: read the ratios to the default).

Texts: NIST SP 800-207's blocks as the loader reads them (what ingestion embeds: short lines, paragraphs, table
rows) and 64 SQuAD passages of 200 words.

    python bench/embedding_settings.py --rounds 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from embedding_int8 import speed_passages, text_sets  # noqa: E402

# name -> (intra-op threads, graph optimisation level, batch size (the embedder cuts batches of up to twice it))
SETTINGS: dict[str, tuple[int, str, int]] = {
    "default (2 threads, all, 32)": (2, "ORT_ENABLE_ALL", 32),
    "1 thread": (1, "ORT_ENABLE_ALL", 32),
    "graph extended": (2, "ORT_ENABLE_EXTENDED", 32),
    "graph basic": (2, "ORT_ENABLE_BASIC", 32),
    "batch 8": (2, "ORT_ENABLE_ALL", 8),
    "batch 16": (2, "ORT_ENABLE_ALL", 16),
    "batch 64": (2, "ORT_ENABLE_ALL", 64),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import onnxruntime as ort

    from memory_bank.retrieval.embedding import OFFICIAL_SHA256, bundled_model_path
    from memory_bank.retrieval.onnx_runtime import OnnxEmbedder, load_onnx, onnx_file, verified_onnx
    from memory_bank.settings import default_data_dir

    model, folder = bundled_model_path(), default_data_dir() / "models" / "embedding"
    load_onnx(model, folder, OFFICIAL_SHA256)  # made and verified when missing
    path = onnx_file(folder)
    digest = verified_onnx(path, OFFICIAL_SHA256)
    embedders = {}
    for name, (threads, level, batch) in SETTINGS.items():
        embedder = OnnxEmbedder(path, model, expected_sha256=digest, threads=threads, batch_size=batch)
        options = ort.SessionOptions()  # as the embedder's own, with this setting's level
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        embedder.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        embedders[name] = embedder
    texts = {"NIST blocks": text_sets()["nist blocks"], "200-word passages": speed_passages()}
    for embedder in embedders.values():
        embedder.embed(texts["NIST blocks"][:8])  # warm up
    best = {name: dict.fromkeys(texts, 0.0) for name in embedders}
    load = os.getloadavg()[0]
    order = list(embedders)
    for round_ in range(args.rounds):  # each round starts with another setting: no setting always goes first
        for name in order[round_ % len(order):] + order[:round_ % len(order)]:
            embedder = embedders[name]
            for kind, batch in texts.items():
                t0 = time.perf_counter()
                embedder.embed(batch)
                best[name][kind] = max(best[name][kind], len(batch) / (time.perf_counter() - t0))
    print(f"best of {args.rounds} interleaved rounds, load average {load:.2f} -> {os.getloadavg()[0]:.2f}; "
          f"{len(texts['NIST blocks'])} NIST blocks, {len(texts['200-word passages'])} passages")
    first = next(iter(best.values()))
    for name, rates in best.items():
        print(f"  {name:<30} " + "  ".join(f"{kind} {rate:6.1f}/s ({rate / first[kind]:.2f}x)"
                                           for kind, rate in rates.items()))


if __name__ == "__main__":
    main()
