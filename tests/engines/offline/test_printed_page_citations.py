"""The offline answer cites the printed page beside the PDF page, whichever evidence it used."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings, pages_label
from tests.loaders.pdf_factory import write_pdf

PAGES = [[[line]] for line in (
    "The reactor hall houses two pressurised water reactors built in 1987.",
    "The cooling towers release water vapour that forms tall white plumes.",
    "The control room is staffed by six operators on every shift.",
    "The spent fuel pool stores used assemblies under eight metres of water.",
)]
PRINTED = ["iv", "v", "vi", "vii"]


def test_offline_citations_show_the_printed_page(embedder, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path / "work")
    try:
        bank.ingest_file(write_pdf(tmp_path / "plant.pdf", PAGES, running_text=True, printed=PRINTED))
        result = bank.run("How many operators staff the control room?")
        assert "six operators" in result.answer and result.citations
        for citation in result.citations:
            assert citation.printed_pages.items() <= {n: PRINTED[n - 1] for n in citation.pages}.items()
            first, last = min(citation.pages), max(citation.pages)
            shown = f"p. {PRINTED[first - 1]} (PDF p. {first})" if first == last else \
                f"pp. {PRINTED[first - 1]}-{PRINTED[last - 1]} (PDF pp. {first}-{last})"
            assert pages_label(citation.pages, citation.printed_pages) == shown
    finally:
        bank.clear()
