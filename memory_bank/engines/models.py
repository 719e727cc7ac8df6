"""Typed inputs and outputs of every agent (DESIGN §3).

Both engines implement the same contracts, so the loop cannot tell them apart. LLM output is validated into the
output models by `llm/structured.py`; offline agents build them directly.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..memory.insight_doc import CompletedTask, InsightDoc, PendingTask
from ..memory.query_graph import Relation, place_label
from ..tools.base import VisitedPage
from .protocol.memory_block import Selection


def _clean_keywords(words: list[str]) -> list[str]:
    seen: list[str] = []
    for w in words:
        w = str(w).strip()
        if w and w.lower() not in {s.lower() for s in seen}:
            seen.append(w)
    return seen[:20]


class NodeInfo(BaseModel):
    """What an agent sees of a node: no embedding."""

    id: str
    summary: str
    context: str
    keywords: list[str] = Field(default_factory=list)
    # the files its text came from: for the rules that spare a call, never shown to a model (`exclude`)
    documents: list[str] = Field(default_factory=list, exclude=True)
    # the sections of those files it was read from (each a path of titles, joined): likewise never shown
    sections: list[str] = Field(default_factory=list, exclude=True)


# --- Classification -------------------------------------------------------------------------------------------

class UnitHint(BaseModel):
    """Where a piece of the document's structure sits in the chunk: an agent that can use it keeps a list with
    its lead-in and a table's rows together, and never puts two sections in one cluster."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    kind: str  # "heading", "paragraph", "item" (a list's), "row" (a table's), "turn"
    group: int  # the unit it belongs to: the items of one list, the rows of one table share it
    section: str = ""  # the title of the section it sits in (a table's caption for its rows)


class ClassificationInput(BaseModel):
    context: str = Field(description="one chunk of text, at most window x chunk_ratio tokens")
    task_goal: str = ""
    source: str = ""
    units: list[UnitHint] = Field(default_factory=list, description="the chunk's structure, when known")


class Cluster(BaseModel):
    cluster_id: str
    context: str = Field(min_length=1, description="one-line topic")
    content: str = Field(min_length=1, description="the cluster's original text")
    keywords: list[str] = Field(default_factory=list)

    _kw = field_validator("keywords")(classmethod(lambda cls, v: _clean_keywords(v)))


class ClassificationOutput(BaseModel):
    should_cluster: bool = True
    clusters: list[Cluster] = Field(default_factory=list)


# --- Structure ------------------------------------------------------------------------------------------------

class StructureInput(BaseModel):
    content: str
    context: str
    keywords: list[str] = Field(default_factory=list)
    # the cluster is document furniture (a table of contents, a notice, a reference list): for the rule that
    # spares its call, never shown to a model (`exclude`)
    furniture: bool = Field(default=False, exclude=True)


class StructureOutput(BaseModel):
    summary: str = Field(min_length=1)


# --- Analysis -------------------------------------------------------------------------------------------------

class AnalysisInput(BaseModel):
    new_node: NodeInfo
    candidates: list[NodeInfo]


class RelationJudgement(BaseModel):
    """One candidate's relation to the new node. A `related` judgement may rewrite the candidate's context and
    keywords; the new node's own rewrite is the output's, once a node (see `AnalysisOutput`)."""

    existing_node_id: str
    relationship: Relation
    reasoning: str = ""
    conflict_description: str | None = None
    context_update_existing: str | None = None
    keywords_update_existing: list[str] | None = None


class AnalysisOutput(BaseModel):
    """The judgements, and the new node's rewritten context and keywords, once for the node: written once a
    related judgement (as the reply shape once asked), the local 1.5B model copied the same rewrite into each,
    and only one was ever applied. The linker applies it only when some candidate ends up related (a rewrite
    states the node's topic in the light of a link; with no link the ingestion's context stands)."""

    relationships: list[RelationJudgement] = Field(default_factory=list)
    context_update_new: str | None = None
    keywords_update_new: list[str] | None = None


# --- Integration ----------------------------------------------------------------------------------------------

class NodeWithNeighbors(BaseModel):
    node: NodeInfo
    neighbors: list[NodeInfo] = Field(default_factory=list)


class Claim(BaseModel):
    node_id: str
    value: str


class Verdict(BaseModel):
    """What a cross-validation decided, typed: the claim the documents support and the one they reject, or
    neither (undecided). It travels beside the human-readable validation text, so integration never parses it."""

    supported: Claim | None = None
    rejected: Claim | None = None
    # the two sides no longer state any value differently (a claim that lost an earlier cross-validation set
    # aside): nothing to reject, the nodes merge as duplicates
    moot: bool = False

    @model_validator(mode="after")
    def _both_or_neither(self) -> Verdict:
        if (self.supported is None) != (self.rejected is None):
            raise ValueError("a verdict names both the supported and the rejected claim, or neither")
        if self.moot and self.supported is not None:
            raise ValueError("a moot conflict supports and rejects nothing")
        return self

    @property
    def decided(self) -> bool:
        """The documents settled it: a side supported over the other, or nothing left to settle."""
        return self.moot or self.supported is not None


class IntegrationInput(BaseModel):
    nodes_to_merge: list[NodeWithNeighbors] = Field(min_length=2)
    validation_result: str | None = None
    verdict: Verdict | None = Field(default=None, description="the typed verdict when the executor gave one")
    conflict_description: str | None = None


class NeighborUpdate(BaseModel):
    context: str
    keywords: list[str] = Field(default_factory=list)


class IntegrationOutput(BaseModel):
    summary: str = Field(min_length=1)
    context: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)
    neighbor_updates: dict[str, NeighborUpdate] = Field(default_factory=dict)
    interaction_tree_description: str = ""
    rejected_node_id: str | None = Field(
        default=None, description="for a cross-validated conflict: the node whose claim the validation rejects")


