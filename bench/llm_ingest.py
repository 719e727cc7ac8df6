"""LLM-engine ingestion, one call per item (before) against batched agents (after), on a scripted model.

The model is the tests' scripted stand-in on a real HTTP server on 127.0.0.1 (valid replies for every agent,
answering after `--latency` seconds, with a prefix prompt cache reporting `cached_tokens` as a provider does), so
what is measured is the pipeline's own cost: calls, prompt / cached / completion tokens, and wall time. The notes
sample (samples/northwind) runs on the contract suite's model, which reads prose (figures that differ are a
conflict, the same text a merge); the NIST PDF on `ScriptedLLM` (three passages a cluster), as the issue's
baseline did. After ingestion, one question runs (CROSS_VALIDATE settles the flagged conflicts), and what memory
became is printed beside the cost: nodes, merges, conflicts flagged and settled, the answer.

    python bench/llm_ingest.py                            # both samples, before and after, concurrency 8
    python bench/llm_ingest.py --sample nist --concurrency 1 8 --latency 0.5
    python bench/llm_ingest.py --sample nist --local --mode whole after --latency 0   # a local model's window

`--local` gives the agents the window the local server gives with two calls at once (3,072 tokens, concurrency
2); mode `whole` lists every analysis candidate whole in a batch, as before a candidate was listed by its
opening on a small window (`analysis.CANDIDATE_SHARE`), and prints how many new nodes each analysis call carried.
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
from memory_bank.engines.llm import analysis  # noqa: E402
from memory_bank.retrieval.embedding import CachedEmbedder, load_embedder  # noqa: E402
from tests.engines.contract.scripted_model import ContractLLM  # noqa: E402
from tests.support.fake_openai import FakeOpenAI  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM  # noqa: E402

NIST = ROOT.parent / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"
NOTES = sorted((ROOT / "samples" / "northwind").glob("*.md"))
SAMPLES = {
    "notes": (NOTES, ContractLLM, 3, "What is the Northwind project budget, and who approved it?"),
    "nist": ([NIST], ScriptedLLM, 59, "What are the tenets of zero trust?"),
}
# before: today's one item a call and every retrieved candidate judged; after: the settings' defaults
MODES = {"before": {"llm_batch_items": 1, "analysis_min_similarity": 0.0}, "after": {}, "whole": {}}
# LocalModelServer.settings_for: 8,192 context, 2 slots; and summaries by selection, as `summary_mode` "auto" gives
# the local model
LOCAL = {"agent_window": 3_072, "llm_concurrency": 2, "summary_mode": "select"}


def _nodes_per_call(fake: FakeOpenAI) -> dict[int, int]:
    """How many new nodes each analysis call carried: {nodes: calls}."""
    counts = [r.messages[-1]["content"].partition("New nodes (")[2].count('"candidates":')
              for r in fake.chat_requests if r.agent == "analysis"]
    return dict(sorted(Counter(counts).items()))


def measure(sample: str, mode: str, concurrency: int, latency: float, embedder,  # noqa: ANN001
            local: bool = False) -> dict:
    files, model, pages, question = SAMPLES[sample]
    share = analysis.CANDIDATE_SHARE
    analysis.CANDIDATE_SHARE = 1 if mode == "whole" else share  # whole: every candidate fits its share
    with FakeOpenAI(handler=model(), latency=latency, prefix_cache=True) as fake:
        # the whole document at any concurrency: the per-document time budget would cut the slow settings short
        settings = fake.settings(**{"llm_concurrency": concurrency, "llm_timeout": 30.0,
                                    "ingest_time_budget": 3_600.0, **MODES[mode], **(LOCAL if local else {})})
        bank = MemoryBank(settings, embedder=CachedEmbedder(embedder.inner))  # same model, empty cache
        t0 = time.perf_counter()
        for path in files:
            bank.ingest_file(path)
        seconds = time.perf_counter() - t0
        ingested = bank.meter.totals()
        per_agent = {a: (u["calls"], u["prompt_tokens"]) for a, u in bank.meter.snapshot().items()}
        flagged = bank.snapshot().counts
        result = bank.run(question)
        after = bank.snapshot().counts
        bank.clear()
        nodes_per_call = _nodes_per_call(fake)
    analysis.CANDIDATE_SHARE = share
    return {"sample": sample, "mode": mode, "concurrency": settings.llm_concurrency,
            "nodes_per_analysis_call": nodes_per_call, "seconds": seconds, "pages": pages,
            "calls": ingested.calls, "prompt": ingested.prompt_tokens, "cached": ingested.cached_tokens,
            "completion": ingested.completion_tokens, "per_agent": dict(per_agent), "nodes": flagged["nodes"],
            "edges": flagged["edges"], "merges": flagged["merges"], "flagged": flagged["conflicts"],
            "settled": after["conflicts"] - after["pending_conflicts"], "answer": " ".join(result.answer.split())}


def report(r: dict) -> None:
    p = r["pages"]
    print(f"[{r['sample']} {r['mode']}, concurrency {r['concurrency']}] ingestion {r['seconds']:.1f} s: "
          f"{r['calls']} calls ({r['calls'] / p:.2f}/page), prompt {r['prompt']} tokens ({r['prompt'] / p:.0f}/page, "
          f"{r['cached']} cached), completion {r['completion']} ({r['completion'] / p:.0f}/page)")
    print(f"  ingestion (calls, prompt tokens) per agent: {r['per_agent']}")
    print(f"  memory: nodes={r['nodes']} edges={r['edges']} merges={r['merges']} conflicts flagged={r['flagged']} "
          f"settled={r['settled']}")
    print(f"  analysis calls by new nodes carried {{nodes: calls}}: {r['nodes_per_analysis_call']}")
    print(f"  answer: {r['answer'][:160]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", choices=sorted(SAMPLES), nargs="+", default=["notes", "nist"])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8])
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--mode", choices=sorted(MODES), nargs="+", default=["before", "after"])
    parser.add_argument("--local", action="store_true", help="the local server's window: 3,072 tokens, 2 at once")
    args = parser.parse_args()
    embedder = load_embedder()
    embedder.embed(["warm up"])
    for sample in args.sample:
        runs = {(m, c): measure(sample, m, c, args.latency, embedder, args.local)
                for m in args.mode for c in args.concurrency}
        for r in runs.values():
            report(r)
        for c in args.concurrency if {"before", "after"} <= set(args.mode) and not args.local else ():
            before, after = runs[("before", c)], runs[("after", c)]
            print(f"{sample} at concurrency {c}: calls {before['calls']} -> {after['calls']} "
                  f"({after['calls'] / before['calls']:.0%}), prompt tokens {before['prompt']} -> {after['prompt']} "
                  f"({after['prompt'] / before['prompt']:.0%}), cached {before['cached']} -> {after['cached']}")


if __name__ == "__main__":
    main()
