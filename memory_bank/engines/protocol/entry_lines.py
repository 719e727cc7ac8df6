"""How a raw entry is read line by line for the memory block and the answer: prose in sentences, a section's
outline and a table's rows a line at a time, a conversation's turns whole."""

from __future__ import annotations

from ...memory.interaction_tree import InteractionEntry
from ...text.split import split_paragraphs, split_sentences
from .table_rows import TableRowRef, table_rows

LINE_STRUCTURES = frozenset({"section", "table"})
TURN_WORDS = 80  # a longer conversation turn is shown sentence by sentence


def entry_sentences(entry: InteractionEntry, rows: dict[str, TableRowRef] | None = None) -> list[str]:
    """The entry's sentences; a section's outline and a table's rows are read a line at a time (a row or an
    item line has no full stop to end it), the outline's first line (its title, which the node's header says)
    left out. `rows`: the entry's `table_rows`, when the caller has them already."""
    structure = entry.metadata.get("structure")
    if structure == "turn":
        return turn_lines(entry.text)
    rows = table_rows(entry.metadata) if rows is None else rows
    if structure not in LINE_STRUCTURES and rows:
        return _mixed_lines(entry.text, rows)
    if structure not in LINE_STRUCTURES:
        return split_sentences(entry.text)
    lines = [" ".join(line.split()) for line in entry.text.split("\n") if line.strip()]
    return lines[1:] if structure == "section" and len(lines) > 1 else lines


def _mixed_lines(text: str, rows: dict[str, TableRowRef]) -> list[str]:
    """Prose with a table in it (a caption paragraph before the rows): each paragraph in sentences, except a
    table's lines, each row a sentence of its own."""
    out: list[str] = []
    for paragraph in split_paragraphs(text):
        lines = [" ".join(line.split()) for line in paragraph.split("\n") if line.strip()]
        if any(line in rows for line in lines):
            out.extend(lines)
        else:
            out.extend(split_sentences(paragraph))
    return out


def turn_lines(text: str) -> list[str]:
    """A conversation's turns (a blank line apart in the entry), each whole: a turn's second sentence cut from
    its first loses who said it ("I adopted a dog last Saturday!"), and "Mr." ends no sentence. Only a turn
    longer than `TURN_WORDS` is cut into sentences."""
    out: list[str] = []
    for turn in split_paragraphs(text):
        line = " ".join(turn.split())
        out.extend([line] if len(line.split()) <= TURN_WORDS else split_sentences(line))
    return out
