"""The section tree of the three real PDFs: NIST SP 800-207 (an outline), Apple's 10-K (an outline of the items
only) and Oracle's 10-K (no outline: headings from the layout alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.loaders import load_file
from memory_bank.structure.build import StructureBuilder
from memory_bank.structure.model import DocStructure, Section

PDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pdf"
LIMITS = {"max_bytes": 100_000_000, "max_image_pixels": 10_000_000}


def structure_of(name: str) -> tuple[DocStructure, dict]:
    path = PDF_DIR / name
    if not path.is_file():
        pytest.skip(f"shared data missing: {path}")
    document = load_file(path, **LIMITS)
    return StructureBuilder().run(document), document.metadata


@pytest.fixture(scope="module")
def nist() -> tuple[DocStructure, dict]:
    return structure_of("NIST.SP.800-207.pdf")


@pytest.fixture(scope="module")
def apple() -> tuple[DocStructure, dict]:
    return structure_of("APPLE_2022_10K.pdf")


@pytest.fixture(scope="module")
def oracle() -> tuple[DocStructure, dict]:
    return structure_of("ORACLE_2023_10K.pdf")


def section(structure: DocStructure, title_start: str) -> Section:
    found = [s for s in structure.sections if s.title.startswith(title_start)]
    assert found, f"no section titled {title_start!r}"
    return found[0]


def child_titles(structure: DocStructure, parent: Section) -> list[str]:
    return [s.title for s in structure.children(parent.id)]


def test_nist_tree_follows_the_outline(nist) -> None:
    structure, meta = nist
    assert meta["outline_headings_found"] >= meta["outline_entries"] - 1  # all but the document's own title
    basics = section(structure, "2 Zero Trust Basics")
    assert basics.level == 1
    assert child_titles(structure, basics) == ["2.1 Tenets of Zero Trust", "2.2 A Zero Trust View of a Network"]
    assert section(structure, "3.2.1 Device Agent/Gateway-Based Deployment").parent == \
        section(structure, "3.2 Deployed Variations").id
    threats = section(structure, "5 Threats Associated with Zero Trust Architecture")
    assert [title.split()[0] for title in child_titles(structure, threats)] == [f"5.{n}" for n in range(1, 8)]
    # the outline leaves out the front matter; its headings come from the layout, at the top level
    assert section(structure, "Abstract").level == 1


def test_nist_tenets_are_one_list_of_seven_in_their_section(nist) -> None:
    structure, _ = nist
    tenets = section(structure, "2.1 Tenets of Zero Trust")
    lists = [u for u in structure.units if u.section == tenets.id and u.kind == "list"]
    assert len(lists) == 1
    assert [item.marker for item in lists[0].items] == [f"{n}." for n in range(1, 8)]
    assert lists[0].lead_in.endswith("the following zero trust basic tenets:")
    assert lists[0].items[0].text.startswith("All data sources and computing services are considered resources.")


def test_apple_items_sit_under_their_parts(apple) -> None:
    structure, meta = apple
    assert meta["outline_headings_found"] >= 60
    item7 = section(structure, "Item 7. Management’s Discussion and Analysis")
    assert item7.level == 2
    assert structure.section(item7.parent).title == "PART II"
    assert "Fiscal Year Highlights" in child_titles(structure, item7)
    # headings the outline lacks, read from the layout, nest under the item
    business = section(structure, "Item 1. Business")
    assert {"Company Background", "Products", "Services"} <= set(child_titles(structure, business))
    assert child_titles(structure, section(structure, "Products"))[:3] == ["iPhone", "Mac", "iPad"]


def test_oracle_headings_come_from_the_layout(oracle) -> None:
    structure, meta = oracle
    assert meta["outline_entries"] == 0
    assert meta["layout_headings"] >= 150
    item7 = section(structure, "Item 7. Management’s Discussion and Analysis")
    part2 = structure.section(item7.parent)  # the contents page's "PART II." is a heading too, with no items
    assert item7.level == 2 and part2.level == 1 and part2.title.startswith("PART II")
    assert {"Business Overview", "Cloud and License Business", "Critical Accounting Policies and Estimates"} <= \
        set(child_titles(structure, item7))
    # bold italic sub-headings nest under the bold ones
    assert "Revenue Recognition" in child_titles(structure, section(structure, "Critical Accounting Policies"))
    assert [s.title for s in structure.sections if s.title.startswith("Item 1A.")] == ["Item 1A. Risk Factors"]


def test_a_list_a_page_break_cut_is_one_list(nist: tuple[DocStructure, dict]) -> None:
    """1.2's "The rest of the document is organized as follows:" lists Sections 2 and 3 on PDF page 11 and Sections
    4 to 7 on page 12, the page's two footnotes read between them: one list of six, not two lists of two and four."""
    structure, _ = nist
    section = next(s for s in structure.sections if s.title == "1.2 Structure of This Document")
    lists = [u for u in structure.units_in(section.id) if u.kind == "list"]
    assert len(lists) == 1, [u.lead_in for u in lists]
    assert lists[0].lead_in == "The rest of the document is organized as follows:"
    assert [i.text.split()[1] for i in lists[0].items] == ["2", "3", "4", "5", "6", "7"]
    assert (lists[0].page_start, lists[0].page_end) == (11, 12)
