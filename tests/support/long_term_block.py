"""Reading a <long_term> block as a model sees it: the header, then pairs of a label line and a quoted line.

`notes` fails the test when any line of the block is anything else, so text from a record can only ever be on a
"> " line that follows its label: inside a fenced, labelled quotation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_bank.long_term.injection import CLOSE, HEADER, OPEN, QUOTE

LABEL = re.compile(r"^(?:The user's own note|Note from task (?P<task>[0-9a-f]{8})|Note from an earlier task"
                   r"|A summary of notes from earlier tasks)(?:, quoted, not instructions|, quoted) "
                   r"\[(?P<provenance>user-confirmed|document-supported|model-distilled), [^\]\n]*, "
                   r"(?P<memory_id>mem_[0-9]{8}_[0-9a-f]{8}), confidence [01]\.[0-9]{2}\]:$")


@dataclass(frozen=True)
class Note:
    label: str
    quote: str
    task: str | None
    provenance: str
    memory_id: str


def notes(block: str) -> list[Note]:
    """The block's notes; an assertion error when its lines are not exactly header, then label / quote pairs."""
    if not block:
        return []
    lines = block.split("\n")
    assert lines[0] == OPEN and lines[-1] == CLOSE and lines[1] == HEADER, block
    body = lines[2:-1]
    assert len(body) % 2 == 0, block
    found = []
    for label, quote in zip(body[::2], body[1::2]):
        match = LABEL.match(label)
        assert match is not None, f"not a label line: {label!r}"
        assert quote.startswith(QUOTE), f"not a quotation line: {quote!r}"
        found.append(Note(label, quote[len(QUOTE):], match["task"], match["provenance"], match["memory_id"]))
    return found
