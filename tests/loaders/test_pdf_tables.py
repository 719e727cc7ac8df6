from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.loaders import load_file
from memory_bank.loaders.document import Table
from memory_bank.loaders.pdf_layout import Box, Line, Word, page_metrics
from memory_bank.loaders.pdf_table_headers import MAX_CAPTION_LINES, MAX_HEADER_LINES
from memory_bank.loaders.pdf_tables import MAX_COLUMNS, MAX_ROWS, find_tables
from memory_bank.loaders.pdf_value_pairs import find_pair_tables

from .pdf_factory import write_statement_pdf

LIMITS = {"max_bytes": 50_000_000, "max_image_pixels": 10_000_000}
PDF_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "pdf"


def load(path: Path):
    return load_file(path, **LIMITS)


def shared_pdf(name: str) -> Path:
    path = PDF_DIR / name
    if not path.is_file():
        pytest.skip(f"shared data missing: {path}")
    return path


def tables_on(doc, number: int) -> list[Table]:
    page = next(page for page in doc.pages if page.number == number)
    return [block.table for block in page.blocks if block.table is not None]


def row_text(tables: list[Table], label: str) -> str:
    return next(table.row_text(row) for table in tables for row in table.rows if row.label == label)


# --- the real 10-K filings ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def apple():
    return load(shared_pdf("APPLE_2022_10K.pdf"))


@pytest.fixture(scope="module")
def oracle():
    return load(shared_pdf("ORACLE_2023_10K.pdf"))


def test_apple_cash_flow_row_reads_label_year_value_and_unit(apple) -> None:
    tables = tables_on(apple, 36)
    assert [t.caption for t in tables] == ["CONSOLIDATED STATEMENTS OF CASH FLOWS Years ended"]
    assert row_text(tables, "Payments for acquisition of property, plant and equipment") == (
        "Payments for acquisition of property, plant and equipment | September 24, 2022: (10,708)"
        " | September 25, 2021: (11,085) | September 26, 2020: (7,309) (millions)")
    # a section line is a row of its own, in place, and names the rows whose label repeats in the table
    labels = [row.label for row in tables[0].rows]
    assert labels.index("Investing activities:") < labels.index("Purchases of marketable securities")
    assert row_text(tables, "Investing activities: Other").startswith(
        "Investing activities: Other | September 24, 2022: (1,780) |")
    assert "Other" not in labels


def test_apple_page_text_is_its_blocks_and_keeps_the_prose(apple) -> None:
    page = next(page for page in apple.pages if page.number == 36)
    # the statement's title is a heading of its own (the outline names it) and stays the table's caption
    assert [block.kind for block in page.blocks] == ["paragraph", "heading", "table", "paragraph"]
    assert page.blocks[1].text == "CONSOLIDATED STATEMENTS OF CASH FLOWS"
    assert page.blocks[2].table.caption.startswith(page.blocks[1].text)
    assert page.text == "\n\n".join(block.text for block in page.blocks)
    assert page.text.endswith("See accompanying Notes to Consolidated Financial Statements.")


def test_apple_wrapped_label_is_one_row(apple) -> None:
    text = row_text(tables_on(apple, 34), "Common stock and additional paid-in capital, $0.00001 par value: "
                    "50,400,000 shares authorized; 15,943,425 and 16,426,786 shares issued and outstanding, "
                    "respectively")
    assert "September 24, 2022: 64,849 | September 25, 2021: 57,365" in text


def test_apple_income_statement_unit_keeps_its_exceptions(apple) -> None:
    statement, = tables_on(apple, 32)
    assert statement.unit.startswith("millions, except number of shares")
    assert "September 24, 2022: 394,328" in row_text([statement], "Total net sales")


def test_oracle_cash_flow_row_and_running_header_dropped(oracle) -> None:
    tables = tables_on(oracle, 70)
    assert row_text(tables, "Capital expenditures") == (
        "Capital expenditures | 2023: (8,695) | 2022: (4,511) | 2021: (2,135) (millions)")
    page = next(page for page in oracle.pages if page.number == 70)
    assert not page.text.startswith("Table of Contents")
    assert "Index to Financial Statements" not in page.text


