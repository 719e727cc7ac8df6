"""Tables kept as tables in 10-K filings (issue 21): what the PDF loader finds, and whether a known row reads
label, year and value together.

Per PDF: tables found, rows, rows with a label and at least one value, rows whose every value has a column
header, tables with a unit, and known cells (read by hand from the pages' text) checked in the product string
`Table.row_text(row)`: the row's label, then "<header with the year>: <value>" in the same row. Also the load
time with and without table detection (best of 3, interleaved, in this one run).

If pdfplumber is importable (it is not a dependency: `pip install --target DIR pdfplumber==0.11.10
pdfminer.six==20260107` and run with PYTHONPATH=DIR), the same numbers are printed for (a) pdfplumber's word
boxes fed to the same detector and (b) pdfplumber's own `extract_tables` (text strategy; first cells are the
label, the nearest row of years above the first value row names the columns).

    python bench/table_extraction.py

Measured on the shared 2-core machine (load average 2.6):

| | Apple 10-K (80 pages) | Oracle 10-K (131 pages) |
|---|---|---|
| tables / rows | 46 / 435 | 66 / 658 |
| rows with a label and a value | 373 | 599 |
| rows whose every value has a column header | 337 | 445 |
| tables with a unit | 39 | 59 |
| known cells, product (pypdfium2 word boxes) | 15/15 | 17/17 |
| known cells, pdfplumber word boxes, same detector | 15/15 (8.3 s) | 14/17 (23.2 s) |
| known cells, pdfplumber extract_tables (text strategy) | 0/15 (13.8 s) | 0/17 (32.2 s) |
| detection time, product | 1.05 s | 2.49 s |
| load with / without tables (CPU, 4 runs) | 1.08 - 1.13 | 1.01 - 1.11 |

pypdfium2's boxes win: pdfplumber's lose the "ti" ligature ("Effec ve Interest"), glue footnote markers to
labels and miss a wrapped label, at 8-9 times the time; its own table finder splits words across cells.
Section lines: repeated labels in a table 50 / 65 as printed, 9 / 30 when the repeated ones take their section
(the loader's choice, +3.5% / +1.8% table text), the same 9 / 30 when every row does (+12% / +10%).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.loaders.document import Table, TableRow  # noqa: E402
from memory_bank.loaders.pdf import load_pdf  # noqa: E402
from memory_bank.loaders.pdf_layout import Box, Line, Word  # noqa: E402
from memory_bank.loaders.pdf_margins import PageLines, strip_running_lines  # noqa: E402
from memory_bank.loaders.pdf_table_cells import is_value  # noqa: E402
from memory_bank.loaders.pdf_table_headers import read_unit  # noqa: E402
from memory_bank.loaders.pdf_tables import find_tables  # noqa: E402

PDF_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdf"
PAYMENTS_PPE = "Payments for acquisition of property, plant and equipment"
APPLE_STOCK = ("Common stock and additional paid-in capital, $0.00001 par value: 50,400,000 shares authorized; "
               "15,943,425 and 16,426,786 shares issued and outstanding, respectively")
AMERICAS = "Total Revenues by Geography: Americas"  # "Americas" repeats in its table: its section prefixes it
ORACLE_RECEIVABLES = ("Trade receivables, net of allowances for credit losses of $428 and $362 as of May 31, 2023 "
                      "and May 31, 2022, respectively")
# (page, row label, year in the column header, value as printed): read from each page's pdfium text by hand
Known = tuple[tuple[int, str, str, str], ...]
KNOWN: tuple[tuple[str, Known], ...] = (
    ("APPLE_2022_10K.pdf", (
        (36, PAYMENTS_PPE, "2022", "(10,708)"), (36, PAYMENTS_PPE, "2021", "(11,085)"),
        (36, PAYMENTS_PPE, "2020", "(7,309)"), (36, "Repurchases of common stock", "2021", "(85,971)"),
        (32, "Total net sales", "2022", "394,328"), (32, "Total net sales", "2021", "365,817"),
        (32, "Total net sales", "2020", "274,515"), (32, "Research and development", "2022", "26,251"),
        (34, "Total assets", "2022", "$352,755"), (34, "Total assets", "2021", "$351,002"),
        (34, APPLE_STOCK, "2022", "64,849"), (24, "Mac (1)", "2021", "35,190"),
        (24, "iPhone (1)", "2022", "$205,489"), (41, "Corporate debt securities", "2022", "87,148"),
        (48, "Floating-rate notes", "2021", "$1,750"),
    )),
    ("ORACLE_2023_10K.pdf", (
        (70, "Capital expenditures", "2023", "(8,695)"), (70, "Capital expenditures", "2022", "(4,511)"),
        (70, "Capital expenditures", "2021", "(2,135)"),
        (70, "Payments of dividends to stockholders", "2021", "(3,063)"),
        (67, "Total revenues", "2023", "49,954"), (67, "Total revenues", "2022", "42,440"),
        (67, "Total revenues", "2021", "40,479"), (67, "Research and development", "2023", "8,623"),
        (66, "Total assets", "2023", "$134,384"), (66, "Total assets", "2022", "$109,297"),
        (45, AMERICAS, "2023", "$31,226"), (45, AMERICAS, "2022", "$23,679"),
        (66, ORACLE_RECEIVABLES, "2023", "6,915"), (106, "United States", "2023", "$27,535"),
        (106, "United States", "2022", "$10,300"), (91, "Cloud and license", "2023", "$(218)"),
        (87, "$2,500, 6.90%, due November 2052", "2023", "2,500"),
    )),
)

PageTables = dict[int, list[Table]]


def product_tables(path: Path) -> PageTables:
    doc = load_pdf(path, path.name)
    return {page.number: [b.table for b in page.blocks if b.table is not None] for page in doc.pages}


def load_times(path: Path, runs: int = 3) -> dict[bool, tuple[float, float]]:
    """Best wall and CPU time of `load_pdf` without (False) and with (True) table detection, runs interleaved:
    the machine is shared, so CPU time says more than wall time."""
    times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(runs):
        for tables in (False, True):
            wall, cpu = time.perf_counter(), time.process_time()
            load_pdf(path, path.name, tables=tables)
            times[tables].append((time.perf_counter() - wall, time.process_time() - cpu))
    return {key: (min(w for w, _ in found), min(c for _, c in found)) for key, found in times.items()}


def stats(tables: PageTables) -> dict[str, int]:
    all_tables = [t for found in tables.values() for t in found]
    rows = [(t, r) for t in all_tables for r in t.rows]
    valued = [(t, r) for t, r in rows if r.label and any(r.cells)]
    headed = [(t, r) for t, r in rows if any(r.cells)
              and all(column for column, cell in zip(t.columns, r.cells) if cell)]
    return {"tables": len(all_tables), "rows": len(rows), "label+value rows": len(valued),
            "rows with headed values": len(headed), "tables with unit": sum(1 for t in all_tables if t.unit)}


def sections_measure(tables: PageTables) -> str:
    """Section lines ("Investing activities:") kept as rows of their own, with labels as printed; or also
    prefixed to every row under them; or (the loader's choice) prefixed only to the labels that repeat in
    their table. Measured: value rows whose label repeats in its table, and the tables' text size."""
    repeated = [0, 0, 0]  # as printed, all prefixed, loader
    chars = [0, 0, 0]
    for table in (t for found in tables.values() for t in found):
        section, variants = "", ([], [], [])
        for row in table.rows:
            if row.label and not any(row.cells):
                section = row.label
                continue
            printed = row.label.removeprefix(f"{section} ") if section else row.label
            for variant, label in zip(variants, (printed, f"{section} {printed}".strip(), row.label)):
                variant.append(label)
        size = len(table.text())
        for k, labels in enumerate(variants):
            repeated[k] += len(labels) - len(set(labels))
            chars[k] += size + sum(len(label) for label in labels) - sum(len(label) for label in variants[2])
    return (f"repeated labels {repeated[0]} as printed, {repeated[1]} all prefixed, {repeated[2]} repeated ones "
            f"prefixed (loader); table text {chars[0]:,} / {chars[1]:,} / {chars[2]:,} chars")


def reads(text: str, label: str, year: str, value: str) -> bool:
    """The row text starts with the label and holds "<header with the year>: <value>" as one of its cells."""
    cell = rf"(?:^|\| )[^|]*\b{year}\b[^|]*: {re.escape(value)}(?: \||$| \()"
    return text.startswith(f"{label} | ") and re.search(cell, text) is not None


def check(tables: PageTables, known: Known) -> list[str]:
    misses = []
    for page, label, year, value in known:
        texts = [t.row_text(r) for t in tables.get(page, []) for r in t.rows]
        if not any(reads(text, label, year, value) for text in texts):
            near = next((text for text in texts if text.startswith(label)), "(no row with this label)")
            misses.append(f"p{page} {label[:40]!r} {year}={value}: {near[:160]}")
    return misses


def report(name: str, tables: PageTables, known: Known, seconds: float) -> None:
    misses = check(tables, known)
    numbers = "  ".join(f"{key}={value}" for key, value in stats(tables).items())
    print(f"  {name}: {numbers}  known cells={len(known) - len(misses)}/{len(known)}  time={seconds:.2f}s")
    for miss in misses:
        print(f"      miss {miss}")


# --- pdfplumber, for comparison only ----------------------------------------------------------------------------


def plumber_lines(page) -> PageLines:  # noqa: ANN001
    """pdfplumber's text lines as the loader's Lines (PDF coordinates, y up), each with the words inside it."""
    height = float(page.height)
    found = page.extract_text_lines(return_chars=False)
    words: list[list[Word]] = [[] for _ in found]
    for word in page.extract_words():
        middle, center = (word["top"] + word["bottom"]) / 2, (word["x0"] + word["x1"]) / 2
        for index, line in enumerate(found):
            if line["top"] <= middle <= line["bottom"] and line["x0"] <= center <= line["x1"]:
                words[index].append(Word(word["text"], Box(word["x0"], height - word["bottom"], word["x1"],
                                                           height - word["top"])))
                break
    lines = [Line(line["text"], Box(line["x0"], height - line["bottom"], line["x1"], height - line["top"]),
                  tuple(sorted(ws, key=lambda w: w.box.left)))
             for line, ws in zip(found, words)]
    return PageLines(lines, Box(0, 0, float(page.width), height))


def plumber_detector(path: Path) -> PageTables:
    import pdfplumber

    with pdfplumber.open(str(path)) as pdf:
        pages = [plumber_lines(page) for page in pdf.pages]
    kept, _ = strip_running_lines(pages)
    return {number: [t for _, _, t in find_tables(lines)] for number, lines in enumerate(kept, start=1)}


def plumber_own(path: Path) -> PageTables:
    import pdfplumber

    out: PageTables = {}
    settings = {"vertical_strategy": "text", "horizontal_strategy": "text"}
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            unit = read_unit([page.extract_text() or ""])
            out[number] = [t for grid in page.extract_tables(settings) if (t := _grid_table(grid, unit))]
    return out


def _grid_table(grid: list[list[str | None]], unit: str) -> Table | None:
    """A pdfplumber grid as a Table: leading text cells are the label (pieces joined as split), value cells
    keep their grid column, named by the nearest row of years above the first value row."""
    cells = [[(c or "").strip() for c in row] for row in grid]
    width = max((len(row) for row in cells), default=0)
    rows, header = [], [""] * width
    for row in cells:
        values = [i for i, c in enumerate(row) if is_value(c) and c != "$"]
        label_end = values[0] if values else len(row)
        label = "".join(row[:label_end]).strip()
        if values and all(re.fullmatch(r"(?:19|20)\d\d", row[i]) for i in values) and not rows:
            header = [re.sub(r"\s+", " ", c) for c in row] + [""] * (width - len(row))
            continue
        if label or values:
            padded = [c if i in values else "" for i, c in enumerate(row)] + [""] * (width - len(row))
            rows.append(TableRow(label, tuple(padded)))
    if sum(1 for r in rows if any(r.cells)) < 2:
        return None
    return Table("", tuple(header), tuple(rows), unit)


def main() -> None:
    try:
        import pdfplumber  # noqa: F401
        plumber = True
    except ImportError:
        plumber = False
        print("pdfplumber not importable: only the product (pypdfium2 word boxes) is measured")
    for name, known in KNOWN:
        path = PDF_DIR / name
        if not path.is_file():
            print(f"{name}: missing ({path})")
            continue
        times = load_times(path)
        (wall0, cpu0), (wall1, cpu1) = times[False], times[True]
        print(f"{name}: load without tables {wall0:.2f}s wall / {cpu0:.2f}s CPU, with tables {wall1:.2f}s / "
              f"{cpu1:.2f}s (ratio {wall1 / wall0:.2f} wall, {cpu1 / cpu0:.2f} CPU)")
        methods: list[tuple[str, Callable[[Path], PageTables]]] = [("pypdfium2 + detector (product)", product_tables)]
        if plumber:
            methods += [("pdfplumber words + detector", plumber_detector),
                        ("pdfplumber extract_tables(text)", plumber_own)]
        for label, method in methods:
            t0 = time.perf_counter()
            tables = method(path)
            report(label, tables, known, time.perf_counter() - t0)
            if method is product_tables:
                print(f"      section lines: {sections_measure(tables)}")


if __name__ == "__main__":
    main()
