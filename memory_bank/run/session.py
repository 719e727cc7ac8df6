"""A run's sequence, in one place: begin → store the inputs → ingest them → long-term before → the task loop →
long-term after → record the outcome.

`MemoryBank.run` / `resume` / `ingest_file` delegate here. Each piece of work begins with its own cancel token
and its own budgets; with a recorder (the stored task's `TaskBinding`) the inputs are copied into the store first
and the run's outcome is recorded whatever happens, a failure included. The long-term block is handed to the
runner as an argument for this run only: nothing is left set on the adapter afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..control import Cancellation, CancelToken
from ..engines.llm.client import UsageMeter
from ..engines.models import ToolCallRecord
from ..errors import EndpointDown, InputError, MemoryBankError, RunCancelled, RunError, RunFailure
from ..events import AgentFellBack, Event, EventBus
from ..loaders import Document
from ..tools.base import ToolBox
from .inputs import InputIngestion, PlannedInput
from .results import RunResult
from .runner import ENDPOINT_WHERE, TaskRunner, tool_called

if TYPE_CHECKING:
    from .long_term_hook import LongTermHook  # only a bank with long-term memory loads it


@dataclass(frozen=True)
class RunInputs:
    """What a run is given besides its question: files to ingest and pasted text."""

    files: tuple[str | Path, ...] = ()
    text: str | None = None


class RunPlan(Protocol):
    """An interrupted run still to finish (the store's `ResumePlan`)."""

    @property
    def run_id(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def inputs(self) -> Sequence[PlannedInput]: ...


class RunRecorder(Protocol):
    """Where runs are recorded and their input files kept: the stored task's `TaskBinding`."""

    def store_files(self, files: Sequence[str | Path],
                    names: Sequence[str | None] = ()) -> list[tuple[Path, str]]: ...
    def begin_run(self, question: str, files: list[tuple[Path, str]], text: str | None) -> str: ...
    def end_run(self, run_id: str, status: str, result: dict[str, Any] | None) -> list[RunError]: ...
    def resume_plan(self) -> RunPlan: ...
    def resume_run(self, run_id: str) -> None: ...


class RunSession:
    def __init__(self, inputs: InputIngestion, runner: TaskRunner, events: EventBus, cancellation: Cancellation,
                 meter: UsageMeter, long_term: LongTermHook | None, recorder: RunRecorder | None,
                 usage: Callable[[], dict[str, Any]], tools: ToolBox) -> None:
        """`usage`: the bank's usage figures, recorded with each run's outcome; `tools`: the agent's tools, as an
        outer agent calls them."""
        self.inputs, self.runner, self.events, self.long_term = inputs, runner, events, long_term
        self.cancellation, self.meter, self.recorder, self.usage = cancellation, meter, recorder, usage
        self.tools = tools

    def begin(self, cancel: CancelToken | None = None, documents: int = 0) -> CancelToken:
        """A piece of work (a run, or an ingestion outside one) answers to its own cancel token, `cancel` if given
        (the UI keeps it), and has its own budgets (not the last run's); `documents`: the inputs it reads."""
        token = self.cancellation.begin(cancel)
        self.meter.begin_run(documents)
        return token

    def run(self, question: str, inputs: RunInputs = RunInputs(), cancel: CancelToken | None = None) -> RunResult:
        """Ingest what is given, then run the task loop for `question` over the whole memory."""
        token = self.begin(cancel, len(inputs.files) + bool(inputs.text and inputs.text.strip()))
        named = (self.recorder.store_files(inputs.files) if self.recorder
                 else [(Path(f), Path(f).name) for f in inputs.files])
        run_id = self.recorder.begin_run(question, named, inputs.text) if self.recorder else None
        return self._recorded(run_id, lambda: self._run(question, named, inputs.text, token))

    def resume(self, cancel: CancelToken | None = None) -> RunResult:
        """Continue the stored task's interrupted run: the inputs not yet fully ingested from the chunk where
        they stopped, then the loop for its question."""
        if self.recorder is None:
            raise MemoryBankError("only a stored task can be resumed")
        plan = self.recorder.resume_plan()
        token = self.begin(cancel, len(plan.inputs))
        self.recorder.resume_run(plan.run_id)
        return self._recorded(plan.run_id, lambda: self.runner.run(
            plan.question, token, self.inputs.resumed(plan.inputs, plan.question)))

    def ingest_file(self, path: str | Path, name: str | None = None, goal: str | None = None) -> list[str]:
        """One file outside a run; a stored task keeps its own copy (the entries must outlive the caller's file)."""
        self.begin()
        if self.recorder:
            path, name = self.recorder.store_files([path], [name])[0]
        return self.inputs.file(path, name, goal)

    def ingest_text(self, text: str, source: str) -> list[str]:
        if not text.strip():
            raise InputError("the text is empty", source=source)
        self.begin()
        return self.inputs.document(Document.from_text(text, source))

    def call_tool(self, name: str, arguments: dict[str, Any], goal: str = "") -> str:
        """One tool call from an outer agent, published like the agent's own; a failure is published, then raised."""
        try:
            result = self.tools.call(name, arguments, goal=goal)
        except MemoryBankError as exc:
            self.events.publish(tool_called(ToolCallRecord(name=name, arguments=arguments, ok=False,
                                                           response=str(exc))))
            raise
        self.events.publish(tool_called(ToolCallRecord(name=name, arguments=arguments, response=result.text)))
        return result.text

    def _run(self, question: str, files: list[tuple[Path, str]], text: str | None, token: CancelToken) -> RunResult:
        fell_back: list[RunError] = []
        stop = self.events.subscribe(lambda e: fell_back.append(RunError(where=e.where, message=e.message))
                                     if isinstance(e, AgentFellBack) else None)
        try:
            try:
                new_ids, errors = self.inputs.run_inputs(files, text, question)
            except RunCancelled:
                new_ids, errors = [], [RunError(where="ingestion", message="cancelled while ingesting")]
            except EndpointDown as exc:  # the loop meets the same open breaker: the same error, said once
                new_ids, errors = [], [RunError.of(ENDPOINT_WHERE, exc, fatal=True)]
            if self.long_term is None:
                result = self.runner.run(question, token, new_ids)
            else:
                result = self._with_long_term(self.long_term, question, token, new_ids)
        finally:
            stop()
        result.add_errors(errors, first=True)
        result.add_errors(fell_back)  # each agent that fell back to offline, in order (the same failure once)
        return result

    def _with_long_term(self, hook: LongTermHook, question: str, token: CancelToken,
                        new_ids: list[str]) -> RunResult:
        """The run with the user's long-term memory in its prompts, then distilled into it (seed 004 §6.3, §7)."""
        read = self.runner.follow_up(question)  # "Is it improving?" searched as what it asks
        injection = hook.before(read.question if read is not None else question)
        seen: list[Event] = []
        unsubscribe = self.events.subscribe(seen.append)
        try:
            result = self.runner.run(question, token, new_ids, long_term_block=injection.block)
        finally:
            unsubscribe()
        result.long_term = hook.after(result, seen, injection)
        return result

    def _recorded(self, run_id: str | None, work: Callable[[], RunResult]) -> RunResult:
        """Run `work`; with a recorder its outcome (answer, citations, termination, errors, usage) is recorded."""
        if self.recorder is None or run_id is None:
            return work()
        try:
            result = work()
        except BaseException as exc:
            self.recorder.end_run(run_id, "failed", RunFailure.of(exc).model_dump())
            raise
        status = "cancelled" if result.termination == "cancelled" else "done"
        unsaved = self.recorder.end_run(run_id, status, {**result.model_dump(mode="json"), "usage": self.usage()})
        result.add_errors(unsaved)  # the answer is still returned; the store gets it once it takes writes
        return result
