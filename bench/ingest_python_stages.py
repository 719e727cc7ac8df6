"""The single-threaded Python part of ingestion alone: every stage but the embedding model, in CPU seconds.

`ingest_speed.py` times the whole ingestion, where the embedding model takes both cores and most of the time, so
a change to reading, classifying, structuring or linking is lost in the noise of a shared machine. Here one
process ingests the document once to fill the embedder's cache, then again `--reps` times into fresh banks:
the model is not run again (every text is known), and what is left is the Python work. Reported: the lowest
process CPU time over the repetitions (CPU time, not wall time: a busy neighbour delays it less) and each
stage's lowest wall time ("load" is reading the PDF and cutting it into chunks).

    python bench/ingest_python_stages.py
    python bench/ingest_python_stages.py --only book --reps 5
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ingest_speed import NIST, make_squad_pdf  # noqa: E402


def ingest_once(path: Path, embedder) -> tuple[float, dict[str, float]]:  # noqa: ANN001
    from memory_bank import MemoryBank, Settings

    bank = MemoryBank(Settings(engine="offline", ingest_time_budget=3600), embedder=embedder)
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        bank.ingest_file(path)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        stages = dict(bank.reports[-1].stage_seconds)
        return cpu, {"load": wall - sum(stages.values()), **stages}
    finally:
        bank.clear()


def measure(name: str, path: Path, reps: int, runtime: str) -> None:
    from memory_bank.retrieval.embedding import load_embedder

    embedder = load_embedder(runtime=runtime)
    ingest_once(path, embedder)  # fills the cache: the runs below never reach the model
    runs = [ingest_once(path, embedder) for _ in range(reps)]
    cpus = [cpu for cpu, _ in runs]
    stages = ", ".join(f"{stage} {min(s[stage] for _, s in runs):.2f}s" for stage in runs[0][1])
    print(f"{name}: Python stages {min(cpus):.2f}s CPU (runs: {' '.join(f'{c:.2f}' for c in cpus)}), load average "
          f"{os.getloadavg()[0]:.1f}\n  stages (lowest wall time each): {stages}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["nist", "book"], default=None)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--book", type=Path, default=Path(tempfile.gettempdir()) / "ingest_identity_book.pdf")
    parser.add_argument("--runtime", default="onnx-int8")
    args = parser.parse_args()
    if args.only in (None, "nist"):
        measure("NIST SP 800-207", NIST, args.reps, args.runtime)
    if args.only in (None, "book"):
        if not args.book.is_file():
            make_squad_pdf(args.book)
        measure("SQuAD book", args.book, args.reps, args.runtime)


if __name__ == "__main__":
    main()
