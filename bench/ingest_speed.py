"""Ingestion speed and memory with the offline engine (issue 3, measure 3; issue 26: per embedding runtime).

First the embedding runtimes side by side in one process (passages/s on the same 64 200-word passages, rounds
interleaved, so a busy neighbour slows both alike: the ratio is the number to read). Then two cases per runtime,
each in its own process (so peak memory and caches are its own): the NIST SP 800-207 PDF (59 pages) and a
300-page PDF made here from the SQuAD articles with reportlab. Reported: wall time of `ingest_file` (model loading
excluded, reported apart), the split by stage, texts embedded (asked for / run through the model), nodes/edges,
and the process's peak resident memory (model included).
Targets: NIST <= 15 s, 300 pages <= 90 s, peak <= 2 GB (issue 26: NIST <= 3 s, 300 pages <= 10 s at load <= 1).
The machine is shared: process CPU time and the load average are printed too, because wall time on a busy machine
says more about the neighbours than the code.

    python bench/ingest_speed.py
    python bench/ingest_speed.py --only nist --runtimes onnx
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.retrieval.embedding import Runtime  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
NIST = SHARED / "pdf" / "NIST.SP.800-207.pdf"
SQUAD = SHARED / "squad" / "squad_dev_visible.json"
TARGET_PAGES = 300
NOMINAL_RATE = 23.0  # 200-word passages a second, batch 32, measured on this 2-core machine when idle


def rate_passages() -> list[str]:
    words = " ".join(p["context"] for a in json.loads(SQUAD.read_text(encoding="utf-8"))["data"][:2]
                     for p in a["paragraphs"]).split()
    return [" ".join(words[i:i + 200]) for i in range(0, 64 * 200, 200)]


def embedding_rate(embedder, passages: list[str]) -> float:  # noqa: ANN001
    """200-word passages embedded per second right now (uncached): how busy the shared machine is."""
    t0 = time.perf_counter()
    embedder.inner.embed(passages)
    return len(passages) / (time.perf_counter() - t0)


def compare_runtimes(runtimes: list[str], rounds: int = 3) -> None:
    """Each runtime's best passages/s over interleaved rounds in this one process."""
    from memory_bank.retrieval.embedding import load_embedder

    passages = rate_passages()
    loaded = {name: load_embedder(runtime=name) for name in runtimes}
    for name, embedder in loaded.items():
        if embedder.runtime != name:
            sys.exit(f"runtime {name} is not available here: {embedder.runtime} loaded instead")
        embedder.inner.embed(passages[:4])  # warm up
    best = dict.fromkeys(runtimes, 0.0)
    load = os.getloadavg()[0]
    for _ in range(rounds):
        for name, embedder in loaded.items():
            best[name] = max(best[name], embedding_rate(embedder, passages))
    base = best[runtimes[-1]]
    print(f"embedding, 64 passages of 200 words, best of {rounds} interleaved rounds, load average "
          f"{load:.1f} -> {os.getloadavg()[0]:.1f}:")
    print("  " + " | ".join(f"{name} {rate:.1f} passages/s ({rate / base:.2f}x)" for name, rate in best.items()),
          flush=True)


def count_texts(embedder) -> dict[str, int]:  # noqa: ANN001
    """Count what ingestion asks the cache for and what reaches the model (the rest were known texts)."""
    counts = {"asked": 0, "embedded": 0}
    outer, inner = embedder.embed, embedder.inner.embed

    def asked(texts: list[str]):  # noqa: ANN202
        counts["asked"] += len(texts)
        return outer(texts)

    def embedded(texts: list[str]):  # noqa: ANN202
        counts["embedded"] += len(texts)
        return inner(texts)

    embedder.embed, embedder.inner.embed = asked, embedded
    return counts


def make_squad_pdf(path: Path, pages: int = TARGET_PAGES) -> int:
    """Render the SQuAD articles as a book (title heading, then paragraphs) until it has `pages` pages."""
    from xml.sax.saxutils import escape

    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    body = styles["BodyText"].clone("body", fontSize=14, leading=19)  # ~316 words a page: ~317 pages
    articles = json.loads(SQUAD.read_text(encoding="utf-8"))["data"]
    story = []
    for article in articles:
        story.append(Paragraph(escape(article["title"].replace("_", " ")), styles["Heading1"]))
        for para in article["paragraphs"]:
            story.append(Paragraph(escape(para["context"]), body))
            story.append(Spacer(1, 6))
        story.append(PageBreak())
    count = {"pages": 0}

    def on_page(canvas, doc) -> None:  # noqa: ANN001
        count["pages"] = doc.page

    doc = SimpleDocTemplate(str(path), pagesize=letter, leftMargin=72, rightMargin=72, topMargin=72,
                            bottomMargin=72)
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    if count["pages"] < pages:
        raise RuntimeError(f"the generated book has {count['pages']} pages, fewer than {pages}")
    return count["pages"]


