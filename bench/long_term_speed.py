"""Long-term memory speed: search latency at 1k and 10k L2 records, injection build time, and what a write costs.

Records are real text (SQuAD sentences), spread over the five categories with random confidence, reward and age
(up to 180 days); queries are SQuAD questions. `search` is measured whole (routing, lexical and vector scoring,
decay, the budgeted block), with the hashing embedder, so the query's embedding costs ~0.1 ms; the MiniLM query
embedding, when the model is here, is measured apart (it is the embedder's cost, cached per text). Besides wall
time, the CPU time of the searching thread is printed: on a machine busier than its cores, wall time mostly
measures the wait for a core. Target: search at 10k records <= 5 ms p50.

    python bench/long_term_speed.py
    python bench/long_term_speed.py --sizes 1000 10000 --queries 300
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.long_term.injection import build_injection  # noqa: E402
from memory_bank.long_term.memory import LongTermMemory  # noqa: E402
from memory_bank.long_term.models import Category, MemoryRecord, Source  # noqa: E402
from memory_bank.long_term.routing import analyse_query  # noqa: E402
from memory_bank.retrieval.embedding import HashingEmbedder, load_embedder  # noqa: E402
from memory_bank.text.split import split_sentences  # noqa: E402

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "data" / "squad" / "squad_dev_visible.json"
NOW = 1_800_000_000.0
RESULTS = Path(__file__).resolve().parent / "results" / "long_term.json"


def squad() -> tuple[list[str], list[str]]:
    data = json.loads(SQUAD.read_text())
    paragraphs = [p for art in data["data"] for p in art["paragraphs"]]
    sentences = [s for p in paragraphs for s in split_sentences(p["context"]) if 40 <= len(s) <= 400]
    questions = [q["question"] for p in paragraphs for q in p["qas"]]
    return sentences, questions


def records(n: int, pool: list[str], rng: random.Random) -> list[dict]:
    out = []
    for i in range(n):
        created = NOW - rng.uniform(0, 180) * 86_400
        out.append(MemoryRecord(memory_id=f"mem_20270101_{i:08x}", category=rng.choice(list(Category)),
                                content=rng.choice(pool), confidence=rng.uniform(0.2, 1.0),
                                reward=rng.uniform(-1, 1), created_at=created, updated_at=created,
                                tags=[f"t{rng.randrange(50)}"]).model_dump(mode="json"))
    return out


def ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50": statistics.median(ordered) * 1000, "p99": ordered[int(len(ordered) * 0.99) - 1] * 1000}


def run(n: int, pool: list[str], questions: list[str], rng: random.Random, budget: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        ltm = LongTermMemory(folder, "bench", embedder=HashingEmbedder(), clock=lambda: NOW, budget_tokens=budget)
        start = time.perf_counter()
        ltm.import_data({"records": records(n, pool, rng)})
        imported = time.perf_counter() - start
        start = time.perf_counter()
        LongTermMemory(folder, "bench", embedder=HashingEmbedder(), clock=lambda: NOW)
        opened = time.perf_counter() - start
        qs = rng.sample(questions, min(len(questions), ARGS.queries))
        for q in qs[:20]:
            ltm.search(q)  # warm-up
        search, cpu, inject, sizes = [], [], [], []
        for q in qs:
            t0, c0 = time.perf_counter(), time.thread_time()
            injection = ltm.search(q)
            search.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            sizes.append(len(injection.items))
            analysis = analyse_query(q)
            hits = ltm._index.search(q, analysis.categories, NOW)
            t0 = time.perf_counter()
            build_injection(q, analysis, hits, {}, budget)
            inject.append(time.perf_counter() - t0)
        adds = []
        for i in range(5):
            t0 = time.perf_counter()
            ltm.add(f"bench record {i} {pool[i]}", Category.WORK, source=Source.USER_INPUT)
            adds.append(time.perf_counter() - t0)
    return {"records": n, "search_ms": ms(search), "search_cpu_ms": ms(cpu), "injection_build_ms": ms(inject),
            "items_injected_median": statistics.median(sizes), "import_s": imported, "open_s": opened,
            "add_ms_median": statistics.median(adds) * 1000}


def main() -> None:
    rng = random.Random(13)
    pool, questions = squad()
    rows = [run(n, pool, questions, rng, ARGS.budget) for n in ARGS.sizes]
    minilm = load_embedder()
    embed_ms = None
    if not minilm.warning:
        qs = rng.sample(questions, 50)
        minilm.embed(qs[:5])
        t = []
        for q in qs[5:]:
            t0 = time.perf_counter()
            minilm.embed([q])
            t.append(time.perf_counter() - t0)
        embed_ms = statistics.median(t) * 1000
    print(f"{'records':>8} {'search p50':>11} {'p99':>8} {'CPU p50':>9} {'inject p50':>11} {'items':>6} "
          f"{'import':>8} {'open':>7} {'add':>8}")
    for r in rows:
        print(f"{r['records']:>8,} {r['search_ms']['p50']:>9.2f}ms {r['search_ms']['p99']:>6.2f}ms "
              f"{r['search_cpu_ms']['p50']:>7.2f}ms "
              f"{r['injection_build_ms']['p50']:>9.3f}ms {r['items_injected_median']:>6} {r['import_s']:>7.2f}s "
              f"{r['open_s']:>6.2f}s {r['add_ms_median']:>6.1f}ms")
    if embed_ms is not None:
        print(f"MiniLM query embedding (uncached): {embed_ms:.2f} ms p50")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "minilm_query_embed_ms": embed_ms, "budget": ARGS.budget},
                                  indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--budget", type=int, default=400)
    ARGS = parser.parse_args()
    main()
