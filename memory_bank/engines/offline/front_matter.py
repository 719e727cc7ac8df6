""""Who wrote this publication?", "When was it published?": questions about a document itself, answered from
its front matter.

The cover names the authors and the date, and it is furniture: ranked at half weight and never cited while a body
sentence answers, so these questions got a body sentence that shares their words ("Many of these management
policies should use the recommendations in NIST SP 800-63-3 …"). A question is taken for one about the document
only when what it asks about is the document: a word for it ("this publication", "the report", "it") or its number
or code as its front matter says it ("NIST SP 800-207"); "Who wrote the 95 Theses?" and "Who issued the senior
notes?" ask about something inside.
"""

from __future__ import annotations

import re
from typing import Literal

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from ...text.split import split_sentences
from ...text.tokens import stems
from .answering import Answer
from .evidence import Evidence, node_evidence
from .nlp import MONTHS, has_month, years

Asked = Literal["author", "behind", "date"]
_AUTHOR_Q = re.compile(
    r"^\W*(?:who\s+(?:wrote|authored|prepared|published|issued|produced|compiled)|who\s+(?:is|are|were|was)\s+the\s+"
    r"(?:authors?|publishers?)\s+of|(?:what|which)\s+(?:organi[sz]ation|agency|institute)\s+(?:published|issued|"
    r"wrote|prepared))\b(?P<rest>[^?]*)", re.IGNORECASE)
# "Which body oversaw the writing of NIST SP 800-207, and which group … was responsible for developing it?": who is
# behind it, which its acknowledgments say ("… is overseen by the Federal CIO Council. The architecture subgroup is
# responsible for development of this document …"), not its cover's authors
_BEHIND_Q = re.compile(r"^\W*(?:(?:what|which)\s+(?:body|group|organi[sz]ation|agency|council|committee|subgroup)\s+|"
                       r"who\s+)(?:oversaw|oversees|overs(?:aw|ee|een)\s+the\s+\w+\s+of|led|leads|was\s+responsible"
                       r"\s+for|is\s+responsible\s+for|sponsored|commissioned)\b(?P<rest>[^?]*)", re.IGNORECASE)
_BEHIND = frozenset(stems("oversee overseen oversaw responsible responsibility collaboration sponsored commissioned"))
_ITSELF = re.compile(r"\bthis\s+(?:document|publication|report|guide|paper|standard)\b", re.IGNORECASE)
_BEHIND_PASSAGES = 8  # the passages searched for who is behind the document
_MAKING = frozenset(stems("writing development creation drafting preparation making"))  # "oversaw the writing of"
_DATE_Q = re.compile(r"^\W*(?:when\s+(?:was|were|is)\b(?P<rest>[^?]*?)\b(?:published|released|issued|written|dated)|"
                     r"what\s+is\s+the\s+(?:publication|release|issue)\s+date\s+of\b(?P<of>[^?]*))", re.IGNORECASE)
# what a question calls the document it is about, when it names none
_SELF = frozenset(stems("this that the it its document report publication paper guide standard special study "
                        "guidance annual form filing"))
# a document named by its number or code ("NIST SP 800-207", "the 10-K"): words alone ("the senior notes", on a
# filing's cover too) name something it is about
_NUMBERED = re.compile(r"\b(?:[A-Z]{2,}|[\w-]*\d[\w-]*)\b")
MAX_WORDS = 60  # a cover quoted in an answer
_DATE = re.compile(r"\b(?:" + "|".join(m.capitalize() for m in MONTHS) + r")(?:\s+\d{1,2},)?\s+(?:19|20)\d\d\b")
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+\b")  # "Scott Rose", "Safra A. Catz"


def asks_about_document(question: str) -> tuple[Asked, str] | None:
    """("author" or "date", the words naming what it asks about) for a question about a document's authors or
    date; None otherwise."""
    match = _AUTHOR_Q.match(question)
    if match is not None:
        return "author", match.group("rest")
    match = _BEHIND_Q.match(question)
    if match is not None:
        return "behind", match.group("rest")
    match = _DATE_Q.match(question)
    if match is not None:
        return "date", match.group("rest") or match.group("of") or ""
    return None


class FrontMatterAnswerer:
    def __init__(self, view: MemoryView) -> None:
        self.view = view

    def run(self, question: str) -> Answer | None:
        """The cover naming the authors, or the front matter's dated line, cited; None when the question is not
        about a document, or no document of the task has front matter that answers it."""
        asked = asks_about_document(question)
        if asked is None:
            return None
        kind, about = asked
        if kind == "behind":
            return self._behind(question, about.split(",")[0])
        nodes = self.view.front_matter()
        texts = {n.id: " ".join(e.text for e in self.view.entries_for(n.id)) or n.summary for n in nodes}
        named = set(stems(about)) - _SELF
        said = set(stems(" ".join(texts.values())))
        if not nodes or not named <= said or (named and not _NUMBERED.search(about)):
            return None  # about something inside the documents, or a document whose cover was not read
        if kind == "author":
            names = {n.id: len(_PERSON.findall(texts[n.id])) for n in nodes}
            best = max(nodes, key=lambda n: names[n.id])
            if not names[best.id]:
                return None
            return Answer(f"The front matter reads: {_cut(texts[best.id])}", [_evidence(best, texts[best.id])], 1.0)
        for node in nodes:
            dated = next((s for s in split_sentences(texts[node.id]) if has_month(s) and years(s)), None)
            if dated is not None:  # the date first, then the line it is read from ("59 pages (August 2020) …")
                date = _DATE.search(dated)
                lead = f"{date.group(0)}. " if date else ""
                return Answer(f"{lead}The front matter reads: {_cut(dated)}", [_evidence(node, dated)], 1.0)
        return None

    def behind(self, question: str) -> Answer | None:
        """The answer to a question asking who is behind the document ("Which body oversaw …, and which group …
        was responsible for developing it?"), asked whole: one passage says every part; None for any other."""
        asked = asks_about_document(question)
        return self._behind(question, asked[1].split(",")[0]) if asked and asked[0] == "behind" else None

    def _behind(self, question: str, about: str) -> Answer | None:
        """The sentences saying who oversees this document or is responsible for it ("This document is … overseen
        by the Federal CIO Council. The architecture subgroup is responsible for development of this document …"),
        wherever its acknowledgments put them; None when the question names something the documents do not (it
        asks about something else) or no sentence says so of the document itself."""
        named = set(stems(about)) - _SELF - _MAKING
        cover = set(stems(" ".join(e.text for n in self.view.front_matter() for e in self.view.entries_for(n.id))))
        for passage in self.view.search_passages(f"{question} overseen responsible for development of this document",
                                                 _BEHIND_PASSAGES):
            said = [t for t in split_sentences(passage.text) if _BEHIND & set(stems(t)) and _ITSELF.search(t)]
            if said and named <= set(stems(passage.text)) | cover:
                text = " ".join(said)
                return Answer(f"The document says: {_cut(text)}", [_evidence(self.view.node(passage.node_ids[0]),
                                                                             text)], 1.0)
        return None


def _cut(text: str) -> str:
    words = text.split()
    return " ".join(words[:MAX_WORDS]) + (" …" if len(words) > MAX_WORDS else "")


def _evidence(node: Node, text: str) -> Evidence:
    return node_evidence(_cut(text), node)
