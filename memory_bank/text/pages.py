"""Page ranges and their labels: how every stage names where a piece of a document sits."""

from __future__ import annotations

from collections.abc import Iterable


def page_span(start: int | None, end: int | None) -> tuple[int, ...]:
    """Every page of a range stored as (first, last); `end` None means one page, `start` None means no pages."""
    return () if start is None else tuple(range(start, (end or start) + 1))


def pages_label(pages: Iterable[int]) -> str:
    """[3, 4, 5, 9] -> 'pp. 3-5, 9'; [7] -> 'p. 7'; [] -> ''."""
    nums = sorted(set(pages))
    if not nums:
        return ""
    runs: list[str] = []
    start = prev = nums[0]
    for n in nums[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    prefix = "p." if len(nums) == 1 else "pp."
    return f"{prefix} {', '.join(runs)}"
