"""Fit the offline answerer's sentence ranking (`SentenceModel`) on SQuAD questions of the dev book.

The book is the one `squad_longdoc.py` builds; the training questions are a seeded sample of its questions that
leaves out every question of the --check seeds' samples (the samples the benchmarks report). Each question's
evidence is what the product answers from (`OfflineExecutor.evidence`) and its features are the
product's own (`Answerer.rank(...).features`); a body sentence is a positive when it holds the gold answer. The
model is a conditional logit: per question, the softmax over its body sentences puts the weight on the
positives (L2 penalty, Newton's method). Printed: the fitted `SentenceModel`, then per check seed how often the
best body sentence holds the gold, the best two, and the composed answer (no "not found" applied: the
`FoundModel` is refit afterwards by not_found_fit.py, since it judges the sentence this ranking puts first),
for the hand-set weights this fit replaced, the shipped weights and the fitted ones.

    python bench/answer_rank_fit.py --cache /tmp/book.json   # ~35 min on one thread
    python bench/answer_rank_fit.py --cache /tmp/book.json --by-article   # and one article left out at a time
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from squad_longdoc import DATA, hit, load_book, load_or_ingest  # noqa: E402

from memory_bank import Settings  # noqa: E402
from memory_bank.engines.offline.answering import AnswerConfig, Answerer  # noqa: E402
from memory_bank.engines.offline.executor import OfflineExecutor  # noqa: E402
from memory_bank.engines.offline.ranking import Ranked, SentenceModel  # noqa: E402
from memory_bank.engines.protocol.figures import TableIndex
from memory_bank.engines.protocol.memory_block import MemoryBlockBuilder  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402

SAMPLE = 200  # questions in a benchmark seed's sample (squad_longdoc.py --questions 200)
# the sentence score before this fit (hand-set weights of the five first features)
HAND = SentenceModel(lexical=0.5, cosine=0.4, align=0.6, typed=0.12, prior=0.08, node_align=0.0, context=0.0,
                     anaphor_context=0.0, sure=0.0)


def collect(executor: OfflineExecutor, blocks: MemoryBlockBuilder, budget: int,
            questions: list[dict]) -> list[tuple[Ranked, np.ndarray, dict]]:
    """(ranking, positives among its body sentences in `Ranked.body()` order, question) for every question with
    body evidence."""
    out = []
    for q in questions:
        ranked = executor.answerer.rank(q["question"], executor.evidence(blocks.select(q["question"], budget)))
        body = ranked.body() if ranked is not None else []
        if not body:
            continue
        out.append((ranked, np.array([hit(ranked.pool[i].text, q["answers"]) for i in body], dtype=float), q))
    return out


def fit(groups: list[tuple[np.ndarray, np.ndarray]], l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Weights of a conditional logit: maximise, per group, the softmax mass on its positives."""
    w = np.zeros(groups[0][0].shape[1])
    for _ in range(steps):
        grad, hess = l2 * w, l2 * np.eye(len(w))
        for x, y in groups:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            q = p * y / (p * y).sum()
            mean = x.T @ p
            grad = grad + x.T @ (p - q)
            hess = hess + (x * p[:, None]).T @ x - np.outer(mean, mean)
        w = w - np.linalg.solve(hess, grad)
    return w


def rescored(ranked: Ranked, model: SentenceModel) -> Ranked:
    scores = [float(s) for s in ranked.features @ model.weights()]
    return replace(ranked, scores=scores, order=sorted(range(len(scores)), key=lambda i: (-scores[i], i)))


