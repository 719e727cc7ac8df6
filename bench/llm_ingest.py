"""LLM-engine ingestion of the NIST PDF against a local OpenAI-compatible server that answers after 500 ms.

The server is the scripted stand-in from the tests (valid replies for every agent), so what is measured is the
pipeline's own scheduling: how many calls it makes per page and how well it overlaps them.

    python bench/llm_ingest.py                       # concurrency 1 and 8, latency 0.5 s
    python bench/llm_ingest.py --concurrency 8 --latency 0.5
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_bank import MemoryBank  # noqa: E402
from memory_bank.retrieval.embedding import CachedEmbedder, load_embedder  # noqa: E402
from tests.support.fake_openai import FakeOpenAI  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM  # noqa: E402

NIST = ROOT.parent / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"
PAGES = 59


def ingest_once(concurrency: int, latency: float, embedder) -> dict:  # noqa: ANN001
    with FakeOpenAI(handler=ScriptedLLM(), latency=latency) as fake:
        settings = fake.settings(llm_concurrency=concurrency, llm_timeout=30.0)
        bank = MemoryBank(settings, embedder=CachedEmbedder(embedder.inner))  # same model, empty cache
        t0 = time.perf_counter()
        bank.ingest_file(NIST)
        seconds = time.perf_counter() - t0
        per_agent = Counter(r.agent for r in fake.chat_requests)
        counts = bank.snapshot().counts
        stages = bank.reports[-1].stage_seconds
        bank.clear()
    calls = sum(per_agent.values())
    return {"concurrency": concurrency, "seconds": seconds, "calls": calls, "calls_per_page": calls / PAGES,
            "per_agent": dict(per_agent), "nodes": counts["nodes"], "edges": counts["edges"],
            "stages": {k: round(v, 1) for k, v in stages.items()}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--latency", type=float, default=0.5)
    args = parser.parse_args()
    embedder = load_embedder()
    embedder.embed(["warm up"])
    results = [ingest_once(c, args.latency, embedder) for c in args.concurrency]
    for r in results:
        print(f"concurrency {r['concurrency']}: {r['seconds']:.1f} s, {r['calls']} calls "
              f"({r['calls_per_page']:.2f} per page), nodes={r['nodes']} edges={r['edges']}")
        print(f"  calls per agent: {r['per_agent']}")
        print(f"  seconds per stage: {r['stages']}")
    if len(results) >= 2:
        print(f"speed-up at {results[-1]['concurrency']} vs {results[0]['concurrency']}: "
              f"{results[0]['seconds'] / results[-1]['seconds']:.1f}x (target >= 5x)")


if __name__ == "__main__":
    main()
