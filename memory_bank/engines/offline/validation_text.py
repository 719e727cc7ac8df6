"""The wording of a cross-validation verdict, for people: the run log, the Insight Doc, the conflict record.

What was decided travels typed beside it (`ExecutionResult.verdict` -> `IntegrationInput.verdict`); this text is
what the LLM engine's integration prompt and a reader see, and nothing reads it back.
"""

from __future__ import annotations


def verdict(supported: tuple[str, str, str], rejected: tuple[str, str, str]) -> str:
    """(node id, claimed value, evidence note) for each side."""
    return (f"Supported claim: node {supported[0]} says \"{supported[1]}\" — {supported[2]}.\n"
            f"Rejected claim: node {rejected[0]} says \"{rejected[1]}\" — {rejected[2]}.")


def undecided(a: tuple[str, str, str], b: tuple[str, str, str]) -> str:
    return (f"Undecided: the documents do not settle it. Node {a[0]} says \"{a[1]}\" — {a[2]}; "
            f"node {b[0]} says \"{b[1]}\" — {b[2]}.")
