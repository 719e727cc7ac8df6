"""The honest "not found": one text every engine writes and every reader (the run loop, the pages, the benches)
recognises, so that the LLM engine's one-call answer and the offline answer say it alike and the run knows a step
that found nothing from one that answered."""

from __future__ import annotations

NOT_FOUND = "Not found in the documents."


def is_not_found(answer: str) -> bool:
    """The answer says the documents do not answer (it may go on with the closest thing they do say)."""
    return answer.strip().startswith(NOT_FOUND)
