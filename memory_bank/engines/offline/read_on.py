"""Steps asked are read on from the sentence that starts them, in their sub-section's order.

"If an agency could build a zero trust architecture from scratch, how would it go about it?" is answered by the
sentence that names the approach ("In a greenfield approach, it would be possible to build a zero trust
architecture from the ground up.") and then by the steps after it ("Once the workflows are identified, the
enterprise can narrow down the components needed …"), which repeat none of the question's words: the memory block
shows the sentences that cover the question, so the steps were not among the evidence, and the answer stopped
after its first sentence or went on with a sentence from elsewhere. The answer reads on from its lead sentence in
the sub-section it was read in, in the document's order, while the budget allows.
"""

from __future__ import annotations

from ...memory.store import claim_key
from ...retrieval.view import MemoryView
from .answering import Answer, announces_list
from .titled_section import section_sentences


def read_on(answer: Answer, view: MemoryView, limit: int) -> Answer:
    """The answer's lead sentence and the sentences that follow it in its sub-section, in order, while `limit`
    words allow; the answer as it was when its lead is a table's row, is not found there, or nothing follows it."""
    if not answer.used or answer.used[0].row or not answer.used[0].section:
        return answer
    lead = answer.used[0]
    read = section_sentences(lead.section, view)
    key = claim_key(lead.text)
    start = next((k for k, ev in enumerate(read) if ev.section == lead.section and claim_key(ev.text) == key), None)
    if start is None:
        return answer
    used, size = [lead], len(lead.text.split())
    for ev in read[start + 1:]:
        words = len(ev.text.split())
        if ev.section != lead.section or announces_list(ev.text) or size + words > limit:
            break
        used.append(ev)
        size += words
    if len(used) == 1:
        return answer
    return Answer(" ".join(ev.text for ev in used), used, answer.score)
