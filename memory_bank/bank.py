"""`MemoryBank`: the memory of one task, and the public API (see README).

A facade only: the parts are built by `wiring`, memory guards itself (`Memory.write()` / `read()`), the engines
read it through a `MemoryReader`, and one `Cancellation` gives each run or ingestion its own cancel token. Agents
run outside any lock, so a UI thread can take a snapshot at any time while a run goes on in a worker thread.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import wiring
from .control import Cancellation, CancelToken
from .engines.base import Engine
from .engines.llm.client import LLMClient, UsageMeter
from .errors import InputError, MemoryBankError, RunCancelled
from .events import AgentFellBack, AnswerDelta, ErrorRaised, Event, EventBus
from .ingest.pipeline import IngestReport
from .loaders import Document, load_file
from .memory.interaction_tree import Attachment, AttachmentType, InteractionEntry
from .memory.query_graph import Node, PendingConflict
from .memory.snapshot import BankSnapshot, take_snapshot
from .memory.store import Memory
from .memory.temp_store import TempImage, TempStore
from .retrieval.deep_retrieval import DeepRetrieval
from .retrieval.embedding import Embedder, load_embedder
from .retrieval.view import Passage
from .run.results import RunResult
from .run.runner import tool_called
from .settings import Settings
from .text.tokens import estimate_tokens


class MemoryBank:
    def __init__(self, settings: Settings | None = None, *, embedder: Embedder | None = None,
                 llm_client: LLMClient | None = None, engine: Engine | None = None,
                 workdir: str | Path | None = None, _memory: Memory | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self.events = EventBus()
        self.embedder = embedder or load_embedder(self.settings.embedding_model_path)
        self.cancellation = Cancellation()
        self.meter = UsageMeter(self.settings.max_llm_calls, self.settings.max_tokens)
        self._core = wiring.build_core(self.settings, self.embedder, self.events, _memory)
        self.memory = self._core.memory
        self.view = self._core.reader
        root = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="memory-bank-", dir=self.settings.temp_dir))
        self.temp = TempStore(root)
        self.llm = wiring.metered(self.settings, llm_client, self.events, self.cancellation, self.meter)
        self.engine = engine or wiring.build_engine(self.settings, embedder=self.embedder, view=self.view,
                                                    llm=self.llm,
                                                    on_tool_call=lambda call: self.events.publish(tool_called(call)),
                                                    events=self.events, on_answer_text=self._answer_text)
        self._loop = wiring.build_loop(self.settings, self._core, self.engine, self.embedder, self.events,
                                       self.temp, self.cancellation)
        self.reports: list[IngestReport] = []
        if self.embedder.warning:
            self.events.publish(ErrorRaised(where="embedding", message=self.embedder.warning))

    # -- events and state ---------------------------------------------------------------------------------

    def _answer_text(self, text: str) -> None:
        """The answer as the ReAct agent writes it, with the run's calls and tokens so far (the call being
        streamed is counted when it ends, so its tokens are estimated from the text until then)."""
        run = self.meter.run_usage()
        self.events.publish(AnswerDelta(text=text, llm_calls=run.calls + 1,
                                        tokens=run.tokens + estimate_tokens(text)))

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        return self.events.subscribe(callback)

    def snapshot(self) -> BankSnapshot:
        with self.memory.read():
            return take_snapshot(self.memory, self.usage())

    def usage(self) -> dict[str, Any]:
        total, run = self.meter.totals(), self.meter.run_usage()
        return {"calls": total.calls, "prompt_tokens": total.prompt_tokens,
                "completion_tokens": total.completion_tokens, "run_calls": run.calls, "run_tokens": run.tokens,
                "max_llm_calls": self.settings.max_llm_calls, "max_tokens": self.settings.max_tokens,
                "per_agent": self.meter.snapshot()}

    # -- ingestion ----------------------------------------------------------------------------------------

    def ingest_file(self, path: str | Path, name: str | None = None, goal: str | None = None) -> list[str]:
        """Load and ingest one file; returns the ids of the nodes created. Bad files raise `InputError`;
        `cancel()` while it runs raises `RunCancelled` and keeps what was already stored."""
        self.cancellation.begin()
        return self._ingest_file(path, name, goal)

    def _load(self, path: str | Path, name: str | None = None) -> Document:
        return load_file(path, name=name, max_bytes=self.settings.max_file_mb * 1024 * 1024,
                         max_image_pixels=self.settings.max_image_pixels)

    def _ingest_file(self, path: str | Path, name: str | None = None, goal: str | None = None,
                     defer_images: bool = False) -> list[str]:
        """Ingest a loaded file; an image is described at once, or with `defer_images` waits in the temp store
        for the run's IMAGE_RECOGNITION task."""
        doc = self._load(path, name)
        if doc.kind == "image":
            image = self.temp.add_image(Path(doc.path or ""), doc.name, doc.metadata)
            return [] if defer_images else self._ingest_image(image, goal)
        attachment = Attachment(id=f"doc-{doc.name}", type=AttachmentType.DOCUMENT, path=doc.path or "",
                                mime=str(doc.metadata.get("mime", "")))
        return self._ingest(doc, goal, (attachment,))

    def ingest_text(self, text: str, source: str = "notes") -> list[str]:
        if not text.strip():
            raise InputError("the text is empty", source=source)
        self.cancellation.begin()
        return self._ingest(Document.from_text(text, source))

    def add_image(self, path: str | Path, name: str | None = None) -> str:
        """Queue an image for the next run's IMAGE_RECOGNITION task; returns its temp id."""
        doc = self._load(path, name)
        if doc.kind != "image":
            raise InputError("is not an image", source=doc.name)
        return self.temp.add_image(Path(doc.path or ""), doc.name, doc.metadata).image_id

    def _ingest(self, doc: Document, goal: str | None = None, attachments: tuple[Attachment, ...] = ()) -> list[str]:
        report = self._loop.pipeline.run(doc, self._goal(goal), attachments)
        return self._checked(report)

    def _goal(self, goal: str | None) -> str:
        if goal is not None:
            return goal
        with self.memory.read():
            return self.memory.insight_doc.task_goal

    def _checked(self, report: IngestReport) -> list[str]:
        self.reports.append(report)
        if not report.node_ids and report.failures:
            raise MemoryBankError(f"{report.source}: nothing could be ingested ({report.failures[0]})")
        return report.node_ids

    def _ingest_image(self, image: TempImage, goal: str | None) -> list[str]:
        return self._checked(self._loop.runner.recognise_image(image, self._goal(goal))[1])

    # -- retrieval: the same read-only view the engines read -----------------------------------------------

    def ranked(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[tuple[Node, float]]:
        return self.view.ranked(query, k, exclude)

    def retrieve(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        return self.view.retrieve(query, k, exclude)

    def memory_prompt(self, question: str, budget_tokens: int | None = None) -> str:
        """The <memory> block an agent is handed for `question`: evidence in relevance order, within
        `budget_tokens` (the settings' `memory_budget_tokens` by default)."""
        return self._loop.adapter.memory_block(question, budget_tokens)[0]

    def deep_retrieve(self, node_id: str, with_attachments: bool = True) -> DeepRetrieval:
        return self.view.deep_retrieve(node_id, with_attachments)

    def node(self, node_id: str) -> Node:
        return self.view.node(node_id)

    def neighbors(self, node_id: str) -> list[Node]:
        return self.view.neighbors(node_id)

    def entries_for(self, node_id: str) -> list[InteractionEntry]:
        return self.view.entries_for(node_id)

    def search_passages(self, query: str, k: int) -> list[Passage]:
        return self.view.search_passages(query, k)

    def conflict(self, conflict_id: str) -> PendingConflict:
        return self.view.conflict(conflict_id)

    def rejected_entries(self) -> set[str]:
        return self.view.rejected_entries()

    # -- the loop ------------------------------------------------------------------------------------------

    def run(self, question: str, files: Sequence[str | Path] = (), text: str | None = None,
            cancel: CancelToken | None = None) -> RunResult:
        """Ingest what is given, then run the task loop for `question` over the whole memory. The run answers
        to its own cancel token: `cancel` if given (the UI keeps it), a fresh one otherwise."""
        token = self.cancellation.begin(cancel)
        self.meter.begin_run()
        fell_back: list[str] = []
        stop = self.events.subscribe(lambda e: fell_back.append(f"{e.where}: {e.message}")
                                     if isinstance(e, AgentFellBack) else None)
        try:
            try:
                new_ids, errors = self._ingest_inputs(files, text, question)
            except RunCancelled:
                new_ids, errors = [], ["cancelled while ingesting"]
            result = self._loop.runner.run(question, token, new_ids)
        finally:
            stop()
        result.errors[:0] = errors
        result.errors.extend(fell_back)  # each agent that fell back to offline on one input, in order
        return result

    def _ingest_inputs(self, files: Sequence[str | Path], text: str | None,
                       goal: str) -> tuple[list[str], list[str]]:
        new_ids: list[str] = []
        errors: list[str] = []
        for f in files:
            try:
                new_ids.extend(self._ingest_file(f, goal=goal, defer_images=True))
            except RunCancelled:
                raise
            except MemoryBankError as exc:
                errors.append(str(exc))
                self.events.publish(ErrorRaised(where=f"ingest {Path(f).name}", message=str(exc)))
        if text and text.strip():
            new_ids.extend(self._ingest(Document.from_text(text, "pasted text"), goal))
        return new_ids, errors

    def cancel(self) -> None:
        """Stop the running run (or ingestion) at its next safe point; what was built stays."""
        self.cancellation.cancel()

    def clear(self) -> None:
        """End the task: memory and temp files go."""
        with self.memory.write():
            self.temp.clear()
            self._core.clear()

    # -- export -------------------------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        from .memory.export import export_memory

        with self.memory.read():
            return export_memory(self.memory, self.settings, self.meter.snapshot(), self.embedder.name,
                                 [e.to_dict() for e in self.events.log()])

    @classmethod
    def from_export(cls, data: dict[str, Any] | str | bytes, settings: Settings | None = None,
                    **kwargs: Any) -> MemoryBank:
        from .memory.export import import_memory

        memory = import_memory(data)
        bank = cls(settings, _memory=memory, **kwargs)
        bank._core.ops.reindex_all()
        return bank
