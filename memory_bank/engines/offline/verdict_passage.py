"""A yes/no answer's verdict, read from the sentence of its passage that states it.

The answer's best sentence is the one most like the question, which is often not the one saying yes or no:
"Is zero trust at odds with existing federal cybersecurity policies?" is best matched by "Federal agencies have
been encouraged to take a more zero trust approach … through existing guidance", and the "No" is said two
sentences before it ("There is a misconception that ZTA is … incompatible with the existing view of
cybersecurity"); "Does replicating the policy enforcement fully remove the threat of DoS attacks?" by "Enterprises
can mitigate this threat by …", and the "No" by the next sentence ("This mitigates the risk but does not eliminate
it"). A verdict read from a sentence that says no "No" is a "Yes" by default, so when the best sentence states
none, the answer's other sentences and their neighbours in their passage are read for one that does; the
verdict is read from it, and it is shown with the answer, where it stands in the document.
"""

from __future__ import annotations

from ...retrieval.view import MemoryView
from .answering import Answer, unmarked
from .evidence import Evidence
from .passage import around
from .verdict import SAID, stated, verdict

NEIGHBOURS = 2  # sentences either side of an answer's sentence, in its passage, read for the verdict
NEIGHBOUR_WORDS = 2  # the question's words a neighbour's negation bears on: what is asked, not a side remark


def with_verdict(question: str, answer: Answer, view: MemoryView) -> Answer:
    """The answer opening with its verdict ("Yes. …", "No. …"), the sentence stating it added when the answer did
    not show it."""
    first = answer.used[0]
    said = _stating(question, answer.used, view) or first
    text, used = answer.text, answer.used
    shown, opening = unmarked(said.text), unmarked(first.text)  # "1. The entire …" is shown "The entire …"
    if shown not in text:
        follows = text.startswith(opening) and said.text in {ev.text for ev in around(view, first)[1]}
        # where the document has it: right after the first sentence ("… replicated in several locations. This
        # mitigates the risk but …"), else before the answer
        text = f"{opening} {shown}{text[len(opening):]}" if follows else f"{shown} {text}"
        used = [*used, said]
    return Answer(f"{verdict(question, said.text)}. {text}", used, answer.score, answer.found)


def _stating(question: str, used: list[Evidence], view: MemoryView) -> Evidence | None:
    """The sentence stating the verdict more plainly than the answer's first sentence does (`stated`): the first
    of the answer's other sentences, then of their neighbours, that states it most plainly; None when none states
    it more plainly."""
    first = stated(question, used[0].text)
    if first == SAID:
        return None
    shown = {unmarked(ev.text) for ev in used}
    near = [ev for u in used for side in around(view, u, NEIGHBOURS) for ev in side if unmarked(ev.text) not in shown]
    levels = [(stated(question, ev.text, NEIGHBOUR_WORDS), ev) for ev in [*used[1:], *near] if not ev.row]
    best = max((level for level, _ in levels), default=0)
    return next((ev for level, ev in levels if level == best), None) if best > first else None
