"""A sub-section the question names by its title is read whole.

"What should enterprise administrators do when formulating policies for a ZTA candidate workflow?" says every word
of "7.3.4 Formulating Policies for the ZTA Candidate"; "How does the enclave-based deployment model differ from …?"
every word of "3.2.2 Enclave-Based Deployment". The memory block picks a node's sentences by the question's words,
and what such a sub-section says to do or how it differs rarely repeats them ("… identify all upstream resources
…", "The downside is that the gateway protects a collection of resources …"): the block showed the sentences
that restate the title and left the answer out. A short sub-section named whole is what the question asks about,
so all of its sentences join the evidence (the ranking still picks among them). Asked what to do or how it is
done, such a sub-section is the answer itself, read in its order (its steps come in order, and its first one
rarely repeats the question's words), up to a list answer's budget.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...memory.query_graph import Node
from ...retrieval.view import MemoryView
from ...text.tokens import bare_stems
from .answering import Answer
from .evidence import Evidence, words_in
from .passage import node_sentences

_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_NAME_RUN = re.compile(r"[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)+")  # "Employee Stock Purchase Plan"
MIN_TITLE_WORDS = 2  # a one-word title ("Introduction", "Products") is named by too many questions
MAX_WORDS = 400  # a sub-section read whole at most this long (about a page): a chapter is not one answer
DOING_WORDS = 700  # a sub-section asked what to do, read from its start, at most this long
ANSWER_WORDS = 220  # a sub-section answering in its order, as long as a list answer (ListConfig.max_words)
# "What should administrators do when …?", "How should an enterprise …?", "How is X done?": what is done, or how
# ("Once a candidate has been chosen, how does …?": after an opening clause too; "what does X still have to work out
# …?" asks what is done as "what should X do" does)
_DOING = re.compile(r"^\W*(?:[^?,]{1,120},\s*)?(?:how\s+(?:do|does|did|should|can|could|would|must|is|are|was|were)\b|"
                    r"what\s+(?:should|must|do|does|did|can|could|would)\b.{0,80}?\b(?:do|(?:have|has|need|needs)\s+"
                    r"to)\b)", re.IGNORECASE)


def title_words(title: str, own: frozenset[str] = frozenset()) -> set[str]:
    """The title's word stems without its number ("7.3.4") nor the document's own name (`own`: "Oracle Services"
    is a title of one word in Oracle's filing, which every question on Oracle's services says)."""
    return {w for w in bare_stems(title) if not w.isdigit()} - own


def _roots(stems_: set[str]) -> set[str]:
    """Stems with a short word's ending taken off too: the stemmer keeps four letters, so "owned" and "owns" stay
    apart, and "Identify Assets Owned by the Enterprise" was not named by "… the assets it owns". (Long words cut to
    their first six letters, so that "recognize" named "Revenue Recognition", also let "operate" name "Oracle Cloud
    Operations": its sentences joined the evidence and a near miss on cloud regions was answered. Not kept.)"""
    out = set()
    for w in stems_:
        for suffix in ("ed", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) == 3:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


def _own_names(node: Node) -> frozenset[str]:
    """The words of the node's files' names ("ORACLE_2023_10K.pdf": oracle, pdf)."""
    return frozenset(w for source in node.sources for w in bare_stems(re.sub(r"[\W\d_]+", " ", source.name)))


def named_sections(question: str, view: MemoryView) -> list[tuple[str, ...]]:
    """The paths of the sections whose title's words the question all says (at least two of them), in document
    order. A chapter's title is named as well, and read only if it is short (`titled_evidence`). A title whose
    words all sit in one name of the question that says more ("2022 Employee Stock Plan" of "How does the
    Employee Stock Purchase Plan work?") names another thing: the question's name is a sibling of it."""
    asked = _roots(bare_stems(question))
    names = [_roots({w for w in bare_stems(run) if not w.isdigit()}) for run in _NAME_RUN.findall(question)]
    acronyms = view.acronyms()
    out: list[tuple[str, ...]] = []
    for node in view.section_nodes():
        path = node.section()
        if not path or path in out:
            continue
        own = _own_names(node)
        for title in dict.fromkeys((path[-1], _spelled(path[-1], acronyms))):
            words = _roots(title_words(title, own))
            if len(words) >= MIN_TITLE_WORDS and words <= asked and not any(words < name - own for name in names):
                out.append(path)
                break
    return out


def _spelled(title: str, acronyms: Mapping[str, str]) -> str:
    """The title with the acronyms the documents define written out: "7.2 Hybrid ZTA and Perimeter-Based
    Architecture" is named by "… a hybrid of zero trust architecture and perimeter-based security"."""
    return _ACRONYM.sub(lambda m: acronyms.get(m.group(0), m.group(0)), title)


def titled_evidence(question: str, view: MemoryView) -> list[list[Evidence]]:
    """Every sentence of the sub-sections the question names by their titles, one list per sub-section named, in
    document order (`within` leaves out the long ones)."""
    return [section_sentences(path, view) for path in named_sections(question, view)]


def within(sections: list[list[Evidence]], limit: int = MAX_WORDS, body: bool = False) -> list[list[Evidence]]:
    """The sections, one longer than `limit` words left empty, and with `body` one that opens with furniture: all
    of a short one is evidence; a sub-section asked what to do is read from its start (`in_order`) and may run to
    `DOING_WORDS` ("7.3.2 Identify Assets Owned by the Enterprise" is 426 words), while the part titled by the
    document's own name ("Zero Trust Architecture": its cover, then its notices) starts with no step."""
    return [read if read and words_in(read) <= limit
            and not (body and read[0].role.is_furniture) else [] for read in sections]


def section_sentences(path: tuple[str, ...], view: MemoryView) -> list[Evidence]:
    """Every sentence read in the section at `path` (and below it), in document order, each citing its entry."""
    return [ev for node in view.in_section(path) for ev in node_sentences(view, node)]


def own_sentences(path: tuple[str, ...], view: MemoryView) -> list[Evidence]:
    """The sentences read in the section at `path` itself, not in a sub-section of it, in document order."""
    return [ev for ev in section_sentences(path, view) if ev.section == path]


def asks_doing(question: str) -> bool:
    """Does the question ask what is done, or how ("What should X do when …?", "How should X …?")?"""
    return _DOING.match(question) is not None


def in_order(sections: list[list[Evidence]], question: str, limit: int = ANSWER_WORDS) -> Answer | None:
    """The sub-section's sentences in its order while `limit` words allow (the first whatever its length). Only
    for a question asking what is done or how (`asks_doing`) of one sub-section: one naming two ("How do
    restricted stock units granted under Apple's 2022 Employee Stock Plan vest …?" names "2022 Employee Stock
    Plan" and "Restricted Stock Units") asks what a sentence of them says, which the ranking finds."""
    if len(sections) != 1 or not sections[0] or not asks_doing(question):
        return None
    used = within_words(sections[0], limit)
    return Answer(" ".join(ev.text for ev in used), used, 1.0)


def within_words(evidence: list[Evidence], limit: int) -> list[Evidence]:
    """The sentences in order while `limit` words allow, the first whatever its length."""
    used, size = evidence[:1], len(evidence[0].text.split()) if evidence else 0
    for ev in evidence[1:]:
        size += len(ev.text.split())
        if size > limit:
            break
        used.append(ev)
    return used
