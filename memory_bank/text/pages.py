"""Page ranges and their labels: how every stage names where a piece of a document sits.

Two numberings coexist. The PDF page number (1-based position in the file) is what every stage stores and
computes with: page ranges, deep retrieval, re-reading a document. The printed page (a PDF page label or the
number in the running header/footer, "iii" or "5") is what a reader finds on the paper; it is known only for
some pages, so it travels beside the PDF numbers as a partial mapping and is shown with them, never instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..limits import MAX_PRINTED

PrintedPages = Mapping[int, str]  # PDF page number -> the page number printed on it, for the pages known
MAX_PRINTED_CHARS = MAX_PRINTED  # a longer printed page label is no page number (a crafted PDF or export)


def page_span(start: int | None, end: int | None) -> tuple[int, ...]:
    """Every page of a range stored as (first, last); `end` None means one page, `start` None means no pages."""
    return () if start is None else tuple(range(start, (end or start) + 1))


def printed_pages(start: int | None, end: int | None,
                  printed_start: str | None, printed_end: str | None) -> dict[int, str]:
    """The printed labels of a stored range's first and last page, keyed by their PDF page numbers.

    Only the ends are stored: a label is never inferred for a page in between (numbering may switch from roman
    to arabic inside a range), and the ends are all `pages_label` needs.
    """
    if start is None:
        return {}
    ends = [(start, printed_start)] if end in (None, start) else [(start, printed_start), (end, printed_end)]
    return {page: label for page, label in ends if label}


def pages_label(pages: Iterable[int], printed: PrintedPages | None = None) -> str:
    """[3, 4, 5, 9] -> 'pp. 3-5, 9'; [7] -> 'p. 7'; [] -> ''.

    With the printed labels of every run's first and last page: 'p. 5 (PDF p. 14)', 'pp. 5-6 (PDF pp. 14-15)'.
    When any is unknown, or the printed numbers are the PDF numbers, the PDF numbers alone, as above.
    """
    runs = _runs(sorted(set(pages)))
    if not runs:
        return ""
    pdf = _label([(str(a), str(b)) for a, b in runs])
    if not printed or any(a not in printed or b not in printed for a, b in runs):
        return pdf
    shown = _label([(printed[a], printed[b]) for a, b in runs])
    return pdf if shown == pdf else f"{shown} (PDF {pdf})"


def _runs(nums: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for n in nums:
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _label(runs: list[tuple[str, str]]) -> str:
    parts = [a if a == b else f"{a}-{b}" for a, b in runs]
    prefix = "p." if len(runs) == 1 and runs[0][0] == runs[0][1] else "pp."
    return f"{prefix} {', '.join(parts)}"
