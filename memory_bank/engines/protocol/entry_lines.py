"""How a raw entry is read line by line for the memory block and the answer: prose in sentences, a section's
outline and a table's rows a line at a time, a conversation's turns whole."""

from __future__ import annotations

from ...memory.interaction_tree import InteractionEntry
from ...memory.outline import Outline
from ...text.split import split_paragraphs, split_sentences
from .table_rows import TableRowRef, table_rows

LINE_STRUCTURES = frozenset({"section", "table"})
TURN_WORDS = 80  # a longer conversation turn is shown sentence by sentence
CUT = " …"  # how an outline's text line ends where ingestion cut it short (ingest/sections.py)


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
    if structure != "section":
        return lines
    outline = Outline.from_metadata(entry.metadata)
    lines = lines if outline is None else whole_lines(lines, outline)
    return lines[1:] if len(lines) > 1 else lines


def whole_lines(lines: list[str], outline: Outline) -> list[str]:
    """The outline's lines with each one ingestion cut short ("… or (3) retaining key personnel …") read whole
    from its typed outline: an answer that quotes a list item quotes all of it, never a fragment ending in "…".
    A lead-in that is a paragraph stays cut: read whole, its sentences sit beside outline lines they do not
    follow in the document ("This may influence …" read on from an unrelated line before it), and the prose
    passage holds them in order anyway. Nor is a line the outline does not hold whole (a table's row labels)
    changed."""
    wholes = [outline.opening, *(w for lst in outline.lists
                for w in (lst.lead_in, *(f"{i.marker} {i.text}" for i in lst.items))),
              *(c.opening for c in outline.children)]
    wholes = [" ".join(w.split()) for w in wholes if w]
    out: list[str] = []
    for line in lines:
        whole = next((w for w in wholes if w.startswith(line.removesuffix(CUT)) and len(w) > len(line) - len(CUT)),
                     None) if line.endswith(CUT) else None
        out.append(line if whole is None or len(split_sentences(whole)) > 1 else whole)
    return out


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
