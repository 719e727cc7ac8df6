"""What a user says of themselves before asking: "We are a single-site organization with hardly any remote staff.
Can we still benefit from a zero trust architecture …?"

Such a sentence is the case the question is about, not words the documents should say: read with the question,
its words ("single-site", "payroll database", "hotel networks") made the answer "not found" (a term the documents
never mention) or pulled the ranking off the sentences that answer. The retrieval still reads the whole question
(the case helps find the passage); the answer is read for the question without it.
"""

from __future__ import annotations

import re

from .split import split_sentences

# a statement opening with the user speaking of themselves ("We are …", "Our staff …", "I run …")
_OF_THEMSELVES = re.compile(r"^\W*(?:we|our|ours|us|i|my|i'm|we're|we've|i've)\b", re.IGNORECASE)


def asked_of_documents(question: str) -> str:
    """The question without the statements the user opens it with about themselves; a question that is one
    sentence, or only such statements, is kept whole."""
    sentences = split_sentences(question)
    kept = [s for s in sentences if s.rstrip().endswith("?") or not _OF_THEMSELVES.match(s)]
    return " ".join(kept) if kept and len(kept) < len(sentences) else question
