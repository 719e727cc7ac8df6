"""The task loop: plan one step, execute it, intercept its context, plan again (DESIGN §4).

Each question gets a fresh Insight Doc over the same memory; one leaning on the task's previous question ("Is it
improving?") is first read against that doc's goal (`text/follow_up.py`), and its answer says how. The loop
stops when planning leaves nothing pending, at the hard cap on rounds, when a budget is used up, or when the user
cancels; in every case what was built stays in memory and the result says why it stopped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..control import CancelToken
from ..engines.base import Engine
from ..engines.models import (
    Citation,
    ConflictNotice,
    ExecutionInput,
    ExecutionResult,
    ImageDescription,
    ImageInput,
    ImageNotice,
    PlanningInput,
    ToolCallRecord,
)
from ..engines.protocol.answer_cap import cap_answer
from ..engines.protocol.not_found import is_not_found
from ..errors import STOPS_THE_RUN, BudgetExceeded, EndpointDown, MemoryBankError, RunCancelled, RunError
from ..events import AnswerReady, ErrorRaised, EventBus, RuleDecided, ToolCalled
from ..ingest.linker import Linker, node_info
from ..ingest.pipeline import IngestPipeline, IngestReport
from ..loaders.document import Document
from ..memory.insight_doc import CompletedTask, PendingTask, TaskStatus, TaskType
from ..memory.insight_ops import InsightOps
from ..memory.interaction_tree import Attachment, AttachmentType
from ..memory.pending_images import PendingImages, TempImage
from ..memory.query_graph import Node
from ..memory.store import Memory
from ..settings import Settings
from ..text.follow_up import FollowUp, read_follow_up
from .adapter import Adapter
from .grounding import ground
from .planning_guard import RULE, Decision, guard_next, rule_decision
from .results import RunResult, Termination

ENDPOINT_WHERE = "LLM endpoint"  # where a run records the endpoint going down, wherever it was met


def tool_called(call: ToolCallRecord) -> ToolCalled:
    return ToolCalled(tool=call.name, arguments=call.arguments, ok=call.ok, summary=call.response[:200])


@dataclass
class _RunState:
    question: str
    answer: str | None = None
    citations: list[Citation] = field(default_factory=list)
    new_nodes: list[str] = field(default_factory=list)
    errors: list[RunError] = field(default_factory=list)
    rounds: int = 0
    answered_round: int | None = None  # the round whose NORMAL step wrote an answer that is not "not found"
    long_term_block: str = ""  # the user's long-term memory for this run, in every prompt it builds


class TaskRunner:
    def __init__(self, engine: Engine, memory: Memory, insight: InsightOps, pipeline: IngestPipeline, linker: Linker,
                 adapter: Adapter, images: PendingImages, settings: Settings, events: EventBus) -> None:
        """`insight`: the one writer of the Insight Doc; the runner reads the doc but changes it only there."""
        self.engine, self.memory, self.insight, self.pipeline, self.linker = engine, memory, insight, pipeline, linker
        self.adapter, self.images, self.settings, self.events = adapter, images, settings, events

    def run(self, question: str, cancel: CancelToken, new_nodes: list[str] | None = None,
            long_term_block: str = "") -> RunResult:
        start = time.perf_counter()
        follow_up = self.follow_up(question)
        goal = follow_up.question if follow_up else question
        state = _RunState(question=goal, new_nodes=list(new_nodes or []), long_term_block=long_term_block)
        self.insight.begin(goal)
        termination: Termination = "done"
        stop_reason = ""
        try:
            self._plan(state, state.new_nodes)
            termination = self._rounds(state, cancel)
            if state.answer is None and termination in ("done", "max_rounds"):
                self._final_answer(state)
        except BudgetExceeded as exc:
            termination, stop_reason = "budget", str(exc)
            self._record_error(state, "budget", exc, fatal=True)
        except EndpointDown as exc:
            termination, stop_reason = "endpoint_down", str(exc)
            self._record_error(state, ENDPOINT_WHERE, exc, fatal=True)
        except RunCancelled:
            termination = "cancelled"
        answer = state.answer or "No answer was produced (see the run log)."
        if follow_up is not None:  # a guess: said first, so a wrong one is seen
            answer = f"{follow_up.note()}\n{answer}"
        self.events.publish(AnswerReady(question=question, answer=answer,
                                        citations=tuple(c.model_dump() for c in state.citations)))
        return RunResult(question=question, answer=answer, citations=state.citations,
                         insight_doc=self.insight.copy(), termination=termination,
                         rounds=state.rounds, seconds=time.perf_counter() - start, errors=state.errors,
                         new_node_ids=state.new_nodes, stop_reason=stop_reason, follow_up=follow_up)

    def follow_up(self, question: str) -> FollowUp | None:
        """How `question` leans on the task's previous question, as that was read: what a run asks, and what
        the session's long-term memory is searched with before it."""
        with self.memory.read():
            return read_follow_up(question, self.memory.insight_doc.task_goal)

    def _rounds(self, state: _RunState, cancel: CancelToken) -> Termination:
        """How the loop ended. At the cap on rounds, a cross-validation still waiting is the memory's own
        upkeep, not the question's work (a 10-K flags tens of conflicts and each takes a round): the question
        is answered all the same and its conflicts stay pending, shown as such, so that run is "done";
        "max_rounds" says the cap cut work the answer was waiting for."""
        while self.memory.insight_doc.next_task is not None:
            if state.rounds >= self.settings.max_rounds:
                upkeep = self.memory.insight_doc.next_task.type is TaskType.CROSS_VALIDATE
                return "done" if upkeep else "max_rounds"
            cancel.check()
            task = self.memory.insight_doc.next_task
            state.rounds += 1
            done, fresh = self._execute(state, task)
            self.insight.complete(done)
            state.new_nodes.extend(fresh)
            self._plan(state, fresh)
        return "done"

    # -- planning -------------------------------------------------------------------------------------------

    def _plan(self, state: _RunState, fresh: list[str]) -> None:
        """The next step: the rules' own where they leave no choice (no planning call), else the planning
        agent's proposal within the rules. The decision, who made it and why, goes to the run log."""
        with self.memory.read():
            decision = rule_decision(goal=state.question, conflicts=self.memory.pending_conflicts(),
                                     images=self.images.pending(), answered=state.answer is not None,
                                     at_round_cap=state.rounds >= self.settings.max_rounds,
                                     worked_on_goal=any(t.type is TaskType.NORMAL
                                                        for t in self.memory.insight_doc.completed_tasks),
                                     just_answered=state.answered_round == state.rounds)
            planning_input = self._planning_input(state, fresh)
        if decision is None:
            decision = self._ask_planner(state, planning_input)
        elif decision.task is None:  # no task to announce: the run log says the rules ended it, and why
            self.events.publish(RuleDecided(agent=self.engine.planning.name, reason=decision.reason))
        self.insight.plan(decision.task, by=decision.by, reason=decision.reason)

    def _ask_planner(self, state: _RunState, planning_input: PlanningInput) -> Decision:
        proposed: PendingTask | None = None
        failed = False
        try:
            out = self.engine.planning.run(planning_input)
            proposed = out.pending_tasks[0] if out.pending_tasks else None
            self.insight.revise(out.completed_tasks)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            self._record_error(state, "planning", exc)
            failed = True
        with self.memory.read():
            decision = guard_next(proposed, goal=state.question, conflicts=self.memory.pending_conflicts(),
                                  images=self.images.pending(), answered=state.answer is not None,
                                  done=self.memory.insight_doc.completed_tasks, failed=failed)
        if decision.by == RULE and not failed:  # the planner's reply was overruled: the log says why
            self._record_error(state, "planning", MemoryBankError(decision.reason))
        return decision

    def _planning_input(self, state: _RunState, fresh: list[str]) -> PlanningInput:
        graph = self.memory.graph
        notices = [ConflictNotice(conflict_id=c.id, node_a=node_info(graph.get(c.node_a)),
                                  node_b=node_info(graph.get(c.node_b)), description=c.description)
                   for c in self.memory.pending_conflicts()]
        return PlanningInput(
            insight_doc=self.insight.copy(),
            new_nodes=[node_info(graph.get(i)) for i in fresh if i in graph][:20],
            conflicts=notices, pending_images=[ImageNotice(image_id=i.image_id, name=i.name)
                                               for i in self.images.pending()],
            round=state.rounds, max_rounds=self.settings.max_rounds, answer_so_far=state.answer)

    # -- execution ------------------------------------------------------------------------------------------

    def _execute(self, state: _RunState, task: PendingTask) -> tuple[CompletedTask, list[str]]:
        try:
            if task.type is TaskType.CROSS_VALIDATE:
                return self._cross_validate(state, task), []
            if task.type is TaskType.IMAGE_RECOGNITION:
                return self._recognise(state, task)
            return self._normal(state, task)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            self._record_error(state, f"{task.type.value} task", exc)
            return CompletedTask(type=task.type, description=task.description, status=TaskStatus.FAILED,
                                 context=str(exc)[:300]), []

    def _run_executor(self, state: _RunState, task: PendingTask) -> ExecutionResult:
        enhanced = self.adapter.enhance(self.memory.insight_doc, task, state.long_term_block)
        nodes = enhanced.nodes
        result = self.engine.executor.run(ExecutionInput(prompt=enhanced.prompt, task=task,
                                                         task_goal=self.memory.insight_doc.task_goal,
                                                         memory_node_ids=[n.id for n in nodes],
                                                         selection=enhanced.selection))
        if result.answer and not result.citations and task.type is TaskType.NORMAL:
            result = result.model_copy(update={"citations": self._grounded(result.answer, nodes)})
        if not result.calls_reported:
            for call in result.tool_calls:
                self.events.publish(tool_called(call))
        if result.termination == "error":  # the executor keeps its partial work and reports instead of raising
            self._record_error(state, f"{task.type.value} task", MemoryBankError(result.summary))
        return result

    def _cross_validate(self, state: _RunState, task: PendingTask) -> CompletedTask:
        conflict = self.memory.conflicts[task.conflict_id or ""]
        result = self._run_executor(state, task)
        if result.answer is None and result.termination == "error":
            # the executor's LLM failed: its summary is an error message, not a validation to merge by
            self.linker.ops.resolve_conflict(conflict.id, None, f"validation failed: {result.summary}"[:1000],
                                             status="failed")
            raise MemoryBankError(f"cross-validation failed: {result.summary}")
        validation = (result.answer or result.summary or "").strip()
        if not validation:
            raise MemoryBankError("cross-validation produced no validation result")
        node = self.linker.resolve_conflict(conflict, validation, result.verdict)
        state.new_nodes.append(node.id)
        return CompletedTask(type=task.type, description=task.description, status=TaskStatus.SUCCESS,
                             context=(result.summary or validation)[:400])

    def _recognise(self, state: _RunState, task: PendingTask) -> tuple[CompletedTask, list[str]]:
        desc, report = self.recognise_image(self.images.get(task.image_id or ""), state.question)
        status = TaskStatus.SUCCESS if report.node_ids else TaskStatus.FAILED
        return CompletedTask(type=task.type, description=task.description, status=status,
                             context=desc.description[:300]), report.node_ids

    def recognise_image(self, image: TempImage, goal: str) -> tuple[ImageDescription, IngestReport]:
        """Describe a waiting image, move it to storage and ingest the description as an image node."""
        desc = self.engine.recognizer.run(ImageInput(path=str(image.path), name=image.name, task_goal=goal))
        stored = self.images.promote(image.image_id)
        attachment = Attachment(id=image.image_id, type=AttachmentType.IMAGE, path=str(stored),
                                description=desc.description[:500], mime=str(image.metadata.get("mime", "")))
        text = f"Image {image.name} ({desc.method}): {desc.description}"
        report = self.pipeline.run(Document.from_text(text, image.name, kind="image", path=str(stored)), goal,
                                   attachments=(attachment,))
        return desc, report

    def _normal(self, state: _RunState, task: PendingTask) -> tuple[CompletedTask, list[str]]:
        result = self._run_executor(state, task)
        fresh = self._ingest_observations(state, result)
        if result.answer:
            state.answer = cap_answer(result.answer, self.settings.max_answer_chars)
            state.citations = self._fill_citations(result.citations)
        ok = result.success and bool(result.answer or fresh)
        if ok and result.answer and not is_not_found(result.answer):
            state.answered_round = state.rounds
        return CompletedTask(type=task.type, description=task.description,
                             status=TaskStatus.SUCCESS if ok else TaskStatus.FAILED,
                             context=(result.summary or result.answer or result.termination)[:400]), fresh

    def _ingest_observations(self, state: _RunState, result: ExecutionResult) -> list[str]:
        """Pages the agent visited are new context: they go through classification -> ... -> linking."""
        fresh: list[str] = []
        for call in result.tool_calls:
            for page in call.pages:
                name = f"{page.title} ({page.url})" if page.title else page.url
                report = self.pipeline.run(Document.from_text(page.evidence, name, kind="web", url=page.url),
                                           state.question)
                fresh.extend(report.node_ids)
                state.errors.extend(report.failures)
        return fresh

    def _final_answer(self, state: _RunState) -> None:
        task = PendingTask(type=TaskType.NORMAL, description=f"Answer now with what memory holds: {state.question}")
        try:
            self._normal(state, task)
        except STOPS_THE_RUN:
            raise
        except MemoryBankError as exc:
            self._record_error(state, "final answer", exc)

    def _grounded(self, answer: str, shown: list[Node]) -> list[Citation]:
        """An answer that cites nothing, traced to the shown nodes that hold its sentences (`grounding.py`)."""
        with self.memory.read():
            rejected = self.memory.rejected_entries()
            return ground(answer, [n for n in shown if n.id in self.memory.graph], self.memory.tree.entries_for,
                          rejected)

    def _fill_citations(self, citations: list[Citation]) -> list[Citation]:
        filled: list[Citation] = []
        with self.memory.read():
            for c in citations:
                node_id = self.memory.resolve_id(c.node_id)
                if node_id is None or any(f.node_id == node_id for f in filled):
                    continue
                node = self.memory.graph.get(node_id)
                source = c.source or "; ".join(dict.fromkeys(s.name for s in node.sources))
                filled.append(Citation(node_id=node_id, source=source, pages=c.pages or node.pages(),
                                       quote=c.quote,
                                       printed_pages=c.printed_pages if c.pages else node.printed_pages(),
                                       section=c.section or list(node.section())))
        return filled

    def _record_error(self, state: _RunState, where: str, exc: Exception, fatal: bool = False) -> None:
        error = RunError.of(where, exc, fatal)
        state.errors.append(error)
        self.events.publish(ErrorRaised(where=error.where, message=error.message, fatal=fatal))
