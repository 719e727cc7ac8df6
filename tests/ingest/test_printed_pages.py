"""Printed page numbers travel with the PDF page numbers from the loader to provenance, passages, citations and
the export; an export written before they existed still imports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.loaders.pdf_factory import write_pdf
from tests.support.fake_engine import fake_engine

PAGES = [[[line]] for line in (
    "ALPHA pumps move cooling water through the primary loop.",
    "BRAVO valves close within two seconds when pressure drops.",
    "CHARLIE turbines turn steam into electricity for the grid.",
    "DELTA sensors report temperature readings every minute.",
    "ECHO cables carry signals between the control rooms.",
)]
PRINTED = ["11", "12", "13", "14", "15"]


@pytest.fixture()
def bank(tmp_path: Path):
    b = MemoryBank(Settings(), embedder=HashingEmbedder(), engine=fake_engine(), workdir=tmp_path / "work")
    b.ingest_file(write_pdf(tmp_path / "report.pdf", PAGES, running_text=True, printed=PRINTED))
    yield b
    b.clear()


def test_sources_keep_the_pdf_page_and_the_printed_page(bank: MemoryBank) -> None:
    [(node, _)] = bank.ranked("CHARLIE turbines", k=1)
    [source] = node.sources
    assert (source.page_start, source.page_end) == (3, 3)
    assert (source.printed_start, source.printed_end) == ("13", "13")
    assert source.label() == "report.pdf, p. 13 (PDF p. 3)"


def test_passages_entries_and_citations_show_the_printed_page(bank: MemoryBank) -> None:
    [passage] = bank.search_passages("DELTA sensors", 1)
    assert passage.where() == "report.pdf, p. 14 (PDF p. 4)"
    [(node, _)] = bank.ranked("DELTA sensors", k=1)
    assert [entry.printed_pages for entry in bank.deep_retrieve(node.id).entries] == [{4: "14"}]
    result = bank.run("What about the DELTA sensors?")
    assert result.citations
    for citation in result.citations:
        cited = bank.node(citation.node_id)
        assert citation.pages == cited.pages() and citation.printed_pages == cited.printed_pages()
        assert citation.printed_pages == {p: PRINTED[p - 1] for p in citation.pages}


def test_export_round_trip_keeps_printed_pages_and_old_exports_still_import(bank: MemoryBank) -> None:
    first = bank.export()
    sources = [s for n in first["query_graph"]["nodes"] for s in n["sources"]]
    assert sorted((s["page_start"], s["printed_start"], s["printed_end"]) for s in sources) == [
        (n, p, p) for n, p in enumerate(PRINTED, start=1)]
    again = MemoryBank.from_export(json.dumps(first), bank.settings, embedder=HashingEmbedder(),
                                   engine=fake_engine())
    assert again.export() == first

    old = json.loads(json.dumps(first))
    for node in old["query_graph"]["nodes"]:
        for source in node["sources"]:
            del source["printed_start"], source["printed_end"]
    for entry in old["interaction_tree"]["entries"]:
        entry["metadata"].pop("printed_start"), entry["metadata"].pop("printed_end")
    legacy = MemoryBank.from_export(old, bank.settings, embedder=HashingEmbedder(), engine=fake_engine())
    [(node, _)] = legacy.ranked("ALPHA pumps", k=1)
    assert node.sources[0].printed_start is None and node.sources[0].label() == "report.pdf, p. 1"
    assert legacy.search_passages("ALPHA pumps", 1)[0].where() == "report.pdf, p. 1"


def test_nist_text_is_cited_by_its_printed_page(nist_pdf: Path, tmp_path: Path) -> None:
    b = MemoryBank(Settings(), embedder=HashingEmbedder(), engine=fake_engine(), workdir=tmp_path / "work")
    try:
        b.ingest_file(nist_pdf)
        [passage] = b.search_passages("the abstract model of access shown in Figure 1", 1)
        assert passage.text.startswith("In the abstract model of access shown in Figure 1")
        place = "NIST.SP.800-207.pdf, §2 Zero Trust Basics, p. 5 (PDF p. 14)"  # file, section, printed page
        assert passage.where() == place
        assert b.node(passage.node_ids[0]).sources[0].label() == place
    finally:
        b.clear()


def test_the_agent_reads_printed_pages_in_deep_retrieval_and_the_memory_block(bank: MemoryBank) -> None:
    from memory_bank.tools.deep_retrieval_tool import deep_retrieval_json

    [(node, _)] = bank.ranked("ECHO cables", k=1)
    [entry] = json.loads(deep_retrieval_json(bank.deep_retrieve(node.id)))["entries"]
    assert entry["pages"] == [5, 5] and entry["where"] == "p. 15 (PDF p. 5)"
    assert "report.pdf, p. 15 (PDF p. 5)" in bank.memory_prompt("Which cables carry signals?", budget_tokens=200)


def test_an_imported_printed_page_label_is_bounded(bank: MemoryBank) -> None:
    from memory_bank.errors import ImportFormatError

    data = bank.export()
    data["query_graph"]["nodes"][0]["sources"][0]["printed_start"] = "x" * 10_000
    with pytest.raises(ImportFormatError, match="printed_start"):
        MemoryBank.from_export(json.dumps(data), bank.settings, embedder=HashingEmbedder(), engine=fake_engine())