def measure(path: str, runtime: str, queue: mp.Queue) -> None:
    from memory_bank import MemoryBank, Settings
    from memory_bank.retrieval.embedding import load_embedder

    t0 = time.perf_counter()
    embedder = load_embedder(runtime=runtime)
    load_model = time.perf_counter() - t0
    rate = embedding_rate(embedder, rate_passages())
    texts = count_texts(embedder)
    # no time budget: the whole document is read however busy the machine is (the default stops at 120 s)
    bank = MemoryBank(Settings(engine="offline", ingest_time_budget=3600), embedder=embedder)
    load_before = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    ids = bank.ingest_file(path)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    report = bank.reports[-1]
    stages = dict(report.stage_seconds)
    stages = {"load PDF + chunk": max(0.0, total - sum(stages.values())), **stages}
    counts = bank.snapshot().counts
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put({"seconds": total, "cpu": cpu, "rate": rate, "load": load_before, "model_load": load_model,
               "runtime": embedder.runtime, "texts": texts, "load_after": os.getloadavg()[0],
               "stages": stages, "nodes": len(ids), "counts": counts, "peak_mb": peak_mb,
               "failures": [str(f) for f in report.failures]})
    bank.clear()


def run_case(name: str, path: Path, target: float, runtime: str) -> dict:
    ctx = mp.get_context("spawn")
    queue: mp.Queue = ctx.Queue()
    proc = ctx.Process(target=measure, args=(str(path), runtime, queue))
    proc.start()
    result = queue.get()
    proc.join()
    ok = "ok" if result["seconds"] <= target and result["peak_mb"] <= 2048 else "OVER TARGET"
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in result["stages"].items())
    print(f"{name} on {result['runtime']}: {result['seconds']:.1f}s (target {target:.0f}s) {ok}; "
          f"peak {result['peak_mb']:.0f} MB; model load {result['model_load']:.1f}s (not counted)")
    print(f"  process CPU {result['cpu']:.1f}s (2 cores: an idle machine needs about half of it as wall time); "
          f"load average {result['load']:.1f} at the start, {result['load_after']:.1f} at the end")
    print(f"  texts: {result['texts']['asked']} asked for, {result['texts']['embedded']} run through the model")
    print(f"  stages: {stages}")
    embed = result["stages"].get("embed", 0.0)
    projected = result["seconds"] - embed + embed * result["rate"] / NOMINAL_RATE
    print(f"  embedding ran at {result['rate']:.1f} passages/s (idle machine: {NOMINAL_RATE:.0f}); with the "
          f"embedding stage scaled to the idle rate: ~{projected:.0f}s (a projection, not a measurement)")
    print(f"  graph: {result['counts']}; failures: {len(result['failures'])}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["nist", "book"], default=None)
    known = [r for r in get_args(Runtime) if r != "auto"]
    parser.add_argument("--runtimes", default="onnx-int8,onnx,torch", help=f"comma-separated, of {', '.join(known)}")
    args = parser.parse_args()
    runtimes = [r for r in args.runtimes.split(",") if r]
    if set(runtimes) - set(known):
        sys.exit(f"unknown runtime in {args.runtimes!r}: {', '.join(known)}")
    # in a process of its own: the parent stays small, and a child's peak memory (inherited at the fork) is its own
    side_by_side = mp.get_context("spawn").Process(target=compare_runtimes, args=(runtimes,))
    side_by_side.start()
    side_by_side.join()
    if args.only in (None, "nist"):
        if not NIST.is_file():
            sys.exit(f"NIST PDF not found: {NIST}")
        for runtime in runtimes:
            run_case("NIST SP 800-207 (59 pages)", NIST, 15.0, runtime)
    if args.only in (None, "book"):
        if not SQUAD.is_file():
            sys.exit(f"SQuAD data not found: {SQUAD}")
        with tempfile.TemporaryDirectory() as tmp:
            book = Path(tmp) / "squad_book.pdf"
            t0 = time.perf_counter()
            pages = make_squad_pdf(book)
            print(f"generated {book.name}: {pages} pages in {time.perf_counter() - t0:.1f}s")
            for runtime in runtimes:
                run_case(f"SQuAD book ({pages} pages)", book, 90.0, runtime)


if __name__ == "__main__":
    main()
