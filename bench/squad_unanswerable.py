"""Honest "not found": questions made unanswerable by removing the paragraph that holds their answer.

A seeded sample of SQuAD questions is drawn, one per paragraph; those paragraphs are removed from the ~100k-word
book (the rest of each article stays, so the questions still look answerable), the book is ingested once by the
offline engine, and each question is asked through `bank.run` — the product path. A question counts as
"not found" when the answer is the executor's NOT_FOUND text. For comparison the same number of answerable
questions (from paragraphs that stayed) are asked and scored as in `squad_longdoc.py` (gold answer in the answer).

    python bench/squad_unanswerable.py                 # 100 removed + 100 answerable, seed 13
    python bench/squad_unanswerable.py --questions 60 --seed 7
    python bench/squad_unanswerable.py --cache /tmp/gone13.json    # ingest once, reuse the export later
    python bench/squad_unanswerable.py --cache /tmp/gone13.json --ask 60 --threads 1   # a quicker look
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from longdoc import answered  # noqa: E402
from squad_longdoc import DATA, load_or_ingest  # noqa: E402

from memory_bank import Settings  # noqa: E402
from memory_bank.engines.protocol.not_found import is_not_found  # noqa: E402
from memory_bank.retrieval.embedding import Runtime, load_embedder  # noqa: E402


def load(path: Path) -> list[dict]:
    """Articles as {title, paragraphs: [{context, qas: [{question, answers}]}]}."""
    return json.loads(path.read_text(encoding="utf-8"))["data"]


def split_sample(articles: list[dict], n: int, seed: int) -> tuple[str, list[dict], list[dict]]:
    """The book without `n` sampled paragraphs, a question of each removed paragraph, and `n` questions of
    paragraphs that stayed."""
    rng = random.Random(seed)
    places = [(a, p) for a in range(len(articles)) for p in range(len(articles[a]["paragraphs"]))]
    removed = set(rng.sample(places, n))
    parts: list[str] = []
    gone: list[dict] = []
    kept: list[dict] = []
    for a, article in enumerate(articles):
        parts.append(article["title"].replace("_", " "))
        for p, para in enumerate(article["paragraphs"]):
            qas = [{"question": qa["question"], "answers": sorted({x["text"] for x in qa["answers"]})}
                   for qa in para["qas"]]
            if (a, p) in removed:
                if qas:
                    gone.append(rng.choice(qas))
            else:
                parts.append(para["context"])
                kept.extend(qas)
    return "\n\n".join(parts), gone, rng.sample(kept, min(n, len(kept)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--cache", type=Path, help="export of the ingested book: written once, then loaded")
    parser.add_argument("--ask", type=int, help="ask only the first N questions of each set (same book)")
    parser.add_argument("--threads", type=int, help="torch threads (1 is faster on a busy shared machine)")
    parser.add_argument("--runtime", choices=get_args(Runtime), default="auto", help="the embedding runtime")
    args = parser.parse_args()
    if not args.data.is_file():
        sys.exit(f"SQuAD data not found: {args.data}")
    book, gone, kept = split_sample(load(args.data), args.questions, args.seed)
    gone, kept = gone[: args.ask], kept[: args.ask]
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    settings, embedder = Settings(engine="offline"), load_embedder(runtime=args.runtime)
    t0 = time.perf_counter()
    bank = load_or_ingest(book, settings, embedder, args.cache)
    print(f"book without {args.questions} paragraphs (asking {len(gone)} + {len(kept)}): {len(book.split())} words, "
          f"ready in {time.perf_counter() - t0:.1f}s; {bank.snapshot().counts}")
    not_found = sum(is_not_found(bank.run(q["question"]).answer) for q in gone)
    right = false_not_found = 0
    for q in kept:
        answer = bank.run(q["question"]).answer
        right += answered(answer, q["answers"])
        false_not_found += is_not_found(answer)
    print(f"made unanswerable: {not_found}/{len(gone)} answered \"not found\" ({not_found / len(gone):.2f})")
    print(f"answerable: gold answer in {right}/{len(kept)} answers ({right / len(kept):.2f}); "
          f"{false_not_found} answered \"not found\"")


if __name__ == "__main__":
    main()
