"""PDF headings (issue 21): what the loader finds in the three real PDFs, and what it costs.

Per PDF: headings found (from the outline and from the layout), outline entries matched to a printed line,
the top of the section tree `StructureBuilder` builds from the loaded document, and the load time with headings
against the loader as it was before them (paragraphs only: no font sampling, no outline, no heading pass),
both measured in this run, alternating, best of `--runs`. CPU time of the process is the figure compared: the
machine is shared, and wall time says more about the neighbours than about the code.

    python bench/pdf_headings.py
    python bench/pdf_headings.py --runs 7 --depth 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank.loaders import load_file  # noqa: E402
from memory_bank.loaders.document import Page  # noqa: E402
from memory_bank.loaders.pdf import _PDFIUM_LOCK, _open, _page_chars, word_boxes  # noqa: E402
from memory_bank.loaders.pdf_layout import (  # noqa: E402
    Box,
    paragraphs,
    resolve_soft_hyphens,
    split_lines,
    vocabulary,
)
from memory_bank.loaders.pdf_margins import PageLines, strip_running_lines  # noqa: E402
from memory_bank.loaders.pdf_page_labels import pdf_page_labels, printed_page_numbers  # noqa: E402
from memory_bank.structure.build import StructureBuilder  # noqa: E402

PDF_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdf"
PDFS = ("NIST.SP.800-207.pdf", "APPLE_2022_10K.pdf", "ORACLE_2023_10K.pdf")
LIMITS = {"max_bytes": 100_000_000, "max_image_pixels": 10_000_000}


def load_plain(path: Path) -> list[Page]:
    """The PDF loader before headings: the same page reading, running-line stripping and paragraphs, no fonts."""
    with _PDFIUM_LOCK:
        document = _open(path, path.name)
        try:
            raw = []
            for index in range(len(document)):
                page = document[index]
                textpage = page.get_textpage()
                chars = _page_chars(textpage)
                raw.append(PageLines(split_lines(chars, word_boxes(textpage, chars)), Box(*page.get_bbox())))
                textpage.close()
                page.close()
            labels = pdf_page_labels(document)
        finally:
            document.close()
    printed = printed_page_numbers(raw)
    kept, _ = strip_running_lines(raw)
    paras = [paragraphs(lines) for lines in kept]
    words = vocabulary([text for page in paras for text in page])
    return [Page(n, resolve_soft_hyphens("\n\n".join(p), words).strip(), label or number)
            for n, p, label, number in zip(range(1, len(kept) + 1), paras, labels, printed)]


def cpu_seconds(load) -> float:  # noqa: ANN001
    start = time.process_time()
    load()
    return time.process_time() - start


def tree_lines(structure, depth: int) -> list[str]:  # noqa: ANN001
    return [f"    {'  ' * (s.level - 1)}{s.title[:90]}  (p. {s.page_start})"
            for s in structure.sections if s.level <= depth]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--depth", type=int, default=2, help="section tree levels printed")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.runs} runs, CPU s")
    for name in PDFS:
        path = PDF_DIR / name
        if not path.is_file():
            print(f"\n{name}: missing ({path})")
            continue
        document = load_file(path, **LIMITS)
        meta = document.metadata
        headings = [block for page in document.pages for block in page.blocks if block.kind == "heading"]
        plain, full = [], []
        for _ in range(args.runs):
            plain.append(cpu_seconds(lambda: load_plain(path)))  # noqa: B023
            full.append(cpu_seconds(lambda: load_file(path, **LIMITS)))  # noqa: B023
        before, after = min(plain), min(full)
        structure = StructureBuilder().run(document)
        print(f"\n{name}: {meta['page_count']} pages")
        print(f"  headings found: {len(headings)} ({meta['outline_headings_found']} from the outline, "
              f"{meta['layout_headings']} from the layout)")
        if meta["outline_entries"]:
            print(f"  outline entries matched to a line: {meta['outline_headings_found']} / {meta['outline_entries']}")
        else:
            print("  outline: none")
        print(f"  load: {before:.3f} s before, {after:.3f} s with headings, x{after / before:.3f}")
        print(f"  section tree: {len(structure.sections)} sections; levels <= {args.depth}:")
        print("\n".join(tree_lines(structure, args.depth)))


if __name__ == "__main__":
    main()
