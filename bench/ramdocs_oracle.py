"""Ceiling of answer-disagreement conflict detection on RAMDocs (diagnostic for issue 3, measure 2).

A question-aware conflict check would extract each document's answer to the question and flag documents whose
answers disagree. This script skips the extraction and uses the dataset's own per-document answer labels (a
perfect extractor), then asks how well "the answers differ" separates real contradictions (misinfo vs correct)
from the other disagreeing pairs: correct documents about different people or things of the same name, which
must not conflict. To tell those apart a detector needs evidence that both documents describe the same thing;
the sweep filters the disagreeing pairs by two such signals (MiniLM cosine of the documents and the share of
the shorter document's content words found in the other) and prints precision and recall at each setting.

    python bench/ramdocs_oracle.py
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.retrieval.embedding import load_embedder  # noqa: E402
from memory_bank.text.tokens import tokenize  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ramdocs" / "ramdocs_dev_visible.jsonl"
COSINES = (-1.0, 0.6, 0.7, 0.8, 0.85, 0.9)
OVERLAPS = (0.0, 0.3, 0.5)


@dataclass(frozen=True)
class Pair:
    real: bool
    misinfo: tuple[int, int] | None  # (question, document) of the misinfo side of a real pair
    cosine: float
    overlap: float


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", text.lower()).split())


def disagreeing_pairs(rows: list[dict], embedder) -> list[Pair]:  # noqa: ANN001
    """Every pair of non-noise documents of a question whose labelled answers differ."""
    pairs: list[Pair] = []
    for q, row in enumerate(rows):
        docs = row["documents"]
        vectors = embedder.embed([d["text"] for d in docs])
        words = [set(tokenize(d["text"])) for d in docs]
        for i in range(len(docs)):
            for j in range(i):
                a, b = docs[i], docs[j]
                if "noise" in (a["type"], b["type"]) or _norm(a["answer"]) == _norm(b["answer"]):
                    continue
                real = {a["type"], b["type"]} == {"misinfo", "correct"}
                side = (q, i if a["type"] == "misinfo" else j) if real else None
                overlap = len(words[i] & words[j]) / max(1, min(len(words[i]), len(words[j])))
                pairs.append(Pair(real, side, float(vectors[i] @ vectors[j]), overlap))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    if not args.data.is_file():
        sys.exit(f"RAMDocs data not found: {args.data}")
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    misinfo = sum(d["type"] == "misinfo" for row in rows for d in row["documents"])
    pairs = disagreeing_pairs(rows, load_embedder())
    print(f"questions: {len(rows)}, misinfo documents: {misinfo}, non-noise pairs whose answers differ: "
          f"{len(pairs)} ({sum(p.real for p in pairs)} misinfo vs correct)")
    print(f"{'cosine >=':>9} | {'overlap >=':>10} | {'flagged':>7} | {'precision':>9} | {'recall':>6}")
    for cos in COSINES:
        for overlap in OVERLAPS:
            flagged = [p for p in pairs if p.cosine >= cos and p.overlap >= overlap]
            real = [p for p in flagged if p.real]
            recall = len({p.misinfo for p in real}) / max(1, misinfo)
            precision = len(real) / max(1, len(flagged))
            shown = "any" if cos < 0 else f"{cos:.2f}"
            print(f"{shown:>9} | {overlap:>10.1f} | {len(flagged):>7} | {precision:>9.3f} | {recall:>6.3f}")


if __name__ == "__main__":
    main()
