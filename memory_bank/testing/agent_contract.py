"""Each agent of each engine returns its typed output (engines/models.py) and keeps the invariants the loop
relies on. The engine is the one the bank wires (`build_engine`); inputs are built here, as the loop builds them.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from PIL import Image, ImageDraw

from memory_bank import MemoryBank
from memory_bank.engines.base import Engine
from memory_bank.engines.models import (
    AnalysisInput,
    AnalysisOutput,
    ClassificationInput,
    ClassificationOutput,
    ConflictNotice,
    ExecutionInput,
    ExecutionResult,
    ImageDescription,
    ImageInput,
    ImageNotice,
    IntegrationInput,
    IntegrationOutput,
    NodeInfo,
    NodeWithNeighbors,
    PlanningInput,
    PlanningOutput,
    StructureInput,
    StructureOutput,
)
from memory_bank.memory.insight_doc import CompletedTask, InsightDoc, PendingTask, TaskStatus, TaskType
from memory_bank.memory.query_graph import Relation
from memory_bank.run.adapter import Adapter

BUDGET_5 = ("The Northwind project budget is 5 million dollars for the fiscal year 2021. The budget was approved by "
            "the steering board in March 2021 and covers hardware, staff and travel.")
BUDGET_9 = BUDGET_5.replace("5 million", "9 million")
MIGRATION = ("The migration to a zero trust architecture starts with an inventory of all enterprise resources, "
             "subjects and workflows. Each access request is evaluated by the policy engine before a session is "
             "granted.")
LEASES = "The lease of the Stavanger office is extended by two years. Aisha Khan will negotiate the parking contract."
GOAL = "What is the Northwind project budget?"


def flat(text: str) -> str:
    return " ".join(text.split())


def info(summary: str, context: str, keywords: list[str]) -> NodeInfo:
    return NodeInfo(id=uuid.uuid4().hex[:12], summary=summary, context=context, keywords=keywords)


def _merge_input(validation: str | None) -> tuple[IntegrationInput, set[str], set[str]]:
    a, b = info(BUDGET_5, "Northwind budget", ["Northwind"]), info(BUDGET_9, "Northwind budget", ["budget"])
    minutes = info("The board approved the Northwind project with a budget of 5 million dollars.",
                   "Board minutes on Northwind", ["Northwind", "board"])
    inp = IntegrationInput(nodes_to_merge=[NodeWithNeighbors(node=a, neighbors=[minutes, b]),
                                           NodeWithNeighbors(node=b, neighbors=[a])],
                           validation_result=validation,
                           conflict_description="the budget is 5 million vs 9 million" if validation else None)
    return inp, {a.id, b.id}, {minutes.id}


def _planning_input(**extra: object) -> PlanningInput:
    done = [CompletedTask(type=TaskType.NORMAL, description="look around", status=TaskStatus.FAILED,
                          context="nothing found yet")]
    return PlanningInput.model_validate({"insight_doc": InsightDoc(task_goal=GOAL, completed_tasks=done),
                                         "round": 1, "max_rounds": 8, **extra})


def _planned(engine: Engine, inp: PlanningInput) -> PendingTask | None:
    out = engine.planning.run(inp)
    assert isinstance(out, PlanningOutput) and len(out.pending_tasks) <= 1
    assert out.task_goal == GOAL, "planning never rewrites the goal"
    assert [(t.type, t.status) for t in out.completed_tasks] == [(TaskType.NORMAL, TaskStatus.FAILED)]
    return out.pending_tasks[0] if out.pending_tasks else None


class AgentContract:
    """Each agent's contract, for every engine: collected from a subclass named `Test...` whose fixtures give
    `engine` (the `Engine` a bank wires), `bank` (a `MemoryBank` on it) and `northwind` (the three sample notes)."""

    def test_classification_clusters_the_input_text(self, engine: Engine, northwind: list[Path]) -> None:
        text = northwind[2].read_text(encoding="utf-8")
        out = engine.classification.run(ClassificationInput(context=text, task_goal=GOAL, source="project-overview.md"))
        assert isinstance(out, ClassificationOutput) and out.clusters
        for cluster in out.clusters:
            assert flat(cluster.content) in flat(text), "a cluster's content is cut from the input, never written"
            assert cluster.context.strip()
        together = flat(" ".join(c.content for c in out.clusters))
        lost = [line for line in text.splitlines() if line.strip() and flat(line) not in together]
        assert lost == [], "no line of the input is lost, headings included"

    def test_structure_summarises_a_cluster(self, engine: Engine) -> None:
        out = engine.structure.run(StructureInput(content=BUDGET_5, context="Northwind budget",
                                                  keywords=["Northwind", "budget"]))
        assert isinstance(out, StructureOutput) and out.summary.strip()

    def test_analysis_judges_only_the_given_candidates(self, engine: Engine) -> None:
        new = info(BUDGET_5, "Northwind budget", ["Northwind", "budget"])
        conflicting = info(BUDGET_9, "Northwind budget", ["Northwind", "budget"])
        others = [info(MIGRATION, "Zero trust migration plan", ["zero trust", "migration"]),
                  info(LEASES, "Office leases", ["Stavanger", "lease"])]
        out = engine.analysis.run(AnalysisInput(new_node=new, candidates=[conflicting, *others]))
        assert isinstance(out, AnalysisOutput)
        judged = [j.existing_node_id for j in out.relationships]
        assert set(judged) <= {conflicting.id, *(o.id for o in others)} and len(judged) == len(set(judged))
        by_id = {j.existing_node_id: j for j in out.relationships}
        assert by_id[conflicting.id].relationship is Relation.CONFLICT, "the same claim with another figure"
        assert all((j.conflict_description or "").strip() for j in out.relationships
                   if j.relationship is Relation.CONFLICT), "a conflict always says what disagrees"

    def test_integration_merges_and_updates_only_real_neighbours(self, engine: Engine) -> None:
        inp, merged, neighbours = _merge_input(None)
        out = engine.integration.run(inp)
        assert isinstance(out, IntegrationOutput) and out.summary.strip() and out.context.strip()
        assert set(out.neighbor_updates) <= neighbours, "only neighbours outside the merge may be rewritten"
        assert out.rejected_node_id is None, "a duplicate merge rejects nothing"

    def test_integration_of_a_validated_conflict_names_a_merged_side_or_none(self, engine: Engine) -> None:
        # The validation text is each engine's own executor output in a real run, so its wording is free here and
        # an engine may find no verdict in it (rejected_node_id None); what it names must be one of the merged nodes.
        inp, merged, neighbours = _merge_input("The sources support 5 million: the board minutes repeat it.")
        out = engine.integration.run(inp)
        assert isinstance(out, IntegrationOutput) and out.summary.strip()
        assert set(out.neighbor_updates) <= neighbours
        assert out.rejected_node_id is None or out.rejected_node_id in merged

    def test_planning_settles_a_pending_conflict_first(self, engine: Engine) -> None:
        a, b = info(BUDGET_5, "Northwind budget", []), info(BUDGET_9, "Northwind budget", [])
        conflict = ConflictNotice(conflict_id=uuid.uuid4().hex[:12], node_a=a, node_b=b, description="5 vs 9 million")
        task = _planned(engine, _planning_input(conflicts=[conflict],
                                                pending_images=[ImageNotice(image_id="img1", name="chart.png")]))
        assert task is not None and (task.type, task.conflict_id) == (TaskType.CROSS_VALIDATE, conflict.conflict_id)

    def test_planning_describes_a_waiting_image_before_answering(self, engine: Engine) -> None:
        task = _planned(engine, _planning_input(pending_images=[ImageNotice(image_id="img1", name="chart.png")]))
        assert task is not None and (task.type, task.image_id) == (TaskType.IMAGE_RECOGNITION, "img1")

    def test_planning_answers_an_unanswered_goal(self, engine: Engine) -> None:
        task = _planned(engine, _planning_input())
        assert task is not None and task.type is TaskType.NORMAL

    def test_executor_answers_from_memory_and_cites_what_it_was_shown(self, bank: MemoryBank, engine: Engine,
                                                                      northwind: list[Path]) -> None:
        bank.ingest_file(northwind[2])
        task = PendingTask(type=TaskType.NORMAL, description=f"Answer from memory: {GOAL}")
        enhanced = Adapter(bank.view, 2000, 800).enhance(InsightDoc(task_goal=GOAL, pending_tasks=[task]))
        shown = [n.id for n in enhanced.nodes]
        assert shown and enhanced.selection.question == GOAL  # the instruction words are no evidence to look for
        out = engine.executor.run(ExecutionInput(prompt=enhanced.prompt, task=task, task_goal=GOAL,
                                                 memory_node_ids=shown, selection=enhanced.selection))
        assert isinstance(out, ExecutionResult)
        assert out.success and out.termination == "answer" and (out.answer or "").strip()
        assert out.citations and {c.node_id for c in out.citations} <= set(shown)

    def test_image_recognition_describes_a_real_image(self, engine: Engine, tmp_path: Path) -> None:
        path = tmp_path / "chart.png"
        image = Image.new("RGB", (120, 80), "white")
        ImageDraw.Draw(image).rectangle((20, 30, 50, 75), fill="navy")
        image.save(path)
        out = engine.recognizer.run(ImageInput(path=str(path), name="chart.png", task_goal=GOAL))
        assert isinstance(out, ImageDescription) and out.description.strip()
        # How an image is described is the engine's own: a vision model ("vision-llm"), or OCR / the file's
        # metadata offline. The contract only names the method.
        assert out.method in {"vision-llm", "ocr", "metadata"}