def measure(answerer: Answerer, rows: list[tuple[Ranked, np.ndarray, dict]]) -> tuple[float, float, float]:
    """Shares of questions whose best body sentence, best two, and composed answer hold the gold."""
    top1 = top2 = answered = 0
    for ranked, _, q in rows:
        ranked = rescored(ranked, answerer.config.ranking)
        body = ranked.body()
        top1 += hit(ranked.pool[body[0]].text, q["answers"])
        top2 += any(hit(ranked.pool[i].text, q["answers"]) for i in body[:2])
        answered += hit(answerer.compose(q["question"], ranked.pool, body, 0.0).text, q["answers"])
    n = len(rows)
    return top1 / n, top2 / n, answered / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=800, help="training questions")
    parser.add_argument("--train-seed", type=int, default=99)
    parser.add_argument("--check", default="13,7,21", help="benchmark seeds left out of the fit and measured")
    parser.add_argument("--cache", type=Path, help="the ingested book's export (as squad_longdoc.py --cache)")
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--by-article", action="store_true",
                        help="also fit leaving out one article at a time, measured on that article's questions")
    args = parser.parse_args()
    try:
        checked = [int(s) for s in args.check.split(",") if s]
    except ValueError:
        parser.error("--check takes seeds separated by commas, e.g. 13,7,21")
    if args.train < 50:
        parser.error("--train needs at least 50 questions")
    if not DATA.is_file():
        sys.exit(f"SQuAD data not found: {DATA}")
    import torch
    torch.set_num_threads(args.threads)
    book, questions = load_book(DATA)
    samples = {seed: random.Random(seed).sample(questions, SAMPLE) for seed in checked}
    held = {q["id"] for sample in samples.values() for q in sample}
    rest = [q for q in questions if q["id"] not in held]
    train_questions = random.Random(args.train_seed).sample(rest, min(args.train, len(rest)))
    embedder = load_embedder()
    bank = load_or_ingest(book, Settings(engine="offline"), embedder, args.cache)
    executor, blocks = OfflineExecutor(bank.embedder, bank.view, TableIndex(bank.view)), MemoryBlockBuilder(bank.view)
    budget = bank.settings.memory_budget_tokens
    train = collect(executor, blocks, budget, train_questions)
    groups = [(ranked.features[ranked.body()], y) for ranked, y, _ in train if y.any()]
    print(f"{len(train)} training questions, {len(groups)} with the gold in a body sentence", flush=True)
    weights = np.round(fit(groups, args.l2), 2)
    fitted = SentenceModel(**{n: float(w) for n, w in zip(SentenceModel.names(), weights)})
    print(fitted)
    shipped, new = Answerer(bank.embedder), Answerer(bank.embedder, AnswerConfig(ranking=fitted))
    checked_rows = []
    for seed, sample in samples.items():
        rows = collect(executor, blocks, budget, sample)
        checked_rows += rows
        for name, answerer in (("hand weights", Answerer(bank.embedder, AnswerConfig(ranking=HAND))),
                               ("shipped", shipped), ("fitted", new)):
            top1, top2, answered = measure(answerer, rows)
            print(f"seed {seed} {name}: best sentence holds the gold {top1:.3f}, best two {top2:.3f}, "
                  f"answer (never 'not found') {answered:.3f}", flush=True)
    if args.by_article:
        by_article(bank.embedder, train, checked_rows, args.l2)
    bank.clear()


def by_article(embedder: object, train: list, checked: list, l2: float) -> None:
    """Documents never seen in the fit: per article, the model fit on every other article's questions (training
    and checked ones) against the hand weights and the shipped ones, on that article's questions."""
    titles = {qa["id"]: article["title"] for article in json.loads(DATA.read_text(encoding="utf-8"))["data"]
              for para in article["paragraphs"] for qa in para["qas"]}
    rows = list({q["id"]: (ranked, y, q) for ranked, y, q in train + checked}.values())
    totals = np.zeros(3)
    for title in sorted({titles[q["id"]] for _, _, q in rows}):
        inside = [r for r in rows if titles[r[2]["id"]] == title]
        groups = [(ranked.features[ranked.body()], y) for ranked, y, q in rows
                  if titles[q["id"]] != title and y.any()]
        model = SentenceModel(**{n: float(w) for n, w in zip(SentenceModel.names(), fit(groups, l2))})
        counts = np.array([measure(Answerer(embedder, AnswerConfig(ranking=m)), inside)[2]
                           for m in (HAND, SentenceModel(), model)]) * len(inside)
        totals += counts
        print(f"left out {title}: {len(inside)} questions, answer holds the gold: hand weights {counts[0]:.0f}, "
              f"shipped {counts[1]:.0f}, fitted without the article {counts[2]:.0f}", flush=True)
    n = len(rows)
    print(f"all {n} questions: hand weights {totals[0] / n:.3f}, shipped {totals[1] / n:.3f}, fitted without the "
          f"article {totals[2] / n:.3f}")


if __name__ == "__main__":
    main()