def test_oracle_headers_spanning_some_columns_prefix_them(oracle) -> None:
    """ "2023" is centred over Revenues and Long-Lived Assets, "2022" over the next two."""
    geography = next(t for t in tables_on(oracle, 106) if "2023 Revenues" in t.columns)
    assert geography.columns[:4] == ("2023 Revenues", "2023 Long-Lived Assets", "2022 Revenues",
                                     "2022 Long-Lived Assets")


def test_oracle_headcount_pairs_are_rows_of_their_own_labels(oracle) -> None:
    """The workforce figures are set two pairs a line, each a number then what it counts ("35,000 Sales and
    marketing 47,000 Research and development"): read as label-then-values rows, the first label held the second
    number and "Research and development" had no row."""
    workforce, = [t for t in tables_on(oracle, 15) if t.caption]
    assert workforce.caption == "Our approximate employee counts by lines of business are:"
    assert [(row.label, row.cells) for row in workforce.rows] == [
        ("Cloud services and license support operations", ("27,000",)), ("Services", ("39,000",)),
        ("Sales and marketing", ("35,000",)), ("Research and development", ("47,000",)),
        ("Hardware", ("3,000",)), ("General and administrative", ("13,000",))]
    assert row_text([workforce], "Research and development") == (
        "Research and development | approximate employee counts: 47,000")
    page = next(page for page in oracle.pages if page.number == 15)
    assert "The average tenure of our employees is approximately eight years" in page.text  # the prose stays


def test_prose_pages_have_no_table(apple) -> None:
    risk_factors = [page for page in apple.pages if page.number in range(5, 18)]
    assert risk_factors and not any(block.kind == "table" for page in risk_factors for block in page.blocks)


# --- a statement drawn here -------------------------------------------------------------------------------------


def test_drawn_statement_rows_headers_unit_and_wrapped_label(tmp_path: Path) -> None:
    doc = load(write_statement_pdf(tmp_path / "statement.pdf"))
    page, = doc.pages
    assert [block.kind for block in page.blocks] == ["paragraph", "heading", "table", "paragraph"]
    table = page.blocks[2].table
    assert table.caption == "CONSOLIDATED STATEMENTS OF CASH FLOWS"
    assert table.columns == ("September 24, 2022", "September 25, 2021")
    assert table.unit == "millions"
    assert [table.row_text(row) for row in table.rows] == [
        "Operating activities:",
        "Net income | September 24, 2022: $99,803 | September 25, 2021: $94,680 (millions)",
        "Depreciation and amortization | September 24, 2022: 11,104 | September 25, 2021: 11,284 (millions)",
        "Investing activities:",
        "Purchases of marketable securities | September 24, 2022: (76,923) | September 25, 2021: (109,558)"
        " (millions)",
        "Proceeds from sales and maturities of marketable securities and other investments"
        " | September 24, 2022: 37,446 | September 25, 2021: 47,460 (millions)",
        "Payments for acquisition of property, plant and equipment | September 24, 2022: (10,708)"
        " | September 25, 2021: (11,085) (millions)",
        "Cash used in investing activities | September 24, 2022: $(22,354) | September 25, 2021: $(14,545)"
        " (millions)",
    ]
    assert page.text.startswith("The statement below is drawn the way annual reports print it.\n\n")
    assert page.text.endswith("\n\nSee accompanying notes.")


# --- lines made here: bounds ------------------------------------------------------------------------------------


def line(words: list[tuple[str, float]], top: float) -> Line:
    """A line of words at the given left edges, 5 points a character, 10 points high."""
    boxes = tuple(Word(text, Box(left, top - 10, left + 5 * len(text), top)) for text, left in words)
    return Line(" ".join(text for text, _ in words), Box(boxes[0].box.left, top - 10, boxes[-1].box.right, top),
                words=boxes)


def value_row(label: str, values: list[str], top: float, step: float = 60) -> Line:
    return line([(label, 72), *((value, 300 + step * i) for i, value in enumerate(values))], top)


def test_a_row_of_numbers_in_prose_is_not_a_table() -> None:
    lines = [line([("Revenue grew to 1,234 in fiscal 2022 and to 2,345 in fiscal 2023.", 72)], 700),
             value_row("Total", ["1,234"], 686)]
    assert find_tables(lines) == []


