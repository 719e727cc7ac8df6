"""The task store's costs: ingestion slowdown from persistence, reopening a 2,000-node task, database size.

1. The NIST PDF ingested by the offline engine with no store, then with a SQLite store (the background writer
   flushing every 0.5 s), alternating, `--repeats` times each: the slowdown is the ratio of the medians.
2. A 2,000-node task (real SQuAD sentences as node text and raw entries, real MiniLM embeddings, ~2 related
   edges per node) written through a stored bank: the cost of one flush after one node changes (the tracker's
   comparison plus the write), the time `MemoryBank.open` takes to bring it back (load, validate, re-index),
   and the SQLite file's size per 1,000 nodes.

    python bench/task_store.py                 # both
    python bench/task_store.py --skip-ingest   # only the 2,000-node measures
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import MemoryBank, Settings, SqlTaskStore, load_embedder  # noqa: E402
from memory_bank.ingest.graph_ops import RawEntry  # noqa: E402
from memory_bank.memory.query_graph import Node, Source  # noqa: E402
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.split import split_sentences  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
NIST = DATA / "pdf" / "NIST.SP.800-207.pdf"
SQUAD = DATA / "squad" / "squad_dev_visible.json"


def ingest_seconds(embedder, stored: bool) -> tuple[float, int]:  # noqa: ANN001
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder))
        store = SqlTaskStore(Path(folder)) if stored else None
        # a fresh cache over the loaded model: each run embeds the document as a new upload does
        fresh = CachedEmbedder(embedder.inner) if isinstance(embedder, CachedEmbedder) else embedder
        bank = MemoryBank(settings, embedder=fresh, store=store)
        t0 = time.perf_counter()
        ids = bank.ingest_file(NIST)
        bank.flush()  # durable: the stored run counts its last write
        seconds = time.perf_counter() - t0
        bank.close()
        return seconds, len(ids)


def big_task(embedder, folder: Path, n: int) -> tuple[SqlTaskStore, str, MemoryBank]:  # noqa: ANN001
    data = json.loads(SQUAD.read_text())
    pool = [s for art in data["data"] for p in art["paragraphs"] for s in split_sentences(p["context"])]
    rng = random.Random(7)
    texts = [" ".join(rng.sample(pool, 3)) for _ in range(n)]
    vectors = embedder.embed(texts)
    nodes = [Node(id=f"n{i}", summary=t, context=t[:80], keywords=t.split()[:6], embedding=vectors[i],
                  timestamp=float(i), sources=[Source(name="squad.txt", page_start=1 + i // 40,
                                                      page_end=1 + i // 40)]) for i, t in enumerate(texts)]
    store = SqlTaskStore(folder)
    bank = MemoryBank(Settings(data_dir=folder), embedder=embedder, store=store)
    ops = bank._core.ops  # the pipeline's own path: entries, index, events
    for first in range(0, n, 50):
        chunk = nodes[first:first + 50]
        ops.add_nodes(chunk, [RawEntry(f"{t} {rng.choice(pool)}", {"source": "squad.txt"})
                              for t in texts[first:first + 50]])
    for i in range(1, n):
        for _ in range(2):
            ops.add_edge(f"n{i}", f"n{rng.randrange(i)}")
    bank.flush()
    return store, bank.task_id or "", bank


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--skip-ingest", action="store_true")
    args = parser.parse_args()
    embedder = load_embedder()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    if not args.skip_ingest:
        plain, stored = [], []
        ingest_seconds(embedder, stored=False)  # untimed warm-up: model load and the embedding cache, both sides
        for _ in range(args.repeats):
            seconds, nodes = ingest_seconds(embedder, stored=False)
            plain.append(seconds)
            seconds, nodes_stored = ingest_seconds(embedder, stored=True)
            stored.append(seconds)
        a, b = statistics.median(plain), statistics.median(stored)
        print(f"NIST ingestion: in memory {a:.1f} s, stored {b:.1f} s ({nodes} / {nodes_stored} nodes); "
              f"slowdown {100 * (b / a - 1):+.1f} % (target <= 10 %); runs {plain} / {stored}")
    with tempfile.TemporaryDirectory() as folder:
        store, task_id, bank = big_task(embedder, Path(folder), args.nodes)
        node = bank._core.memory.graph.get("n10")
        flushes = []
        for i in range(20):
            bank._core.ops.update_context({node.id: (f"changed context {i}", None)})
            t0 = time.perf_counter()
            bank.flush()
            flushes.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        bank.flush()  # nothing changed
        idle = time.perf_counter() - t0
        bank.close()
        db = Path(folder) / "tasks.sqlite3"
        with store.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.stat().st_size
        opens = []
        for _ in range(3):
            t0 = time.perf_counter()
            reopened = MemoryBank.open(task_id, store, Settings(data_dir=Path(folder)), embedder=embedder)
            opens.append(time.perf_counter() - t0)
            assert reopened.snapshot().counts["nodes"] == args.nodes
            reopened.close()
        print(f"{args.nodes} nodes: one node changed -> flush p50 {1000 * statistics.median(flushes):.1f} ms, "
              f"max {1000 * max(flushes):.1f} ms; flush with nothing changed {1000 * idle:.1f} ms")
        print(f"reopen {args.nodes} nodes: {', '.join(f'{s:.2f}' for s in opens)} s "
              f"(median {statistics.median(opens):.2f} s, target <= 1.5 s)")
        print(f"SQLite file {size / 1e6:.1f} MB = {size / 1e6 / (args.nodes / 1000):.2f} MB per 1,000 nodes "
              f"(nodes with 384-d float32 embeddings, one raw entry each, ~2 edges each)")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
