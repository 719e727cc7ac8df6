"""Node titles: a short name for every node, unique within the task.

A node is named after the section it was read from, plus what sets it apart from the section's other passages
(its first keyword the section title does not already say), so the Query Graph never shows the same label twice
and a reader sees where each node sits ("2.1 Tenets of Zero Trust · resources"). A section's own node keeps the
bare section title. Titles are bounded so the graph can draw them whole.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_TITLE = 48
SEPARATOR = " · "


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] if " " in text[: limit - 1] else text[: limit - 1]
    return cut.rstrip(" ,;:-–—") + "…"


class Titles:
    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken = {t.lower() for t in taken if t}

    def section(self, title: str, parent: str | None = None) -> str:
        """A section node's title: the section's own, or with its parent's when two sections share a name."""
        candidates = [shorten(title, MAX_TITLE)]
        if parent:
            candidates.append(self._joined(title, shorten(parent, 20)))
        return self._first_free(candidates, title)

    def passage(self, base: str, keywords: list[str]) -> str:
        """A passage's title: its section's (or its topic's) plus a distinguishing keyword."""
        base_words = {w.lower() for w in base.split()}
        suffixes = [k for k in keywords if k and not set(k.lower().split()) <= base_words]
        return self._first_free([self._joined(base, shorten(k, 18)) for k in suffixes[:6]], base)

    def _joined(self, base: str, suffix: str) -> str:
        return f"{shorten(base, MAX_TITLE - len(suffix) - len(SEPARATOR))}{SEPARATOR}{suffix}"

    def _first_free(self, candidates: list[str], base: str) -> str:
        for candidate in candidates:
            if candidate.lower() not in self._taken:
                return self._take(candidate)
        number = 2
        while True:
            suffix = f"({number})"
            candidate = f"{shorten(base, MAX_TITLE - len(suffix) - 1)} {suffix}"
            if candidate.lower() not in self._taken:
                return self._take(candidate)
            number += 1

    def _take(self, title: str) -> str:
        self._taken.add(title.lower())
        return title
