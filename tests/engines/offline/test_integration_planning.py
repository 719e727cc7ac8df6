"""Offline integration (no repeated sentences; a validated conflict keeps the loser as a rejected variant) and
offline planning (one-step rules)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from memory_bank.engines.models import (
    Claim,
    ConflictNotice,
    ImageNotice,
    IntegrationInput,
    NodeInfo,
    NodeWithNeighbors,
    PlanningInput,
    Verdict,
)
from memory_bank.engines.offline.integration import OfflineIntegrator
from memory_bank.engines.offline.nlp import sentences
from memory_bank.engines.offline.planning import OfflinePlanner
from memory_bank.engines.offline.validation_text import verdict
from memory_bank.memory.insight_doc import CompletedTask, InsightDoc, TaskStatus, TaskType

from .texts import LIGHTHOUSE, LIGHTHOUSE_EDITED, SUPER_BOWL


def item(node_id: str, summary: str, keywords: list[str] | None = None) -> NodeWithNeighbors:
    return NodeWithNeighbors(node=NodeInfo(id=node_id, summary=summary, context=summary.split(",")[0],
                                           keywords=keywords or []))


def test_merge_drops_repeated_sentences() -> None:
    extra = "The Broncos finished the regular season with a 12–4 record."
    out = OfflineIntegrator().run(IntegrationInput(nodes_to_merge=[
        item("a", SUPER_BOWL, ["Super Bowl 50", "Denver Broncos"]),
        item("b", SUPER_BOWL + " " + extra, ["Denver Broncos", "Levi's Stadium"])]))
    merged = sentences(out.summary)
    assert len(merged) == len(set(merged)) == len(sentences(SUPER_BOWL)) + 1
    assert merged[-1] == extra
    assert out.keywords == ["Super Bowl 50", "Denver Broncos", "Levi's Stadium"]


def test_validated_conflict_keeps_the_loser_as_rejected_variant() -> None:
    validation = verdict(("old", "1875", "2 other passages repeat it"), ("new", "1920", "no passage repeats it"))
    decided = Verdict(supported=Claim(node_id="old", value="1875"), rejected=Claim(node_id="new", value="1920"))
    out = OfflineIntegrator().run(IntegrationInput(
        nodes_to_merge=[item("new", LIGHTHOUSE_EDITED), item("old", LIGHTHOUSE)],
        validation_result=validation, verdict=decided, conflict_description="1875 vs 1920"))
    body, note = out.summary.split("\nCross-validated: ")
    assert "Built in 1875" in body and "1920" not in body
    assert note.startswith('the documents support "1875"; "1920" (node new) is a rejected variant: ')
    assert "Built in 1920" in note
    assert "node old is supported" in out.interaction_tree_description
    assert out.rejected_node_id == "new"


def test_the_decision_comes_from_the_typed_verdict_not_the_text() -> None:
    """The text is for people and the LLM; without a typed verdict the offline integrator decides nothing."""
    validation = verdict(("old", "1875", "2 other passages repeat it"), ("new", "1920", "no passage repeats it"))
    out = OfflineIntegrator().run(IntegrationInput(
        nodes_to_merge=[item("new", LIGHTHOUSE_EDITED), item("old", LIGHTHOUSE)],
        validation_result=validation, conflict_description="1875 vs 1920"))
    assert out.rejected_node_id is None and "could not decide" in out.interaction_tree_description


def test_undecided_conflict_keeps_both_variants_marked_unresolved() -> None:
    out = OfflineIntegrator().run(IntegrationInput(
        nodes_to_merge=[item("a", LIGHTHOUSE), item("b", LIGHTHOUSE_EDITED)],
        validation_result="Undecided: the documents do not settle it.", verdict=Verdict(),
        conflict_description="1875 vs 1920"))
    assert "1875" in out.summary and "(unresolved)" in out.summary and "1920" in out.summary
    assert out.rejected_node_id is None


def test_a_verdict_names_both_claims_or_neither() -> None:
    with pytest.raises(ValidationError):
        Verdict(supported=Claim(node_id="a", value="1875"))


def planning_input(**kw) -> PlanningInput:  # noqa: ANN003
    doc = kw.pop("doc", InsightDoc(task_goal="When was Egg Rock Light built?"))
    return PlanningInput(insight_doc=doc, **kw)


def conflict_notice() -> ConflictNotice:
    a, b = NodeInfo(id="a", summary="x", context="x"), NodeInfo(id="b", summary="y", context="y")
    return ConflictNotice(conflict_id="c1", node_a=a, node_b=b, description="1875 vs 1920")


def test_planning_rules_in_priority_order() -> None:
    planner = OfflinePlanner()
    (task,) = planner.run(planning_input(conflicts=[conflict_notice()],
                                         pending_images=[ImageNotice(image_id="i1", name="scan.png")])).pending_tasks
    assert task.type is TaskType.CROSS_VALIDATE and task.conflict_id == "c1"
    (task,) = planner.run(planning_input(pending_images=[ImageNotice(image_id="i1", name="scan.png")])).pending_tasks
    assert task.type is TaskType.IMAGE_RECOGNITION and task.image_id == "i1"
    (task,) = planner.run(planning_input()).pending_tasks
    assert task.type is TaskType.NORMAL and "Egg Rock" in task.description


def test_planning_ends_once_answered_or_at_the_cap() -> None:
    planner = OfflinePlanner()
    assert planner.run(planning_input(answer_so_far="Built in 1875.")).pending_tasks == []
    done = InsightDoc(task_goal="q", completed_tasks=[CompletedTask(type=TaskType.NORMAL, description="answer",
                                                                    status=TaskStatus.SUCCESS)])
    out = planner.run(planning_input(doc=done))
    assert out.pending_tasks == [] and out.completed_tasks == done.completed_tasks
    assert planner.run(planning_input(conflicts=[conflict_notice()], round=8, max_rounds=8)).pending_tasks == []
