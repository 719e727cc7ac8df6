"""The PDF outline: read bounded whatever the file holds, and its titles found on their pages."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from memory_bank.loaders import load_file
from memory_bank.loaders.pdf_outline import MAX_DEPTH, MAX_ENTRIES, read_outline

from .pdf_raw import Item, Text, body_lines, tree, write_raw_pdf

LIMITS = {"max_bytes": 50_000_000, "max_image_pixels": 10_000_000}
BODY = ["The body of this section runs over a few lines of plain text so that the page has a clear",
        "body style that headings stand apart from, and it ends here with a full stop."]


def outline_of(path: Path):
    with pdfium.PdfDocument(str(path)) as document:
        return read_outline(document)


def headings(doc) -> list[tuple[int, int | None, str]]:
    return [(page.number, block.level, block.text) for page in doc.pages for block in page.blocks
            if block.kind == "heading"]


def simple_pages(count: int) -> list[list[Text]]:
    return [[Text(f"Section {n + 1}", 680, "B", 14), *body_lines(650, BODY)] for n in range(count)]


# --- reading -------------------------------------------------------------------------------------------------


def test_outline_entries_keep_their_level_page_and_position(tmp_path: Path) -> None:
    items = tree([("Section 1", 1, 0, 735), ("Detail", 2, 0, 600), ("Section 2", 1, 1, 735)])
    items[2].goto_action = True  # a destination given through a /GoTo action is read too
    entries = outline_of(write_raw_pdf(tmp_path / "ok.pdf", simple_pages(2), items))
    assert [(e.title, e.level, e.page, e.top) for e in entries] == [
        ("Section 1", 1, 0, 735), ("Detail", 2, 0, 600), ("Section 2", 1, 1, 735)]


def test_a_sibling_loop_is_read_once(tmp_path: Path) -> None:
    items = [Item("First", 0, next=1), Item("Second", 1, prev=0, next=0)]  # Second's /Next is First again
    path = write_raw_pdf(tmp_path / "loop.pdf", simple_pages(2), items)
    assert [e.title for e in outline_of(path)] == ["First", "Second"]
    assert len(headings(load_file(path, **LIMITS))) <= 2


def test_a_child_pointing_back_at_its_ancestor_is_read_once(tmp_path: Path) -> None:
    items = [Item("Parent", 0, first=1, last=1), Item("Child", 1, parent=0, first=0, last=0)]
    path = write_raw_pdf(tmp_path / "cycle.pdf", simple_pages(2), items)
    assert [(e.title, e.level) for e in outline_of(path)] == [("Parent", 1), ("Child", 2)]
    load_file(path, **LIMITS)


def test_entries_pointing_outside_the_document_are_dropped(tmp_path: Path) -> None:
    items = tree([("Section 1", 1, 0, 735), ("Nowhere", 1, 0, 735), ("Not a page", 1, 0, 735),
                  ("No destination", 1, 0, 735), ("Section 2", 1, 1, 735)])
    items[1].dest = "[99 /XYZ 0 700 0]"  # page index 99 of a 2-page document
    items[2].dest = "[3 0 R /XYZ 0 700 0]"  # object 3 is a font
    items[3].dest = None
    entries = outline_of(write_raw_pdf(tmp_path / "outside.pdf", simple_pages(2), items))
    assert [e.title for e in entries] == ["Section 1", "Section 2"]


def test_a_deep_outline_is_cut_at_max_depth(tmp_path: Path) -> None:
    items = tree([(f"Level {n}", n, 0, 735) for n in range(1, 31)])
    entries = outline_of(write_raw_pdf(tmp_path / "deep.pdf", simple_pages(1), items))
    assert [e.level for e in entries] == list(range(1, MAX_DEPTH + 1))


def test_ten_thousand_entries_give_a_bounded_result(tmp_path: Path) -> None:
    # long titles, near the length of the printed lines: each one unmatched goes through near-equal comparison
    items = tree([(f"Entry {n} of an outline far longer than any document", 1 + n % 3, n % 3, 700 - n % 50)
                  for n in range(10_000)])
    path = write_raw_pdf(tmp_path / "huge.pdf", simple_pages(3), items)
    assert len(outline_of(path)) == MAX_ENTRIES
    doc = load_file(path, **LIMITS)  # its time is not asserted: timings flake on a shared machine
    assert doc.metadata["outline_entries"] == MAX_ENTRIES
    assert doc.metadata["outline_headings_found"] <= 3  # only what is printed can be found
    assert [page.text.count("Section") for page in doc.pages] == [1, 1, 1]


# --- finding the titles on their pages ------------------------------------------------------------------------


def test_outline_titles_are_found_despite_numbering_case_and_line_breaks(tmp_path: Path) -> None:
    pages = [
        [Text("1 INTRODUCTION", 720, "B", 14), *body_lines(690, BODY)],
        [Text("1.1 Deployed Variations of the", 720, "B", 12), Text("Abstract Architecture", 704, "B", 12),
         *body_lines(680, BODY)],
        [Text("1.2 Registrant's Common Equity", 720, "B", 12), *body_lines(706, BODY)],  # no gap before its text
    ]
    items = tree([("Introduction", 1, 0, 735), ("1.1 Deployed Variations of the Abstract Architecture", 2, 1, 735),
                  ("1.2 Registrant’s Comon Equity", 2, 2, 735)])  # curly quote and a typo in the outline
    doc = load_file(write_raw_pdf(tmp_path / "match.pdf", pages, items), **LIMITS)
    assert headings(doc) == [(1, 1, "1 INTRODUCTION"),
                             (2, 2, "1.1 Deployed Variations of the Abstract Architecture"),
                             (3, 2, "1.2 Registrant's Common Equity")]
    assert doc.metadata["outline_headings_found"] == 3
    assert doc.pages[2].text.startswith("1.2 Registrant's Common Equity\n\nThe body of this section")


def test_the_title_as_printed_wins_over_a_line_equal_in_letters_only(tmp_path: Path) -> None:
    pages = [[Text("Gross margin:", 720), *body_lines(700, BODY), Text("Gross Margin", 640, "B"),
              *body_lines(620, BODY)]]
    doc = load_file(write_raw_pdf(tmp_path / "printed.pdf", pages, tree([("Gross Margin", 1, 0, 735)])), **LIMITS)
    assert headings(doc) == [(1, 1, "Gross Margin")]


def test_a_title_missing_from_its_page_is_looked_for_on_the_next(tmp_path: Path) -> None:
    pages = [[*body_lines(720, BODY)], [Text("Results", 720, "B", 14), *body_lines(690, BODY)]]
    doc = load_file(write_raw_pdf(tmp_path / "next.pdf", pages, tree([("Results", 1, 0, 100)])), **LIMITS)
    assert headings(doc) == [(2, 1, "Results")]


@pytest.mark.parametrize("level", [1, 2])
def test_numbered_headings_the_outline_lacks_sit_beside_their_outlined_siblings(tmp_path: Path, level: int) -> None:
    """Under a title entry every outline level is one deeper than the numbering says; a numbered heading found
    by its layout is shifted alike."""
    pages = [[Text("2 Basics", 720, "B", 14), *body_lines(690, BODY), Text("2.1 Tenets", 620, "B", 12),
              *body_lines(600, BODY), Text("2.2 Views", 540, "B", 12), *body_lines(520, BODY)]]
    entries = [("2 Basics", level, 0, 735), ("2.1 Tenets", level + 1, 0, 635)]
    if level == 2:
        entries.insert(0, ("The Report", 1, 0, 790))
    doc = load_file(write_raw_pdf(tmp_path / "shift.pdf", pages, tree(entries)), **LIMITS)
    assert headings(doc) == [(1, level, "2 Basics"), (1, level + 1, "2.1 Tenets"), (1, level + 1, "2.2 Views")]
