"""A bank over a few real pages of a shared PDF: a test reads the pages it is about, not the whole filing."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from memory_bank import LongTermMemory, MemoryBank, Settings
from memory_bank.retrieval.embedding import Embedder, HashingEmbedder

PDF_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "pdf"


def bank_of_pages(name: str, pages: list[int], folder: Path, long_term: LongTermMemory | None = None,
                  embedder: Embedder | None = None) -> MemoryBank:
    """An offline bank that ingested `pages` (from 0) of the shared PDF `name`, saved under its own name in
    `folder`, with the user's `long_term` memory if given, embedding with `embedder` (the hashing stand-in by
    default); the test is skipped when the shared data is missing."""
    pdf = PDF_DIR / name
    if not pdf.is_file():
        pytest.skip(f"shared data missing: {pdf}")
    part = pdfium.PdfDocument.new()
    part.import_pages(pdfium.PdfDocument(str(pdf)), pages)
    part.save(str(folder / name))
    bank = MemoryBank(Settings(engine="offline", data_dir=folder / "data"), embedder=embedder or HashingEmbedder(),
                      workdir=folder / "w", long_term=long_term)
    bank.ingest_file(folder / name)
    return bank


def bank_of_pdf(name: str, folder: Path, embedder: Embedder | None = None) -> MemoryBank:
    """An offline bank that ingested the whole shared PDF `name` as it is, outline (bookmarks) included: pages
    copied out of it lose the outline, and with it sections such as a back matter's "Appendix A—Acronyms"."""
    pdf = PDF_DIR / name
    if not pdf.is_file():
        pytest.skip(f"shared data missing: {pdf}")
    bank = MemoryBank(Settings(engine="offline", data_dir=folder / "data"), embedder=embedder or HashingEmbedder(),
                      workdir=folder / "w")
    bank.ingest_file(pdf)
    return bank
