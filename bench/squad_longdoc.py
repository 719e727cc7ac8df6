"""Long-document QA: does the memory block an agent is handed contain the gold answer, at a given budget?

All 13 SQuAD articles are joined into one ~100k-word book (each article under its title as a heading), ingested
once by the offline engine, and a seeded sample of questions is asked. The measure is the product path: the exact
string `bank.memory_prompt(question, budget_tokens=B)` returns, for budgets B equivalent to 250 / 500 / 1000
words of the book (its mean characters per word, counted with the project's one token estimate); a hit is the
gold answer string inside it (case-insensitive). The final answer (`bank.run(q).answer`, ~50 words at most) is
scored the same way, except that a "not found" answer never counts, even when the closest passage it shows holds
the gold (the reader was told the documents do not answer; counted, as before stop 38, it is printed beside).

The baseline cuts the same book into fixed 200-word chunks, embeds them with the same model and ranks them with
the same hybrid score (`HybridIndex`, same alpha), concatenated in rank order and cut to the same token budgets.
A diagnostic column keeps the old per-node measure (each ranked node's header and raw entries, cut in words).

    python bench/squad_longdoc.py                  # 400 questions, seed 13
    python bench/squad_longdoc.py --questions 600 --seed 7
    python bench/squad_longdoc.py --cache /tmp/book.json   # ingest once, reuse the export on later runs
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

from longdoc import ChunkBaseline, answered, cut, hit, load_or_build  # noqa: E402

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.engines.protocol.not_found import is_not_found  # noqa: E402
from memory_bank.retrieval.embedding import Runtime, load_embedder  # noqa: E402
from memory_bank.run.adapter import format_node  # noqa: E402
from memory_bank.text.tokens import chars_for_tokens, tokens_for_chars  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "squad" / "squad_dev_visible.json"
BUDGETS = (250, 500, 1000)


def load_book(path: Path) -> tuple[str, list[dict]]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    parts: list[str] = []
    questions: list[dict] = []
    for article in data:
        parts.append(article["title"].replace("_", " "))
        for para in article["paragraphs"]:
            parts.append(para["context"])
            for qa in para["qas"]:
                questions.append({"id": qa["id"], "question": qa["question"],
                                  "answers": sorted({a["text"] for a in qa["answers"]})})
    return "\n\n".join(parts), questions


def per_node_context(bank: MemoryBank, question: str, k: int) -> str:
    """Diagnostic: each ranked node whole (header and summary) then its raw entries, in rank order."""
    full = []
    for i, (node, _) in enumerate(bank.ranked(question, k), 1):
        full += [format_node(i, node), bank.deep_retrieve(node.id, with_attachments=False).text()]
    return "\n\n".join(full)


def load_or_ingest(book: str, settings: Settings, embedder, cache: Path | None) -> MemoryBank:  # noqa: ANN001
    return load_or_build(settings, embedder, cache, lambda bank: bank.ingest_text(book, source="squad-book"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--k", type=int, default=10, help="ranked items read to fill the largest budget")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-answers", action="store_true", help="skip bank.run (context hits only)")
    parser.add_argument("--cache", type=Path, help="export of the ingested book: written once, then loaded")
    parser.add_argument("--threads", type=int, help="torch threads (1 is faster on a busy shared machine)")
    parser.add_argument("--json", type=Path, help="write every question's final answer and score here (to compare "
                        "two versions per question)")
    parser.add_argument("--runtime", choices=get_args(Runtime), default="auto",
                        help="the embedding runtime (the vectors of each are compared by bench/embedding_int8.py)")
    args = parser.parse_args()
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    if not args.data.is_file():
        sys.exit(f"SQuAD data not found: {args.data}")

    book, questions = load_book(args.data)
    sample = random.Random(args.seed).sample(questions, args.questions)
    embedder = load_embedder(runtime=args.runtime)
    settings = Settings(engine="offline")
    print(f"book: {len(book.split())} words, {len(questions)} questions, sample {len(sample)} (seed {args.seed})")

    t0 = time.perf_counter()
    baseline = ChunkBaseline(book, embedder, settings.retrieval_alpha)
    print(f"baseline: {len(baseline.chunks)} chunks indexed in {time.perf_counter() - t0:.1f}s")

    bank = load_or_ingest(book, settings, embedder, args.cache)
    chars_per_word = len(book) / len(book.split())
    tokens = {b: tokens_for_chars(round(b * chars_per_word)) for b in BUDGETS}
    print("budgets: " + ", ".join(f"{b} words = {t} tokens" for b, t in tokens.items()))

    results = {name: {b: 0 for b in BUDGETS} for name in ("bank", "per_node", "baseline")}
    right = found_words = not_found = closest_held = 0
    over_limit = 0
    rows: list[dict] = []
    t0 = time.perf_counter()
    for q in sample:
        ctx_node = per_node_context(bank, q["question"], args.k)
        ctx_base = baseline.context(q["question"], args.k)
        for b in BUDGETS:
            results["bank"][b] += hit(bank.memory_prompt(q["question"], budget_tokens=tokens[b]), q["answers"])
            results["baseline"][b] += hit(ctx_base[: chars_for_tokens(tokens[b])], q["answers"])
            results["per_node"][b] += hit(cut(ctx_node, b), q["answers"])
        if not args.no_answers:
            answer = bank.run(q["question"]).answer
            words = len(answer.split())
            over_limit += words > 55
            found_words += words
            refused = is_not_found(answer)
            not_found += refused
            right += answered(answer, q["answers"])
            closest_held += hit(answer, q["answers"]) and refused
            rows.append({"question": q["question"], "answers": q["answers"], "answer": answer,
                         "not_found": refused, "right": answered(answer, q["answers"])})
    seconds = time.perf_counter() - t0

    n = len(sample)
    print(f"\n{'budget (words)':>16} | {'memory block':>12} | {'200-word chunks':>15} | {'(per node, diagnostic)':>22}")
    for b in BUDGETS:
        print(f"{b:>16} | {results['bank'][b] / n:>12.3f} | {results['baseline'][b] / n:>15.3f} | "
              f"{results['per_node'][b] / n:>22.3f}")
    if not args.no_answers:
        print(f"\nfinal answer contains the gold answer: {right / n:.3f} "
              f"(mean {found_words / n:.1f} words, {over_limit} answers over 55 words); \"not found\" {not_found}, "
              f"{closest_held} of them with the gold in the closest passage shown (not counted; counted: "
              f"{(right + closest_held) / n:.3f})")
    print(f"questions: {n}, {seconds / n * 1000:.0f} ms per question (contexts + run)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
