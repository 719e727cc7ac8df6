"""Offline integration: merge nodes into one without repeating a sentence.

For duplicates, the merged summary is the first node's sentences followed by every sentence of the others that
says something new. For a resolved conflict, the node the validation supports comes first; the other node's
sentences that restate the same claim with a different value are not merged into the text but kept at the end
as a noted, rejected variant, so the memory shows what was contradicted and why it lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ..models import IntegrationInput, IntegrationOutput, NodeInfo, Verdict
from .nlp import sentences

_NORM = re.compile(r"[^a-z0-9 ]+")


class Decision(NamedTuple):
    """A decided verdict, flattened for the sentences below."""

    supported: str
    supported_value: str
    rejected: str
    rejected_value: str


@dataclass(frozen=True)
class IntegrationConfig:
    """`duplicate_overlap`: word-set overlap (Jaccard) above which two sentences say the same thing;
    `variant_overlap`: above which a sentence restates a claim of the winning node (so, in a conflict, it is the
    rejected variant rather than new information)."""

    duplicate_overlap: float = 0.8
    variant_overlap: float = 0.5
    max_keywords: int = 12


class OfflineIntegrator:
    name = "integration"

    def __init__(self, config: IntegrationConfig | None = None) -> None:
        self.config = config or IntegrationConfig()

    def run(self, inp: IntegrationInput) -> IntegrationOutput:
        nodes = [n.node for n in inp.nodes_to_merge]
        decision = _decision(inp.verdict)
        if decision is not None and decision.supported in {n.id for n in nodes}:
            nodes = sorted(nodes, key=lambda n: n.id != decision.supported)  # stable: winner first
        moot = inp.verdict is not None and inp.verdict.moot  # nothing left to reject: a duplicate merge
        conflict = not moot and (inp.validation_result is not None or inp.conflict_description is not None)
        body, rejected = self._sentences(nodes, conflict)
        summary = " ".join(body) + _conflict_note(decision, rejected, conflict)
        ids = {n.id for n in nodes}
        rejected_id = decision.rejected if decision is not None and decision.rejected in ids else None
        return IntegrationOutput(summary=summary, context=nodes[0].context,
                                 keywords=self._keywords(nodes), neighbor_updates={},
                                 interaction_tree_description=self._description(nodes, inp, decision),
                                 rejected_node_id=rejected_id)

    def _sentences(self, nodes: list[NodeInfo], conflict: bool) -> tuple[list[str], list[str]]:
        body: list[str] = []
        keys: list[set[str]] = []
        rejected: list[str] = []
        winner_keys: list[set[str]] = []
        for index, node in enumerate(nodes):
            for sentence in sentences(_without_notes(node.summary)):
                key = _key(sentence)
                if key in keys:
                    continue
                if conflict and index > 0 and any(_jaccard(key, k) >= self.config.variant_overlap
                                                   for k in winner_keys):
                    rejected.append(sentence)  # restates a claim of the winner, differently: the variant
                    continue
                if any(_jaccard(key, k) >= self.config.duplicate_overlap for k in keys):
                    continue
                body.append(sentence)
                keys.append(key)
                if index == 0:
                    winner_keys.append(key)
        return body, rejected

    def _keywords(self, nodes: list[NodeInfo]) -> list[str]:
        seen: dict[str, str] = {}
        for node in nodes:
            for kw in node.keywords:
                seen.setdefault(kw.lower(), kw)
        return list(seen.values())[: self.config.max_keywords]

    @staticmethod
    def _description(nodes: list[NodeInfo], inp: IntegrationInput, decision: Decision | None) -> str:
        ids = ", ".join(n.id for n in nodes)
        if inp.validation_result is None and inp.conflict_description is None:
            return f"Merged near-duplicate nodes {ids}; repeated sentences dropped."
        if inp.verdict is not None and inp.verdict.moot:
            return (f"Merged nodes {ids} of a conflict that is moot: once the claim that lost an earlier "
                    f"cross-validation is set aside, they state no value differently.")
        if decision is not None:
            return (f"Resolved conflict ({inp.conflict_description or 'contradicting claims'}): node "
                    f"{decision.supported} is supported by the documents, node {decision.rejected} is kept as a "
                    f"rejected variant. Merged {ids}.")
        return (f"Merged conflicting nodes {ids}; validation could not decide "
                f"({inp.conflict_description or 'contradicting claims'}), both variants are kept.")


def _decision(verdict: Verdict | None) -> Decision | None:
    """(supported, rejected) claims of a decided verdict; None when there is none or it did not decide."""
    if verdict is None or verdict.supported is None or verdict.rejected is None:
        return None
    return Decision(verdict.supported.node_id, verdict.supported.value, verdict.rejected.node_id,
                    verdict.rejected.value)


def _conflict_note(decision: Decision | None, rejected: list[str], conflict: bool) -> str:
    """The rejected side stays visible: its value (from the verdict) and its sentences that were not merged."""
    if not conflict:
        return ""
    quoted = (": " + " ".join(rejected)) if rejected else ""
    if decision is not None:
        return (f"\nCross-validated: the documents support \"{decision.supported_value}\"; "
                f"\"{decision.rejected_value}\" (node {decision.rejected}) is a rejected variant{quoted}")
    return f"\nConflicting variant (unresolved){quoted}" if rejected else ""


def _without_notes(summary: str) -> str:
    """A node merged before carries its conflict note; the note is not content to merge again."""
    for marker in ("\nCross-validated:", "\nConflicting variant"):
        summary = summary.split(marker)[0]
    return summary


def _key(sentence: str) -> set[str]:
    return set(_NORM.sub(" ", sentence.lower()).split())


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
