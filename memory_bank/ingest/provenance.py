"""Map a cluster's text back to the pages it came from.

Agents return cluster content as text; an LLM may reflow or trim it. Shingles (runs of 6 words) of the cluster
are looked up in each page of the chunk, so the page range survives light edits without trusting the model to
copy page markers. Content shorter than a shingle (a heading, a figure caption) is looked up as a whole run of
words, or it would claim every page of its chunk.
"""

from __future__ import annotations

import re

_SHINGLE = 6


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + _SHINGLE]) for i in range(len(words) - _SHINGLE + 1)}


def _contains_run(words: list[str], run: list[str]) -> bool:
    size = len(run)
    return any(words[i:i + size] == run for i in range(len(words) - size + 1) if words[i] == run[0])


class PageLocator:
    def __init__(self, pages: list[tuple[int, str]]) -> None:
        self._pages = [(number, words, _shingles(words)) for number, words in
                       ((number, _words(text)) for number, text in pages)]

    def locate(self, content: str) -> tuple[int, int] | None:
        """The first and last page that share text with `content`, or None."""
        words = _words(content)
        if not words:
            return None
        if len(words) < _SHINGLE:
            hits = [number for number, page_words, _ in self._pages if _contains_run(page_words, words)]
        else:
            wanted = _shingles(words)
            hits = [number for number, _, shingles in self._pages if wanted & shingles]
        return (min(hits), max(hits)) if hits else None
