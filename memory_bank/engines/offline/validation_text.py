"""The wording of a cross-validation verdict, written by the executor and read back by integration.

The verdict travels as text (the loop hands `ExecutionResult.answer` to integration as the validation result,
as it does for the LLM engine), so it is plain English a person can read, with two fixed line openings that the
offline integration agent parses to know which node won.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SUPPORTED = re.compile(r'^Supported claim: node ([\w-]+) says "(.*?)" — ', re.M)
_REJECTED = re.compile(r'^Rejected claim: node ([\w-]+) says "(.*?)" — ', re.M)


@dataclass(frozen=True)
class Decision:
    supported: str
    supported_value: str
    rejected: str | None
    rejected_value: str


def verdict(supported: tuple[str, str, str], rejected: tuple[str, str, str]) -> str:
    """(node id, claimed value, evidence note) for each side."""
    return (f"Supported claim: node {supported[0]} says \"{supported[1]}\" — {supported[2]}.\n"
            f"Rejected claim: node {rejected[0]} says \"{rejected[1]}\" — {rejected[2]}.")


def undecided(a: tuple[str, str, str], b: tuple[str, str, str]) -> str:
    return (f"Undecided: the documents do not settle it. Node {a[0]} says \"{a[1]}\" — {a[2]}; "
            f"node {b[0]} says \"{b[1]}\" — {b[2]}.")


def decision_of(text: str) -> Decision | None:
    supported = _SUPPORTED.search(text)
    rejected = _REJECTED.search(text)
    if supported is None:
        return None
    return Decision(supported.group(1), supported.group(2), rejected.group(1) if rejected else None,
                    rejected.group(2) if rejected else "")
