"""Which int8 quantisations of MiniLM keep its vectors (issue 26): each variant's speed against the fp32 ONNX file
and its cosine to the PyTorch vectors, all in one process (speed rounds interleaved, so a busy neighbour slows
every variant alike: read the ratios).

Variants are made from the verified fp32 file (`prepare-embedder`) into a temporary folder with ONNX Runtime's
`quantize_dynamic`: all operators it can (the measured-and-rejected default), the MatMuls only, the feed-forward
MatMuls only (most of the FLOPs), per-channel or per-tensor weights, some layers kept in fp32. Texts: SQuAD
paragraphs and questions, and NIST SP 800-207's blocks as the loader reads them (tables and lists included).
The bar a variant must clear to be considered: mean cosine >= 0.995 and min >= 0.98 on every text set. Also
printed: the lowest cosine between a text embedded alone and the same text embedded in its batch (dynamic int8
quantises each batch's activations with one scale, so a text's vector depends on its neighbours; fp32 gives 1.0).

    python bench/embedding_int8.py
    python bench/embedding_int8.py --variants fp32,ffn-pc --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
NIST = SHARED / "pdf" / "NIST.SP.800-207.pdf"
SQUAD = SHARED / "squad" / "squad_dev_visible.json"
MEAN_BAR, MIN_BAR = 0.995, 0.98
LAYERS = 6
ALONE = 40  # texts of each set also embedded alone: does a text's vector depend on its batch?


def _ffn(layers: range) -> list[str]:
    return [f"/bert/encoder/layer.{i}/{part}/dense/MatMul" for i in layers for part in ("intermediate", "output")]


def _matmuls(layers: range) -> list[str]:
    return _ffn(layers) + _attention_out(layers)


def _attention_out(layers: range) -> list[str]:
    return [f"/bert/encoder/layer.{i}/attention/output/dense/MatMul" for i in layers]


# name -> (op types, nodes to quantise (None: every node of those types), per-channel, reduce_range)
VARIANTS: dict[str, tuple[list[str], list[str] | None, bool, bool]] = {
    "all": (["MatMul", "Attention", "Gather", "EmbedLayerNormalization"], None, False, False),
    "matmul": (["MatMul"], None, False, False),
    "matmul-pc": (["MatMul"], None, True, False),
    "ffn": (["MatMul"], _ffn(range(LAYERS)), False, False),
    "ffn-pc": (["MatMul"], _ffn(range(LAYERS)), True, False),
    "ffn-pc-rr": (["MatMul"], _ffn(range(LAYERS)), True, True),
    "ffn-pc-not-last": (["MatMul"], _ffn(range(LAYERS - 1)), True, False),
    "ffn-pc-mid": (["MatMul"], _ffn(range(1, LAYERS - 1)), True, False),
    "ffn-in-pc": (["MatMul"], [n for n in _ffn(range(LAYERS)) if "intermediate" in n], True, False),
    "ffn-out-pc": (["MatMul"], [n for n in _ffn(range(LAYERS)) if "/output/dense" in n and "attention" not in n],
                   True, False),
    "ffn+attn-out-pc": (["MatMul"], _ffn(range(LAYERS)) + _attention_out(range(LAYERS)), True, False),
    "ffn+qkv-pc": (["MatMul", "Attention"], _ffn(range(LAYERS)) + [f"Attention_{i}" for i in range(LAYERS)],
                   True, False),
    # the default file (matmul-pc) leaves the fused attention's QKV projection in fp32: ~half of a run's time
    "matmul+qkv-pc": (["MatMul", "Attention"], None, True, False),
    "matmul+qkv-mid-pc": (["MatMul", "Attention"], _matmuls(range(LAYERS)) + [f"Attention_{i}" for i in range(1, 5)],
                          True, False),
}


# name -> (MatMuls to quantise (None: all), block size, accuracy level: 4 = int8 products on activations
# quantised per block, 0 = fp32 products on weights dequantised per block): 8-bit weights, MatMulNBits
NBITS: dict[str, tuple[list[str] | None, int, int]] = {
    "nbits8-b32-acc4": (None, 32, 4),
    "nbits8-b128-acc4": (None, 128, 4),
    "nbits8-b32-fp32": (None, 32, 0),
    "nbits8-b32-acc4-ffn": (_ffn(range(LAYERS)), 32, 4),
}


def _excluded(fp32: Path, op_types: list[str], nodes: list[str] | None) -> list[str] | None:
    import onnx

    if nodes is None:
        return None
    model = onnx.load(str(fp32))
    return [n.name for n in model.graph.node if n.op_type in op_types and n.name not in nodes]


def build_nbits(fp32: Path, target: Path, name: str) -> None:
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    nodes, block, level = NBITS[name]
    quantizer = MatMulNBitsQuantizer(str(fp32), bits=8, block_size=block, is_symmetric=True, accuracy_level=level,
                                     nodes_to_exclude=_excluded(fp32, ["MatMul"], nodes))
    quantizer.process()
    quantizer.model.save_model_to_file(str(target), False)


def build_variant(fp32: Path, target: Path, name: str) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    if name in NBITS:
        build_nbits(fp32, target, name)
        return
    op_types, nodes, per_channel, reduce_range = VARIANTS[name]
    exclude = _excluded(fp32, op_types, nodes)
    quantize_dynamic(str(fp32), str(target), op_types_to_quantize=op_types, nodes_to_exclude=exclude,
                     per_channel=per_channel, reduce_range=reduce_range, weight_type=QuantType.QInt8,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})  # fused ops defeat type inference


class OneTextARun:
    """The variant run on one text at a time: no padding and no batch to share a quantisation scale with, so a
    text's vector is its own whatever else is embedded (at the cost of a model run per text)."""

    def __init__(self, inner) -> None:  # noqa: ANN001 - an OnnxEmbedder
        self.inner = inner

    def embed(self, texts: list[str]):  # noqa: ANN201
        import numpy as np

        return np.stack([self.inner.embed([text])[0] for text in texts])


