"""The NIST PDF through the real ingestion: section nodes with their items, unique titles, sections on every
source, the structure's edges, and a list question that brings the whole list into the memory block."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.ingest.sections import OutlineConfig, outline_lines
from memory_bank.ingest.titles import Titles
from memory_bank.loaders.document import Document
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.structure.build import StructureBuilder

TENETS = ("All data sources and computing services are considered resources",
          "All communication is secured regardless of network location",
          "Access to individual enterprise resources is granted on a per-session basis",
          "Access to resources is determined by dynamic policy",
          "The enterprise monitors and measures the integrity and security posture",
          "All resource authentication and authorization are dynamic and strictly enforced",
          "The enterprise collects as much information as possible")


@pytest.fixture(scope="module")
def nist_bank(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("nist"))
    bank.ingest_file(nist_pdf)
    return bank


def _section_node(bank: MemoryBank, title: str):
    return next(n for n in bank.memory.graph.nodes() if n.kind == "section" and n.title.startswith(title))


def test_the_tenets_section_is_a_node_that_holds_all_seven_tenets(nist_bank: MemoryBank) -> None:
    node = _section_node(nist_bank, "2.1 Tenets of Zero Trust")
    (entry,) = nist_bank.entries_for(node.id)
    assert entry.metadata["structure"] == "section" and entry.metadata["items"] == 7
    assert entry.metadata["section"][-1] == "2.1 Tenets of Zero Trust"
    for tenet in TENETS:
        assert tenet in " ".join(entry.text.split())
    assert node.sources[0].label() == "NIST.SP.800-207.pdf, §2.1 Tenets of Zero Trust, pp. 6-7 (PDF pp. 15-16)"


def test_sections_are_hubs_linked_to_their_passages_and_their_parent(nist_bank: MemoryBank) -> None:
    tenets = _section_node(nist_bank, "2.1 Tenets of Zero Trust")
    basics = _section_node(nist_bank, "2 Zero Trust Basics")
    neighbours = {n.id: n for n in nist_bank.neighbors(tenets.id)}
    assert basics.id in neighbours
    passages = [n for n in neighbours.values() if n.kind != "section"]
    assert passages and all(n.section()[-1] == "2.1 Tenets of Zero Trust" for n in passages)
    models = _section_node(nist_bank, "3.2 Deployed Variations")
    (entry,) = nist_bank.entries_for(models.id)
    assert entry.metadata["subsections"] >= 4  # one per deployment model


def test_every_node_has_a_unique_title_and_every_passage_its_section(nist_bank: MemoryBank) -> None:
    nodes = nist_bank.memory.graph.nodes()
    titles = [n.title.lower() for n in nodes]
    assert all(titles) and len(set(titles)) == len(titles)
    body = [n for n in nodes if n.kind == "text" and n.pages() and min(n.pages()) >= 12]  # past the front matter
    assert body and sum(bool(n.section()) for n in body) / len(body) > 0.95


def test_a_list_question_brings_the_whole_list_into_the_memory_block(nist_bank: MemoryBank) -> None:
    block = nist_bank.memory_prompt("How many tenets of zero trust are there, and what does the first say?", 700)
    flat = " ".join(block.split())
    assert "2.1 Tenets of Zero Trust" in flat
    assert all(tenet in flat for tenet in TENETS)
    assert flat.index(TENETS[0]) < flat.index(TENETS[6])  # in the document's order


def test_titles_and_sections_survive_an_export_round_trip(nist_bank: MemoryBank) -> None:
    data = nist_bank.export()
    again = MemoryBank.from_export(json.dumps(data), nist_bank.settings, embedder=HashingEmbedder())
    assert again.export() == data
    kinds = {n["kind"] for n in data["query_graph"]["nodes"]}
    assert "section" in kinds
    node = _section_node(again, "2.1 Tenets of Zero Trust")
    assert node.sources[0].section[-1] == "2.1 Tenets of Zero Trust"


def test_titles_are_unique_whatever_collides() -> None:
    titles = Titles()
    names = [titles.section("Overview"), titles.section("Overview", "Item 7. MD&A"), titles.section("Overview")]
    names += [titles.passage("Overview", ["overview", "revenue"]), titles.passage("Overview", ["revenue"])]
    assert len({n.lower() for n in names}) == len(names) and all(len(n) <= 48 for n in names)


def test_an_outline_lists_items_and_sub_sections_in_order() -> None:
    text = ("# Guide\n\nThis guide has three parts.\n\n## Setup\n\nInstall it first.\n\n## Use\n\nRun it.\n\n"
            "The checks are:\n\n- lint\n- tests\n- a browser run\n")
    structure = StructureBuilder().run(Document.from_text(text, "guide.md", kind="markdown"))
    guide = structure.sections[0]
    lines = outline_lines(guide, structure, OutlineConfig())
    assert lines == ["Guide", "This guide has three parts.", "Setup", "Install it first.", "Use", "Run it."]
    use = structure.sections[2]
    assert outline_lines(use, structure, OutlineConfig())[2:] == ["The checks are:", "- lint", "- tests",
                                                                  "- a browser run"]


def test_a_list_question_is_answered_with_the_count_and_every_item_whole(nist_bank: MemoryBank) -> None:
    result = nist_bank.run("How many tenets of zero trust are there?")
    lines = result.answer.splitlines()
    assert lines[0] == "There are 7 tenets (NIST.SP.800-207.pdf, §2.1 Tenets of Zero Trust, pp. 6-7 (PDF pp. 15-16)):"
    assert [line.split()[0] for line in lines[1:]] == [f"{n}." for n in range(1, 8)]
    for line, tenet in zip(lines[1:], TENETS):
        assert line.startswith(f"{line.split()[0]} {tenet}") and line.endswith(".")  # whole sentences
    (cite,) = result.citations
    assert cite.section[-1] == "2.1 Tenets of Zero Trust" and cite.where().startswith("NIST.SP.800-207.pdf, §2.1")


def test_a_question_for_kinds_lists_the_sub_sections(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What deployment models does NIST describe?").answer
    lines = answer.splitlines()
    assert lines[0].startswith("The documents give 4 models (NIST.SP.800-207.pdf, §3.2 Deployed Variations")
    assert [line.split()[1] for line in lines[1:]] == ["3.2.1", "3.2.2", "3.2.3", "3.2.4"]
    assert "In this deployment model" in lines[1]


def test_an_outline_from_an_imported_file_is_validated() -> None:
    from memory_bank.memory.outline import Outline

    assert Outline.from_metadata({}) is None
    assert Outline.from_metadata({"outline": "not a dict"}) is None
    assert Outline.from_metadata({"outline": {"title": "x", "lists": [{"count": -1}]}}) is None
    assert Outline.from_metadata({"outline": {"title": "x" * 5000}}) is None
    ok = Outline.from_metadata({"outline": {"title": "T", "lists": [{"count": 2, "items": [
        {"marker": "1.", "text": "a"}, {"marker": "2.", "text": "b"}]}]}})
    assert ok is not None and ok.lists[0].items[1].text == "b"


def test_a_follow_up_part_about_the_first_item_is_answered_from_the_list(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("How many tenets of zero trust are there, and what does the first say?").answer
    assert answer.startswith("There are 7 tenets")
    last = answer.splitlines()[-1]
    assert last.startswith(f"- Item 1: {TENETS[0]}") and "§2.1 Tenets of Zero Trust" in last


def test_a_follow_up_about_each_item_is_what_the_list_already_says(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What are the core logical components of a zero trust architecture and what does each "
                           "one do?").answer
    assert answer.startswith("The documents give 3 components") and "Not found" not in answer
    assert len(answer.splitlines()) == 4 and "Policy administrator (PA): This component is responsible" in answer
