"""Who stands behind a work the answer cites: "TIC 3.0 has been updated … [M-19-26]." answers "Who issued the memo
under which TIC 3.0 was updated?" only with its reference list's entry, "[M-19-26] Office of Management and Budget
(2019) Update to the Trusted Internet Connections (TIC) Initiative."

A technical document names its sources by a key in brackets and says who wrote or issued each in its references.
A question asking who issued, published or wrote something, or which memo, publication or standard it is, gets
the entry of each key its answer's first sentence cites, from the reference list (found by local search for the
key), cited at the list's page: the reader sees the organisation and title without turning to the back.
"""

from __future__ import annotations

import re

from ...retrieval.view import MemoryView
from ...text.furniture import Role
from .answering import Answer
from .evidence import Evidence, passage_evidence

SEARCHED = 5  # passages searched for a key's entry
MAX_KEYS = 2  # keys of one sentence resolved
MAX_ENTRY_WORDS = 40  # an entry is shown up to its title, not its address and page numbers
# "[M-19-26]", "[SP800-63A]", "[NISTIR 7987]": a key with a letter, no longer than a short name
_KEY = re.compile(r"\[(?P<key>(?=[^\]]*[A-Za-z])[A-Za-z0-9][\w .:/&-]{0,28})\]")
# who made it, or which work it is
_ASKS_SOURCE = re.compile(
    r"\bwho\s+(?:\w+\s+){0,2}?(?:issued|issues|published|publishes|wrote|writes|authored|released|produced|"
    r"developed|signed|sponsored)\b|\b(?:which|what)\s+(?:\w+\s+){0,2}?(?:memo|memorandum|publication|document|"
    r"standard|report|directive|order|guidance|agency|organi[sz]ation|office|body)\b.{0,80}?\b(?:issued|published|"
    r"wrote|released|require[sd]?|mandate[sd]?|direct(?:s|ed)?|describe[sd]?)\b", re.IGNORECASE)
_END = re.compile(r"\.\s+(?:\(|Available|https?:|\[)|\n\s*\[")  # where an entry's title ends, or the next starts


def asks_source(question: str) -> bool:
    return _ASKS_SOURCE.search(question) is not None


def cited_keys(sentence: str) -> list[str]:
    """The keys in brackets the sentence cites, in order."""
    return list(dict.fromkeys(m.group("key").strip() for m in _KEY.finditer(sentence)))[:MAX_KEYS]


def with_cited_work(question: str, answer: Answer, view: MemoryView) -> Answer:
    """`answer` with the reference entry of each key its first sentence cites, for a question asking who made a
    work or which it is; unchanged otherwise, or when the references hold no such entry."""
    if not answer.found or not answer.used or not asks_source(question):
        return answer
    entries = [e for key in cited_keys(answer.used[0].text) if (e := reference_entry(key, view)) is not None
               and e.text not in answer.text]
    if not entries:
        return answer
    return Answer(" ".join([answer.text, *(e.text for e in entries)]), [*answer.used, *entries], answer.score)


def reference_entry(key: str, view: MemoryView) -> Evidence | None:
    """The reference list's entry for `key`, its text up to the end of its title, with its place."""
    mark = f"[{key}]"
    for passage in view.search_passages(key, SEARCHED):
        start = passage.text.find(mark)
        node_id = passage.node_ids[0] if passage.node_ids else ""
        if start < 0 or not node_id or view.node(node_id).role is not Role.REFERENCES:
            continue
        end = _END.search(passage.text, start + len(mark))
        words = passage.text[start: end.start() + 1 if end else None].split()
        text = " ".join(words[:MAX_ENTRY_WORDS])
        return passage_evidence(text if text.endswith(".") else f"{text} …", passage, Role.REFERENCES)
    return None