def text_sets() -> dict[str, list[str]]:
    from memory_bank.loaders.pdf import load_pdf

    squad = json.loads(SQUAD.read_text(encoding="utf-8"))["data"]
    paragraphs = [p["context"] for a in squad[2:] for p in a["paragraphs"]]  # the speed passages are [:2]'s
    questions = [q["question"] for a in squad for p in a["paragraphs"] for q in p["qas"]]
    paragraphs, questions = paragraphs[::max(1, len(paragraphs) // 150)], questions[::max(1, len(questions) // 150)]
    document = load_pdf(NIST, NIST.name)
    blocks = [b.text for page in document.pages for b in page.blocks if len(b.text.split()) >= 3]
    return {"squad paragraphs": paragraphs, "squad questions": questions, "nist blocks": blocks}


def speed_passages() -> list[str]:
    words = " ".join(p["context"] for a in json.loads(SQUAD.read_text(encoding="utf-8"))["data"][:2]
                     for p in a["paragraphs"]).split()
    return [" ".join(words[i:i + 200]) for i in range(0, 64 * 200, 200)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(["fp32", *VARIANTS, *NBITS]))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one-text", action="store_true", help="also each variant run on one text at a time")
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads (0: the embedder's default)")
    args = parser.parse_args()
    from memory_bank.retrieval.embedding import OFFICIAL_SHA256, SentenceTransformerEmbedder, bundled_model_path
    from memory_bank.retrieval.onnx_runtime import OnnxEmbedder, load_onnx, onnx_file
    from memory_bank.retrieval.vectors import sha256_of
    from memory_bank.settings import default_data_dir

    model = bundled_model_path()
    load_onnx(model, default_data_dir() / "models" / "embedding", OFFICIAL_SHA256)  # made and verified if missing
    fp32_path = onnx_file(default_data_dir() / "models" / "embedding")
    names = [n for n in args.variants.split(",") if n]
    sets = text_sets()
    reference = SentenceTransformerEmbedder(model)
    expected = {k: reference.embed(v) for k, v in sets.items()}
    del reference
    embedders: dict[str, OnnxEmbedder | OneTextARun] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths: dict[str, Path] = {}
        for name in names:
            paths[name] = fp32_path if name == "fp32" else Path(tmp) / f"{name}.onnx"
            if name != "fp32":
                try:
                    build_variant(fp32_path, paths[name], name)
                except ImportError as exc:  # MatMulNBits' quantiser needs onnx_ir, which onnxruntime does not pull in
                    print(f"  {name}: cannot be built here ({exc})")
                    continue
            embedders[name] = OnnxEmbedder(paths[name], model, expected_sha256=sha256_of(paths[name]),
                                           threads=args.threads)
        if args.one_text:
            for name in list(embedders):
                embedders[f"{name} 1/run"], paths[f"{name} 1/run"] = OneTextARun(embedders[name]), paths[name]
        print(f"{len(sets['squad paragraphs'])} SQuAD paragraphs, {len(sets['squad questions'])} questions, "
              f"{len(sets['nist blocks'])} NIST blocks; bar: mean >= {MEAN_BAR}, min >= {MIN_BAR} on each set")
        print("cosine to PyTorch, mean / min:", flush=True)
        passed = {}
        for name, embedder in embedders.items():
            batched = {k: embedder.embed(v) for k, v in sets.items()}
            cos = {k: (batched[k] * expected[k]).sum(axis=1) for k in sets}
            passed[name] = all(c.mean() >= MEAN_BAR and c.min() >= MIN_BAR for c in cos.values())
            alone = min(float(embedder.embed([text])[0] @ batched[k][i]) for k in sets for i, text in
                        enumerate(sets[k][:ALONE]))
            print(f"  {name:<22} {paths[name].stat().st_size / 1e6:4.0f} MB  "
                  + "  ".join(f"{k} {c.mean():.4f} / {c.min():.4f}" for k, c in cos.items())
                  + ("  meets the bar" if passed[name] else "  fails the bar")
                  + f"; alone vs in its batch: min {alone:.4f}", flush=True)
        passages, blocks = speed_passages(), sets["nist blocks"]
        names = list(embedders)
        best = {n: [0.0, 0.0] for n in names}
        load = os.getloadavg()[0]
        for round_ in range(args.rounds):  # each round starts with another variant: none always goes first
            for name in names[round_ % len(names):] + names[:round_ % len(names)]:
                embedder = embedders[name]
                for slot, texts in enumerate((passages, blocks)):
                    t0 = time.perf_counter()
                    embedder.embed(texts)
                    best[name][slot] = max(best[name][slot], len(texts) / (time.perf_counter() - t0))
        print(f"speed, best of {args.rounds} interleaved rounds (load average {load:.2f} -> "
              f"{os.getloadavg()[0]:.2f}), ratio to {names[0]}:")
        for name in names:
            (a, b), (a0, b0) = best[name], best[names[0]]
            print(f"  {name:<22} 200-word passages {a:6.1f}/s ({a / a0:.2f}x)  NIST blocks {b:6.1f}/s "
                  f"({b / b0:.2f}x)")

if __name__ == "__main__":
    main()
