"""What the long-document benches share: the fixed-chunk baseline, the word cut, and a bank built once.

One definition of the baseline (200-word chunks, the bank's own embedder and hybrid score) so that the SQuAD book
(`squad_longdoc.py`) and the PDFs (`doc_qa.py`) are measured against the same thing; and one way to build or
reload a bank, so a bench can skip a re-ingestion it has already paid for.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.engines.protocol.not_found import is_not_found  # noqa: E402
from memory_bank.retrieval.hybrid_index import HybridIndex  # noqa: E402
from memory_bank.text.tokens import tokenize  # noqa: E402

CHUNK_WORDS = 200


def hit(context: str, answers: list[str]) -> bool:
    hay = " ".join(context.lower().split())
    return any(" ".join(a.lower().split()) in hay for a in answers)


def answered(answer: str, answers: list[str]) -> bool:
    """A final answer holds the gold and is an answer: a "not found" whose closest passage shows the gold told the
    reader the documents do not answer."""
    return hit(answer, answers) and not is_not_found(answer)


def cut(text: str, budget: int) -> str:
    return " ".join(text.split()[:budget])


class ChunkBaseline:
    """Fixed 200-word chunks, the same embedder and the same hybrid score as the memory bank."""

    def __init__(self, book: str, embedder, alpha: float) -> None:  # noqa: ANN001
        words = book.split()
        self.chunks = [" ".join(words[i:i + CHUNK_WORDS]) for i in range(0, len(words), CHUNK_WORDS)]
        self.embedder = embedder
        self.alpha = alpha
        self.index = HybridIndex(embedder.dim)
        vectors = embedder.embed(self.chunks)
        for i, (chunk, vec) in enumerate(zip(self.chunks, vectors)):
            self.index.upsert(str(i), tokenize(chunk), vec)

    def context(self, question: str, k: int) -> str:
        """The top-k chunks in rank order (the caller cuts them to its budget)."""
        vector = self.embedder.embed([question])[0]
        hits = self.index.search(tokenize(question), vector, k, self.alpha)
        return "\n\n".join(self.chunks[int(i)] for i, _ in hits)


WHOLE_DOCUMENT = 24 * 3600.0  # seconds: a bench reads every page


def load_or_build(settings: Settings, embedder, cache: Path | None,  # noqa: ANN001
                  ingest: Callable[[MemoryBank], object]) -> MemoryBank:
    """The bank `ingest` fills, or the one its export in `cache` holds (written on the first run). The whole
    document is read however busy the machine is: under the default per-document budget (120 s) a loaded
    machine stopped the 100k-word book after a third of it, and a bench measured (and cached) that third."""
    if cache is not None and cache.is_file():
        t0 = time.perf_counter()
        bank = MemoryBank.from_export(cache.read_text(encoding="utf-8"), settings, embedder=embedder)
        print(f"memory bank: loaded {cache} in {time.perf_counter() - t0:.1f}s; {bank.snapshot().counts}")
        return bank
    bank = MemoryBank(settings.model_copy(update={"ingest_time_budget": WHOLE_DOCUMENT}), embedder=embedder)
    t0 = time.perf_counter()
    ingest(bank)
    report = bank.reports[-1] if bank.reports else None
    if report is not None and report.stopped is not None:
        sys.exit(f"the document was not read whole, nothing cached: {report.stopped.message}")
    print(f"memory bank: ingested in {time.perf_counter() - t0:.1f}s; {bank.snapshot().counts}")
    if report is not None:
        print("  stages: " + ", ".join(f"{k} {v:.1f}s" for k, v in report.stage_seconds.items()))
    if cache is not None:
        cache.write_text(json.dumps(bank.export()), encoding="utf-8")
    return bank
