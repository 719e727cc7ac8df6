"""Fit the offline engine's honest "not found" (`FoundModel`) on made-unanswerable SQuAD questions.

Per seed, the book without 100 sampled paragraphs and the questions of `squad_unanswerable.py` (same split);
each question's evidence is what the product answers from (`OfflineExecutor.evidence`), ranked by the
product's `Answerer.rank`, and the `Signals` are those of the sentence the model judges (the best body
sentence). Label 0: a question whose paragraph was removed; 1: an answerable question whose best two sentences
hold the gold answer (the others are left out: refusing them loses no right answer). A logistic regression
with balanced classes (L2, Newton's method) is fit on the --fit seeds; the bias is set where those refuse
--refuse of the removed-paragraph questions. Printed per seed: refused, and answerable questions with the gold
in their best two sentences that are not refused (an estimate: `squad_unanswerable.py` measures the product).

    python bench/not_found_fit.py --fit 13,7,1,2,3 --check 21 --cache-dir /tmp   # ~3 min a seed once cached
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import astuple, fields
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from squad_longdoc import DATA, hit, load_or_ingest  # noqa: E402
from squad_unanswerable import load, split_sample  # noqa: E402

from memory_bank import Settings  # noqa: E402
from memory_bank.engines.offline.executor import OfflineExecutor  # noqa: E402
from memory_bank.engines.offline.found import FoundModel, Signals  # noqa: E402
from memory_bank.engines.protocol.figures import TableIndex
from memory_bank.engines.protocol.memory_block import MemoryBlockBuilder  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402

NAMES = [f.name for f in fields(Signals)]


def examples(seed: int, cache: Path | None, embedder: object) -> list[tuple[str, Signals, bool]]:
    """(kind, signals, gold in the best two sentences) per question; kind is "gone" or "kept"."""
    book, gone, kept = split_sample(load(DATA), 100, seed)
    bank = load_or_ingest(book, Settings(engine="offline"), embedder, cache)
    executor, blocks = OfflineExecutor(bank.embedder, bank.view, TableIndex(bank.view)), MemoryBlockBuilder(bank.view)
    out = []
    for kind, questions in (("gone", gone), ("kept", kept)):
        for q in questions:
            selection = blocks.select(q["question"], bank.settings.memory_budget_tokens)
            ranked = executor.answerer.rank(q["question"], executor.evidence(selection))
            if ranked is None:
                continue
            best_two = (ranked.body() or ranked.order)[:2]
            gold = any(hit(ranked.pool[i].text, q["answers"]) for i in best_two)
            out.append((kind, ranked.signals(ranked.lead()), gold))
    bank.clear()
    return out


def fit(x: np.ndarray, y: np.ndarray, c: float = 10.0, steps: int = 50) -> np.ndarray:
    """Weights then bias of a logistic regression, classes weighted equally, L2 penalty 1/(2c) on the weights."""
    a = np.hstack([x, np.ones((len(x), 1))])
    sample = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    penalty = np.eye(a.shape[1]) / c
    penalty[-1, -1] = 0.0  # the bias is not penalised
    beta = np.zeros(a.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-a @ beta))
        grad = a.T @ (sample * (p - y)) + penalty @ beta
        hess = (a * (sample * p * (1 - p))[:, None]).T @ a + penalty
        beta -= np.linalg.solve(hess, grad)
    return beta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", default="13,7,1,2,3", help="seeds to fit on")
    parser.add_argument("--check", default="21", help="seeds only measured")
    parser.add_argument("--refuse", type=float, default=0.62, help="share of removed-paragraph questions refused")
    parser.add_argument("--cache-dir", type=Path, help="where each seed's ingested book is kept (gone<seed>.json)")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if not 0.0 < args.refuse < 1.0:
        parser.error("--refuse is a share between 0 and 1")
    if not DATA.is_file():
        sys.exit(f"SQuAD data not found: {DATA}")
    import torch
    torch.set_num_threads(args.threads)
    embedder = load_embedder()
    try:
        fit_seeds = [int(s) for s in args.fit.split(",") if s]
        checked = [int(s) for s in args.check.split(",") if s]
    except ValueError:
        parser.error("--fit and --check take seeds separated by commas, e.g. 13,7")
    if not fit_seeds:
        parser.error("--fit needs at least one seed")
    seeds = fit_seeds + [s for s in checked if s not in fit_seeds]
    data = {}
    for seed in seeds:
        cache = args.cache_dir / f"gone{seed}.json" if args.cache_dir else None
        data[seed] = examples(seed, cache, embedder)
        print(f"seed {seed}: {len(data[seed])} questions", flush=True)
    chosen = [(kind, s) for seed in fit_seeds for kind, s, gold in data[seed] if kind == "gone" or gold]
    x = np.array([astuple(s) for _, s in chosen])
    y = np.array([0.0 if kind == "gone" else 1.0 for kind, _ in chosen])
    beta = np.round(fit(x, y), 2)
    weights = dict(zip(NAMES, beta[:-1]))
    linear = {seed: np.array([sum(weights[n] * getattr(s, n) for n in NAMES) for _, s, _ in data[seed]])
              for seed in seeds}
    gone_linear = np.concatenate([linear[seed][[k == "gone" for k, _, _ in data[seed]]] for seed in fit_seeds])
    bias = -round(float(np.quantile(gone_linear, args.refuse)), 2)
    model = FoundModel(bias=bias, **{n: float(w) for n, w in weights.items()})
    print(model)
    for seed in seeds:
        judged = [(kind, model.found(s), gold) for kind, s, gold in data[seed]]
        gone = [found for kind, found, _ in judged if kind == "gone"]
        kept = [found and gold for kind, found, gold in judged if kind == "kept"]
        role = "fit" if seed in fit_seeds else "held out"
        print(f"seed {seed} ({role}): removed-paragraph questions refused {1 - np.mean(gone):.2f}; answerable "
              f"with the gold in the best two sentences and not refused {np.mean(kept):.2f}")


if __name__ == "__main__":
    main()
