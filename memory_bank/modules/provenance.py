"""Map a cluster's text back to the pages it came from.

Agents return cluster content as text; an LLM may reflow or trim it. Shingles (runs of 6 words) of the cluster
are looked up in each page of the chunk, so the page range survives light edits without trusting the model to
copy page markers.
"""

from __future__ import annotations

import re

_SHINGLE = 6


def _shingles(text: str) -> set[tuple[str, ...]]:
    toks = re.findall(r"\w+", text.lower())
    if len(toks) < _SHINGLE:
        return {tuple(toks)} if toks else set()
    return {tuple(toks[i:i + _SHINGLE]) for i in range(len(toks) - _SHINGLE + 1)}


class PageLocator:
    def __init__(self, pages: list[tuple[int, str]]) -> None:
        self._pages = [(number, _shingles(text)) for number, text in pages]

    def locate(self, content: str) -> tuple[int, int] | None:
        """The first and last page that share text with `content`, or None."""
        wanted = _shingles(content)
        hits = [number for number, shingles in self._pages if wanted & shingles]
        return (min(hits), max(hits)) if hits else None
