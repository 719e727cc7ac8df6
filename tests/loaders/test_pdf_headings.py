"""Headings read from a PDF's layout when its outline does not list them: by size, weight, slant, numbering."""

from __future__ import annotations

from pathlib import Path

from memory_bank.loaders import load_file
from memory_bank.loaders.document import Block, Table, TableRow
from memory_bank.loaders.pdf_fonts import Font
from memory_bank.loaders.pdf_headings import MAX_PER_PAGE, MAX_RUN, page_blocks
from memory_bank.loaders.pdf_layout import Box, Line
from memory_bank.loaders.pdf_outline import OutlineEntry

from .pdf_raw import Text, body_lines, write_raw_pdf

LIMITS = {"max_bytes": 50_000_000, "max_image_pixels": 10_000_000}
BODY = ["Body text of the section, long enough to set the body style of the whole document: most",
        "of a page is body text, printed at one leading, so that the gap above a heading or between",
        "two paragraphs stands out from the gap between two lines of one paragraph, which is what",
        "tells the loader where a paragraph ends; this one ends here with a full stop."]


def load(tmp_path: Path, pages: list[list[Text]]):
    return load_file(write_raw_pdf(tmp_path / "doc.pdf", pages), **LIMITS)


def headings(doc) -> list[tuple[int | None, str]]:
    return [(block.level, block.text) for page in doc.pages for block in page.blocks if block.kind == "heading"]


def stacked(entries: list[tuple[str, str, float]], top: float = 700) -> list[Text]:
    """Each (text, font, size) followed by a body paragraph, top to bottom."""
    out, y = [], top
    for text, font, size in entries:
        out.append(Text(text, y, font, size))
        out.extend(body_lines(y - 24, BODY))
        y -= 100
    return out


def test_levels_follow_numbering_then_prominence(tmp_path: Path) -> None:
    doc = load(tmp_path, [
        stacked([("PART I", "B", 11), ("Item 1. Business", "B", 11), ("Company Background", "B", 11),
                 ("Products", "BI", 11), ("Services", "BI", 11)]),
        stacked([("Competition", "B", 11), ("Item 1A. Risk Factors", "B", 11), ("PART II", "B", 11)]),
    ])
    assert headings(doc) == [(1, "PART I"), (2, "Item 1. Business"), (3, "Company Background"), (4, "Products"),
                             (4, "Services"), (3, "Competition"), (2, "Item 1A. Risk Factors"), (1, "PART II")]
    assert doc.metadata["layout_headings"] == 8
    assert doc.metadata["outline_entries"] == 0


def test_larger_type_and_deep_numbering_make_headings(tmp_path: Path) -> None:
    doc = load(tmp_path, [stacked([("Zero Trust Architecture", "R", 18), ("Logical Components", "R", 14),
                                   ("3.2.1 Device Agent Deployment", "R", 11), ("RISK FACTORS", "R", 11)])])
    assert headings(doc) == [(1, "Zero Trust Architecture"), (2, "Logical Components"),
                             (3, "3.2.1 Device Agent Deployment"), (4, "RISK FACTORS")]  # unnumbered: nests


def test_a_heading_set_close_above_its_text_is_cut_from_it(tmp_path: Path) -> None:
    page = [Text("Gross Margin", 700, "B"), *body_lines(686, BODY), Text("Products Gross Margin", 600, "I"),
            *body_lines(586, BODY)]
    doc = load(tmp_path, [page])
    assert headings(doc) == [(1, "Gross Margin"), (2, "Products Gross Margin")]
    assert doc.pages[0].text.split("\n\n") == ["Gross Margin", " ".join(BODY), "Products Gross Margin",
                                               " ".join(BODY)]


def test_headings_stacked_in_one_paragraph_are_cut_at_their_numbers(tmp_path: Path) -> None:
    page = [Text("PART III", 700, "B"), Text("Item 10. Directors and Officers", 686, "B"), *body_lines(660, BODY)]
    assert headings(load(tmp_path, [page])) == [(1, "PART III"), (2, "Item 10. Directors and Officers")]


