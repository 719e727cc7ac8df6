"""A tiny rule-based engine for testing the loop's mechanics without either real engine.

Rules are explicit and visible in the test data: each paragraph is one cluster; `DUP` in two texts means merge,
`FACT:x=1` vs `FACT:x=2` means conflict, a shared word in ALLCAPS means related.
"""

from __future__ import annotations

import re

from memory_bank.engines.base import Engine
from memory_bank.engines.models import (
    AnalysisInput,
    AnalysisOutput,
    Citation,
    ClassificationInput,
    ClassificationOutput,
    Cluster,
    ExecutionInput,
    ExecutionResult,
    ImageDescription,
    ImageInput,
    IntegrationInput,
    IntegrationOutput,
    PlanningInput,
    PlanningOutput,
    RelationJudgement,
    StructureInput,
    StructureOutput,
)
from memory_bank.memory.insight_doc import TaskType
from memory_bank.memory.query_graph import Relation

FACT = re.compile(r"FACT:(\w+)=(\w+)")
CAPS = re.compile(r"\b[A-Z]{4,}\b")


class Classify:
    name = "classification"

    def run(self, inp: ClassificationInput) -> ClassificationOutput:
        paras = [p.strip() for p in inp.context.split("\n\n") if p.strip()]
        return ClassificationOutput(clusters=[Cluster(cluster_id=str(i), context=" ".join(p.split()[:6]),
                                                      content=p, keywords=sorted(set(CAPS.findall(p))))
                                              for i, p in enumerate(paras)])


class Structure:
    name = "structure"

    def run(self, inp: StructureInput) -> StructureOutput:
        return StructureOutput(summary=inp.content)


class Analyse:
    name = "analysis"

    def run(self, inp: AnalysisInput) -> AnalysisOutput:
        out = []
        new = inp.new_node.summary
        for c in inp.candidates:
            facts_new, facts_old = dict(FACT.findall(new)), dict(FACT.findall(c.summary))
            clash = [k for k in facts_new if k in facts_old and facts_new[k] != facts_old[k]]
            if clash:
                rel, extra = Relation.CONFLICT, {"conflict_description": f"{clash[0]} differs"}
            elif "DUP" in new and "DUP" in c.summary:
                rel, extra = Relation.MERGE, {}
            elif set(CAPS.findall(new)) & set(CAPS.findall(c.summary)) - {"DUP", "FACT"}:
                rel, extra = Relation.RELATED, {"context_update_existing": f"related: {c.context}"}
            else:
                rel, extra = Relation.UNRELATED, {}
            out.append(RelationJudgement(existing_node_id=c.id, relationship=rel, reasoning="rule", **extra))
        return AnalysisOutput(relationships=out)


class Integrate:
    name = "integration"

    def run(self, inp: IntegrationInput) -> IntegrationOutput:
        summaries = list(dict.fromkeys(n.node.summary for n in inp.nodes_to_merge))
        if inp.validation_result:
            summaries = [s for s in summaries if inp.validation_result in s] or summaries[:1]
        neighbours = {nb.id: {"context": f"neighbour of merged: {nb.context}", "keywords": nb.keywords}
                      for n in inp.nodes_to_merge for nb in n.neighbors}
        return IntegrationOutput(summary=" ".join(summaries), context=inp.nodes_to_merge[0].node.context,
                                 keywords=sorted({k for n in inp.nodes_to_merge for k in n.node.keywords}),
                                 neighbor_updates=neighbours, interaction_tree_description="merged by rule")


class Plan:
    name = "planning"

    def run(self, inp: PlanningInput) -> PlanningOutput:
        return PlanningOutput(task_goal=inp.insight_doc.task_goal,
                              completed_tasks=inp.insight_doc.completed_tasks, pending_tasks=[])


class Execute:
    name = "executor"

    def __init__(self, winner: str = "FACT:year=1990") -> None:
        self.winner = winner
        self.seen: list[ExecutionInput] = []

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        self.seen.append(inp)
        if inp.task.type is TaskType.CROSS_VALIDATE:
            return ExecutionResult(answer=self.winner, summary=f"validated {self.winner}")
        cites = [Citation(node_id=i) for i in inp.memory_node_ids[:1]]
        return ExecutionResult(answer=f"answer to {inp.task_goal}", citations=cites, summary="answered")


class Recognise:
    name = "recognizer"

    def run(self, inp: ImageInput) -> ImageDescription:
        return ImageDescription(description=f"a picture named {inp.name}", method="test")


def fake_engine(executor: Execute | None = None) -> Engine:
    return Engine(name="fake", label="Fake engine", classification=Classify(), structure=Structure(),
                  analysis=Analyse(), integration=Integrate(), planning=Plan(),
                  executor=executor or Execute(), recognizer=Recognise())
