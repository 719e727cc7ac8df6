"""Conflicts a single document raises against itself, offline: each PDF of the shared data ingested alone with
the default (offline) settings, its pending conflicts counted and listed.

A filing or a standard does not contradict itself in the sense the memory's conflicts mean (sources that disagree
about one fact), so every conflict here is a false alarm a user would see on the Query Graph, and each would cost
a CROSS_VALIDATE step: the number to drive to 0 without losing the conflicts between sources (RAMDocs,
`bench/ramdocs_conflicts.py`; the notes sample).

    python bench/document_conflicts.py [--show 10]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdf"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=10, help="conflicts listed per document")
    args = parser.parse_args()
    embedder = load_embedder()
    print(f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for pdf in sorted(DATA.glob("*.pdf")):
        with tempfile.TemporaryDirectory() as work:
            bank = MemoryBank(Settings(), embedder=embedder, workdir=Path(work))
            start = time.perf_counter()
            bank.ingest_file(pdf)
            conflicts = list(bank.memory.conflicts.values())
            print(f"{pdf.name}: {len(bank.memory.graph.nodes())} nodes, {len(conflicts)} pending conflicts "
                  f"({time.perf_counter() - start:.0f} s)")
            for c in conflicts[:args.show]:
                print(f"  - {c.description[:220]}")
            bank.clear()


if __name__ == "__main__":
    main()