def pair_line(pairs: list[tuple[str, str]], top: float) -> Line:
    """Pairs set in columns 250 points apart: each number right-aligned to its column, its label after a gap."""
    words: list[tuple[str, float]] = []
    for i, (value, label) in enumerate(pairs):
        words.append((value, 72 + 250 * i + 40 - 5 * len(value)))
        left = 72 + 250 * i + 60
        for word in label.split():
            words.append((word, left))
            left += 5 * len(word) + 4
    return line(words, top)


def test_value_label_pairs_make_a_table_captioned_by_the_sentence_announcing_them() -> None:
    lines = [line([("Our stores by region are:", 72)], 714),
             pair_line([("1,200", "North America"), ("310", "Europe")], 700),
             pair_line([("85", "Asia Pacific"), ("12", "Latin America")], 686),
             line([("Most stores are leased.", 72)], 672)]
    (first, last, table), = find_tables(lines)
    assert (first, last) == (1, 2)
    assert table.columns == ("stores",)
    assert [table.row_text(row) for row in table.rows] == [
        "North America | stores: 1,200", "Europe | stores: 310", "Asia Pacific | stores: 85",
        "Latin America | stores: 12"]


def test_pairs_that_do_not_line_up_or_stand_alone_are_no_table() -> None:
    """One line of pairs is a sentence's figures as often as a table; pairs whose numbers are not aligned line to
    line are no grid; a line opening with a number followed by prose is prose."""
    alone = [pair_line([("1,200", "North America"), ("310", "Europe")], 700)]
    shifted = [pair_line([("1,200", "North America"), ("310", "Europe")], 700),
               pair_line([("85", "Asia Pacific"), ("12", "Latin America")], 686)]
    shifted[1] = Line(shifted[1].text, shifted[1].box, words=tuple(
        Word(w.text, Box(w.box.left + 30, w.box.bottom, w.box.right + 30, w.box.top)) for w in shifted[1].words))
    prose = [line([("2,000 customers attended the event in Paris last year.", 72)], 700),
             line([("3,500 more joined the online sessions that followed it.", 72)], 686)]
    metrics = page_metrics(alone + prose)
    assert metrics is not None
    assert find_pair_tables(alone, metrics) == [] and find_pair_tables(shifted, metrics) == []
    assert find_tables(prose) == []


def test_a_page_of_thousands_of_pairs_is_cut_into_bounded_tables() -> None:
    lines = [pair_line([(f"{i:,}", "North America"), ("310", "Europe")], 100_000 - 14 * i) for i in range(5_000)]
    found = find_tables(lines)
    assert all(len(table.rows) <= MAX_ROWS for _, _, table in found)
    assert sum(len(table.rows) for _, _, table in found) == 10_000


def test_five_hundred_columns_are_left_as_text_quickly() -> None:
    lines = [value_row(f"Row {i}", [f"{i * 500 + j:,}" for j in range(500)], 700 - 14 * i, step=40)
             for i in range(5)]
    assert find_tables(lines) == []
    fits = [value_row(f"Row {i}", [str(j) for j in range(MAX_COLUMNS)], 700 - 14 * i, step=40) for i in range(3)]
    (_, _, table), = find_tables(fits)
    assert len(table.columns) == MAX_COLUMNS


def test_many_rows_are_cut_into_bounded_tables_quickly() -> None:
    count = 5_000
    lines = [value_row(f"Item {i}", ["1,234", "(5,678)"], 100_000 - 14 * i) for i in range(count)]
    found = find_tables(lines)
    assert all(len(table.rows) <= MAX_ROWS for _, _, table in found)
    assert sum(len(table.rows) for _, _, table in found) == count
    assert found[0][2].row_text(found[0][2].rows[0]) == "Item 0 | 1,234 | (5,678)"


def test_header_lines_of_many_pieces_are_bounded() -> None:
    """A line of 1,000 pieces is no header; 60 lines of 20 are read, at most MAX_HEADER_LINES of them."""
    wide = [line([(f"h{j}", 282 + 15 * j) for j in range(1_000)], 1_600)]
    many = [line([(f"h{j}", 282 + 25 * j) for j in range(20)], 1_500 - 12 * k) for k in range(60)]
    rows = [value_row(f"Row {i}", ["1,234", "5,678"], 700 - 14 * i) for i in range(3)]
    (first, last, table), = find_tables(wide + many + rows)
    assert last == len(wide) + len(many) + 2 and len(table.rows) == 3
    assert first >= len(wide) + len(many) - MAX_HEADER_LINES - MAX_CAPTION_LINES