# --- Planning -------------------------------------------------------------------------------------------------

class ConflictNotice(BaseModel):
    conflict_id: str
    node_a: NodeInfo
    node_b: NodeInfo
    description: str


class ImageNotice(BaseModel):
    image_id: str
    name: str


class PlanningInput(BaseModel):
    insight_doc: InsightDoc
    new_nodes: list[NodeInfo] = Field(default_factory=list)
    conflicts: list[ConflictNotice] = Field(default_factory=list)
    pending_images: list[ImageNotice] = Field(default_factory=list)
    round: int = 0
    max_rounds: int = 8
    answer_so_far: str | None = None


class PlanningOutput(BaseModel):
    task_goal: str
    completed_tasks: list[CompletedTask] = Field(default_factory=list)
    pending_tasks: list[PendingTask] = Field(default_factory=list, max_length=1)


# --- Execution (ReAct or its offline counterpart) ---------------------------------------------------------------

class ToolCallRecord(BaseModel):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    ok: bool = True
    response: str = ""
    pages: list[VisitedPage] = Field(default_factory=list, description="web pages the call read, for ingestion")


class ExecutionInput(BaseModel):
    """`selection`: the typed evidence the <memory> block of `prompt` was rendered from (`run/adapter.py`), the
    one selection both engines answer from."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    prompt: str = Field(description="the enhanced prompt: <task> and <memory> blocks")
    task: PendingTask
    task_goal: str
    memory_node_ids: list[str] = Field(default_factory=list)
    selection: Selection | None = None


class Citation(BaseModel):
    node_id: str
    source: str = ""
    pages: list[int] = Field(default_factory=list)  # PDF page numbers
    quote: str = ""
    printed_pages: dict[int, str] = Field(default_factory=dict)  # PDF page -> printed page, where known
    section: list[str] = Field(default_factory=list)  # the section path the quote was read in, top down

    def where(self) -> str:
        """'file, §2.1 Tenets of Zero Trust, p. 6 (PDF p. 15)': how the answer's reader is told the place."""
        return place_label(self.source, self.section, self.pages, self.printed_pages)


# how an executor's task ended: answered, out of LLM calls or tokens, or failed
ExecutionEnd = Literal["answer", "max_calls", "max_tokens", "error"]


class ExecutionResult(BaseModel):
    answer: str | None = None
    messages: list[dict[str, Any]] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    termination: ExecutionEnd = "answer"
    citations: list[Citation] = Field(default_factory=list)
    success: bool = True
    summary: str = Field(default="", description="1-2 sentences of what the task found, for the Insight Doc")
    calls_reported: bool = Field(default=False, description="each tool call was already reported as it happened")
    verdict: Verdict | None = Field(default=None, description="CROSS_VALIDATE: the typed verdict, when the "
                                    "executor reached one (the offline cross-validator; an LLM leaves it None)")


# --- Image recognition ----------------------------------------------------------------------------------------

class ImageInput(BaseModel):
    path: str
    name: str
    task_goal: str = ""


class ImageDescription(BaseModel):
    description: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)
    method: str = ""  # "vision-llm" | "ocr" | "metadata"