def test_sentences_captions_table_rows_and_small_print_are_not_headings(tmp_path: Path) -> None:
    page = [
        *body_lines(740, BODY),
        Text("This bold line is a sentence.", 660, "B"),
        Text("Figure 3: Device Agent Model", 630, "B"),
        Text("2022 Change 2021 Change 2020", 600, "B"),
        Text("Gross margin:", 570, "B"),
        Text("Small Print Label", 540, "B", 7),
        Text("2.1 the plain numbered line that reads like a sentence. It goes on 3 4 5", 510),
        *body_lines(480, BODY + BODY),
    ]
    assert headings(load(tmp_path, [page])) == []


def piece(text: str, bold: bool = False, size: float = 11) -> list[Line]:
    return [Line(text, Box(72, 0, 540, size), Font(size, bold, False))]


def body_piece() -> list[Line]:
    return [Line(line, Box(72, 0, 540, 11), Font(11, False, False)) for line in BODY]


def test_a_page_of_bold_lines_does_not_become_all_headings() -> None:
    """Runs longer than MAX_RUN with no text between, and pages with more than MAX_PER_PAGE, keep none."""
    every_line = [body_piece(), *[piece(f"Bold Line {n}", bold=True) for n in range(MAX_PER_PAGE + 1)]]
    spread = [x for n in range(MAX_PER_PAGE + 1) for x in (piece(f"Spread {n}", bold=True), body_piece())]
    run = [body_piece(), *[piece(f"Label {n}", bold=True) for n in range(MAX_RUN + 1)], body_piece()]
    short_run = [body_piece(), *[piece(f"Label {n}", bold=True) for n in range(MAX_RUN)], body_piece()]
    pages, counts = page_blocks([every_line, spread, run, short_run], [])
    assert [sum(block.kind == "heading" for block in page) for page in pages] == [0, 0, 0, MAX_RUN]
    assert counts.layout == MAX_RUN
    assert [block.text for block in pages[0][1:3]] == ["Bold Line 0", "Bold Line 1"]  # kept, as paragraphs


def test_a_page_set_all_in_bold_reads_as_one_paragraph(tmp_path: Path) -> None:
    page = [Text(f"Bold Line Number {chr(65 + n)}", 740 - n * 30, "B") for n in range(20)]
    assert headings(load(tmp_path, [page])) == []


def test_a_title_repeated_on_many_pages_is_a_label_not_a_section(tmp_path: Path) -> None:
    pages = [stacked([("Incorporated by Reference", "B", 11), (f"Exhibit Group {n}", "B", 11)], top=600)
             for n in range(5)]
    assert [text for _, text in headings(load(tmp_path, pages))] == [f"Exhibit Group {n}" for n in range(5)]


def test_page_text_is_its_blocks_and_running_headers_still_go(tmp_path: Path) -> None:
    pages = [[Text("ACME QUARTERLY REPORT", 760, "B", 9), *stacked([(f"Chapter {n}", "B", 14)])] for n in "ABC"]
    doc = load(tmp_path, pages)
    assert doc.metadata["running_lines_removed"] == 3
    for page in doc.pages:
        assert page.text == "\n\n".join(block.text for block in page.blocks)
        assert "ACME" not in page.text
    assert headings(doc) == [(1, "Chapter A"), (1, "Chapter B"), (1, "Chapter C")]


def test_table_blocks_pass_through_in_place() -> None:
    """The seam for a table reader: a typed block among the line groups stays where it is, as it is."""
    table = Block("Revenue | 2023: 5", "table", table=Table("", ("2023",), (TableRow("Revenue", ("5",)),)))
    outline = [OutlineEntry("Results Overview", 1, 0)]
    pages, _ = page_blocks([[piece("Results", bold=True), table, piece("Overview", bold=True), body_piece()]],
                           outline)
    assert [(block.kind, block.text) for block in pages[0]] == [
        ("heading", "Results"), ("table", "Revenue | 2023: 5"), ("heading", "Overview"),
        ("paragraph", " ".join(BODY))]
    assert pages[0][1] is table
