"""The longest answer a run keeps, and the marker that says an answer was cut there.

A run keeps no longer answer: it is stored, exported and shown, and an export must import again. Cutting
copies the answer, so it is done once, where the answer is first taken out of the reply (`capped_slice`), and
an answer already cut is never cut again.
"""

from __future__ import annotations


def cut_marker(limit: int) -> str:
    """Plain ASCII on purpose: CPython keeps a string at the width of its widest character, so one '…' here
    turned a cut ASCII answer (and every reader's draft of it) from one byte a character into two."""
    return (f"\n\n[... the answer was cut here: it is longer than the limit of {limit:,} characters "
            f"(MAX_ANSWER_CHARS)]")


def capped_slice(text: str, start: int, end: int, limit: int | None) -> str:
    """`text[start:end].strip()` cut at `limit` characters with the marker, in one copy (none when that is the
    whole of `text`): stripping a slice and then capping it copied a megabyte answer three times."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if limit is None or end - start <= limit:
        return text[start:end]
    cut = text[start:start + limit]
    cut += cut_marker(limit)  # CPython grows a string only this name holds in place: no second copy
    return cut


def cap_answer(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters and a marker that says it was cut. An answer already cut at
    `limit` comes back as it is: the executor and the run both cap it."""
    if len(text) <= limit:
        return text
    marker = cut_marker(limit)
    if len(text) == limit + len(marker) and text.endswith(marker):
        return text
    cut = text[:limit]
    cut += marker
    return cut
