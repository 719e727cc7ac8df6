"""Who "we" are in a signed report: the signer its "/s/" line names.

An auditor's report says "We have audited the accompanying consolidated balance sheets …" and names its author
only in the signature at its end ("/s/ Ernst & Young LLP"); a filing whose prose never names the firm again
answers "Who audits …?" with that line alone. A "who" answer that opens speaking as "we" and does not say the signer's
name is opened with the signer of the report they were read in: the first signature at or after the sentence's page, in
its section or the nearest section above it (two levels at most) that holds one, within a report's length of
pages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from .answering import Answer
from .evidence import Evidence
from .question_types import asks_who

_WE = re.compile(r"^\s*(?:we|our)\b", re.IGNORECASE)
# "/s/ Ernst & Young LLP": a person's or a firm's name after the mark, to the end of its line, or to a firm's
# legal form or a next sentence when the text ran the lines together ("/s/ Ernst & Young LLP San Jose, California")
_SIGNED = re.compile(r"(?:^|(?<=\s))/s/[ \t]*(?P<name>[A-Z][^\n/]{1,120})", re.MULTILINE)
_NAME_END = re.compile(r"\b(?:LLP|LLC|L\.L\.P\.|Ltd\.?|Inc\.|P\.C\.)|\s+(?=(?:We|Our|I)\s)")
MAX_NAME_WORDS = 8
REPORT_PAGES = 6  # a signature further than this many pages after the sentence signs another document
UP_LEVELS = 2  # sections above the sentence's own searched for the signature (a report's parts are sub-sections)


def signer_first(question: str, answer: Answer, evidence: list[Evidence], view: MemoryView) -> Answer:
    """The answer opened with the name of the signer of the report its first sentence speaks for as "we", when
    it asks "who" (in any part: "Who audits Apple, and since when?") and does not say that name already; the
    answer unchanged otherwise. `evidence`: what the answer was drawn from, whose passages are searched too when
    the document has no sections."""
    if not answer.found or not answer.used or not asks_who(question):
        return answer
    # "Who is Apple's auditor?": the sentence speaking as "we" ("We have served as Apple Inc.'s auditor since
    # 2009.") may come after a longer one that only says the word ("… to the Registrant's auditors …"), which is
    # left out: the answer opens with the signer and the sentence it signs. Of several sentences speaking as "we",
    # the first whose report's signature is found: an opinion read on pages apart from its signature signs nothing
    # the search reaches
    near = [ev.node_id for ev in evidence]
    k, signed = next(((k, signed) for k, ev in enumerate(answer.used)
                      if _WE.match(ev.text) and (signed := signature(ev, view, near)) is not None), (0, None))
    if signed is None or signed.text.casefold() in answer.text.casefold():
        return answer
    used = answer.used[k:]  # what came before it named no one: it only said the word asked about
    text = answer.text if k == 0 else " ".join(ev.text for ev in used)
    return Answer(f"{signed.text} (the signer of the report: “/s/ {signed.text}”). {text}", [signed, *used],
                  answer.score)


def signature(ev: Evidence, view: MemoryView, near: Sequence[str] = ()) -> Evidence | None:
    """The name signing the report `ev` was read in, as evidence of its own (where the signature is); None when
    none is found. A document without sections is searched in the sentence's passage, those next to it and
    those of `near` (node ids)."""
    start = ev.pages[0] if ev.pages else None
    if start is None:
        return None
    lowest = max(1, len(ev.section) - UP_LEVELS) if ev.section else 0
    for depth in range(len(ev.section), lowest - 1, -1):
        found: list[tuple[int, Evidence]] = []
        nodes = (view.in_section(ev.section[:depth]) if depth else
                 _passages(ev.node_id, near, view) if not ev.section else [])
        for node in nodes:
            for source in node.sources:
                page = source.page_start
                if source.name != ev.source or page is None or not start <= page <= start + REPORT_PAGES:
                    continue
                for entry in view.entries_for(node.id):
                    name = signer_name(entry.text)
                    if name:
                        found.append((page, Evidence(name, node.id, ev.source,
                                                     tuple(range(page, (source.page_end or page) + 1)),
                                                     section=source.section)))
        if found:
            return min(found, key=lambda f: f[0])[1]
    return None


def _passages(node_id: str, near: Sequence[str], view: MemoryView) -> list[Node]:
    ids = [node_id, *(n.id for n in view.neighbors(node_id)), *near]
    return [view.node(i) for i in dict.fromkeys(ids)]


def signer_name(text: str) -> str | None:
    """The first name signed with "/s/" in the text, without what its line runs on with."""
    match = _SIGNED.search(text)
    if match is None:
        return None
    name = match["name"].strip()
    end = _NAME_END.search(name)
    if end is not None:
        name = name[:end.end()].strip()
    words = name.split()
    return " ".join(words) if len(words) <= MAX_NAME_WORDS else None
