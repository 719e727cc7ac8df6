"""Two things compared that the documents treat in a sub-section each are answered from each sub-section.

"For a federal agency, how does building a pure zero trust architecture compare with running a hybrid of zero trust
and perimeter-based security?" names "7.1 Pure Zero Trust Architecture" and "7.2 Hybrid ZTA and Perimeter-Based
Architecture" by their titles. The best sentences of all the evidence were about federal agencies and zero trust
in general ("Federal agencies have been urged to move to security based on zero trust principles …"), and said
neither side: the answer is what each sub-section says first about the question, side by side, each side its own
word budget.
"""

from __future__ import annotations

from .answering import Answer, Answerer
from .evidence import Evidence
from .sides import compared_sides


def compared_sections(question: str, sections: list[list[Evidence]], answerer: Answerer) -> Answer | None:
    """Each side's answer from its own sub-section, in the order the question names them; None unless the
    question compares two sides and two of the (short) sub-sections it names are titled one by each side."""
    named = [read for read in sections if read]
    for sides in compared_sides(question):
        titled = {k: read for read in named if (k := sides.titled(read[0].section[-1])) is not None}
        if len(titled) != 2:
            continue
        parts = [_opened(question, titled[k], answerer) for k in (0, 1)]
        if not all(part.found for part in parts):
            return None
        used = [ev for part in parts for ev in part.used]
        return Answer(" ".join(part.text for part in parts), used, min(part.score for part in parts))
    return None


def _opened(question: str, read: list[Evidence], answerer: Answerer) -> Answer:
    """A side's answer from its sub-section, when its best sentence answers (the found judgement): its opening
    sentences in order, which state what it is about ("In a greenfield approach, it would be possible to build a
    zero trust architecture from the ground up. …"; "It is unlikely that any significant enterprise can migrate to
    zero trust in a single technology refresh cycle. There may be an indefinite period …"), while they fit. The
    best sentences by the question's words were its asides on the words both sides share ("The agency could
    design …")."""
    ranked = answerer.rank(question, read)
    found = answerer.answer_ranked(question, ranked)
    if ranked is None or not found.found:
        return found
    place = {ev.text: k for k, ev in reversed(list(enumerate(read)))}
    order = sorted(range(len(ranked.pool)), key=lambda i: place.get(ranked.pool[i].text, len(read)))
    return answerer.compose(question, ranked.pool, order, found.score)
