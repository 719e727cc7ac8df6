"""`MemoryBank`: the memory of one task, and the public API (see README).

The facade owns one lock. Agents run outside it; every read or write of memory happens under it, so a UI thread
can take a snapshot at any time while a run goes on in a worker thread.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import wiring
from .control import CancelToken
from .engines.base import Engine
from .engines.llm.client import LLMClient, UsageMeter
from .errors import InputError, MemoryBankError, RunCancelled
from .events import ErrorRaised, Event, EventBus
from .ingest.linker import Linker
from .ingest.pipeline import IngestPipeline, IngestReport, SourceDoc
from .loaders import load_file
from .loaders.document import LoadedDocument
from .memory.interaction_tree import Attachment, AttachmentType
from .memory.query_graph import Node, PendingConflict
from .memory.snapshot import BankSnapshot, take_snapshot
from .memory.store import Memory
from .memory.temp_store import TempImage, TempStore
from .retrieval.deep_retrieval import DeepRetrieval, DeepRetriever
from .retrieval.embedding import Embedder, load_embedder
from .retrieval.view import Passage
from .run.adapter import Adapter
from .run.results import RunResult
from .run.runner import TaskRunner, tool_called
from .settings import Settings


class MemoryBank:
    def __init__(self, settings: Settings | None = None, *, embedder: Embedder | None = None,
                 llm_client: LLMClient | None = None, engine: Engine | None = None,
                 workdir: str | Path | None = None, _memory: Memory | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self.events = EventBus()
        self.embedder = embedder or load_embedder(self.settings.embedding_model_path)
        self._lock = threading.RLock()
        self.cancel_token = CancelToken()
        self.meter = UsageMeter(self.settings.max_llm_calls, self.settings.max_tokens)
        self._core = wiring.build_core(self.settings, self.embedder, self.events, _memory)
        self.memory = self._core.memory
        root = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="memory-bank-", dir=self.settings.temp_dir))
        self.temp = TempStore(root)
        self._deep = DeepRetriever(self.memory, self._read_document)
        self.llm = wiring.metered(self.settings, llm_client, self.events, self.cancel_token, self.meter)
        self.engine = engine or wiring.build_engine(self.settings, embedder=self.embedder, view=self,
                                                      deep=self._deep, llm=self.llm,
                                                      on_tool_call=lambda call: self.events.publish(tool_called(call)))
        self._active_cancel = self.cancel_token
        self._linker = Linker(self.engine, self._core.ops, self._core.retriever, self.memory, self.settings,
                              self.events, self._lock, self._check_cancel)
        self._pipeline = IngestPipeline(self.engine, self._core.ops, self._linker, self.memory, self.embedder,
                                        self.settings, self.events, self._lock, self._check_cancel)
        self._adapter = Adapter(self._core.retriever, self._lock)
        self._runner = TaskRunner(self.engine, self.memory, self._pipeline, self._linker, self._adapter,
                                  self.temp, self.settings, self.events, self._lock)
        self.reports: list[IngestReport] = []
        self._documents: dict[str, Any] = {}
        if self.embedder.warning:
            self.events.publish(ErrorRaised(where="embedding", message=self.embedder.warning))

    # -- events and state ---------------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        return self.events.subscribe(callback)

    def snapshot(self) -> BankSnapshot:
        with self._lock:
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
        self._fresh_cancel()
        return self._ingest_file(path, name, goal)

    def _fresh_cancel(self) -> None:
        """A new piece of work outside a run starts uncancelled."""
        self.cancel_token.reset()
        self._use_cancel(self.cancel_token)

    def _load(self, path: str | Path, name: str | None = None) -> LoadedDocument:
        return load_file(path, name=name, max_bytes=self.settings.max_file_mb * 1024 * 1024,
                         max_image_pixels=self.settings.max_image_pixels)

    def _ingest_file(self, path: str | Path, name: str | None = None, goal: str | None = None,
                     defer_images: bool = False) -> list[str]:
        """Ingest a loaded file; an image is described at once, or with `defer_images` waits in the temp store
        for the run's IMAGE_RECOGNITION task."""
        doc = self._load(path, name)
        if doc.kind == "image":
            with self._lock:
                image = self.temp.add_image(Path(doc.path), doc.name, doc.metadata)
            return [] if defer_images else self._ingest_image(image, goal)
        attachment = Attachment(id=f"doc-{doc.name}", type=AttachmentType.DOCUMENT, path=doc.path,
                                mime=str(doc.metadata.get("mime", "")))
        return self._ingest(SourceDoc(name=doc.name, pages=[(p.number, p.text) for p in doc.pages],
                                      path=doc.path, kind=doc.kind, attachments=(attachment,)), goal)

    def ingest_text(self, text: str, source: str = "notes") -> list[str]:
        if not text.strip():
            raise InputError("the text is empty", source=source)
        self._fresh_cancel()
        return self._ingest(SourceDoc(name=source, pages=[(None, text)], kind="text"))

    def add_image(self, path: str | Path, name: str | None = None) -> str:
        """Queue an image for the next run's IMAGE_RECOGNITION task; returns its temp id."""
        doc = self._load(path, name)
        if doc.kind != "image":
            raise InputError("is not an image", source=doc.name)
        with self._lock:
            return self.temp.add_image(Path(doc.path), doc.name, doc.metadata).image_id

    def _ingest(self, doc: SourceDoc, goal: str | None = None) -> list[str]:
        report = self._pipeline.run(doc, self.memory.insight_doc.task_goal if goal is None else goal)
        return self._checked(report)

    def _checked(self, report: IngestReport) -> list[str]:
        self.reports.append(report)
        if not report.node_ids and report.failures:
            raise MemoryBankError(f"{report.source}: nothing could be ingested ({report.failures[0]})")
        return report.node_ids

    def _ingest_image(self, image: TempImage, goal: str | None) -> list[str]:
        goal = self.memory.insight_doc.task_goal if goal is None else goal
        return self._checked(self._runner.recognise_image(image, goal)[1])

    # -- retrieval (also the MemoryView the offline executor reads) ----------------------------------------

    def ranked(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[tuple[Node, float]]:
        with self._lock:
            return self._core.retriever.ranked(query, k, exclude)

    def retrieve(self, query: str, k: int | None = None, exclude: set[str] | None = None) -> list[Node]:
        with self._lock:
            return self._core.retriever.retrieve(query, k, exclude)

    def memory_prompt(self, query: str, k: int | None = None) -> str:
        return self._adapter.memory_block(query, k)[0]

    def deep_retrieve(self, node_id: str, with_attachments: bool = True) -> DeepRetrieval:
        with self._lock:
            resolved = self.memory.resolve_id(node_id) or node_id
            return self._deep.run(resolved, with_attachments)

    def node(self, node_id: str) -> Node:
        with self._lock:
            return self.memory.graph.get(node_id)

    def neighbors(self, node_id: str) -> list[Node]:
        with self._lock:
            return [self.memory.graph.get(n) for n in self.memory.graph.neighbors(node_id)]

    def entries_for(self, node_id: str) -> list:
        with self._lock:
            return self.memory.tree.entries_for(node_id)

    def search_passages(self, query: str, k: int) -> list[Passage]:
        with self._lock:
            return self._core.passages.search(query, k)

    def conflict(self, conflict_id: str) -> PendingConflict:
        with self._lock:
            return self.memory.conflicts[conflict_id]

    def rejected_entries(self) -> set[str]:
        with self._lock:
            return self.memory.rejected_entries()

    def _read_document(self, path: str, page_start: int | None, page_end: int | None) -> str:
        """Page text of an attached document, parsed once per bank (deep retrieval reads it often)."""
        if path not in self._documents:
            try:
                self._documents[path] = load_file(path, max_bytes=self.settings.max_file_mb * 1024 * 1024,
                                                  max_image_pixels=self.settings.max_image_pixels)
            except InputError as exc:
                raise ValueError(str(exc)) from exc
        doc = self._documents[path]
        pages = [p for p in doc.pages if page_start is None or p.number is None
                 or page_start <= p.number <= (page_end or page_start)]
        return "\n\n".join(p.text for p in pages)

    # -- the loop ------------------------------------------------------------------------------------------

    def run(self, question: str, files: Sequence[str | Path] = (), text: str | None = None,
            cancel: CancelToken | None = None) -> RunResult:
        """Ingest what is given, then run the task loop for `question` over the whole memory."""
        token = cancel or self.cancel_token
        if cancel is None:
            token.reset()
        self._use_cancel(token)
        self.meter.begin_run()
        try:
            new_ids, errors = self._ingest_inputs(files, text, question)
        except RunCancelled:
            new_ids, errors = [], ["cancelled while ingesting"]
        result = self._runner.run(question, token, new_ids)
        result.errors[:0] = errors
        return result

    def _use_cancel(self, token: CancelToken) -> None:
        self._active_cancel = token
        if self.llm is not None:
            self.llm.cancel = token

    def _check_cancel(self) -> None:
        self._active_cancel.check()

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
            new_ids.extend(self._ingest(SourceDoc(name="pasted text", pages=[(None, text)], kind="text"), goal))
        return new_ids, errors

    def cancel(self) -> None:
        """Stop the running run (or ingestion) at its next safe point; what was built stays."""
        self._active_cancel.cancel()

    def clear(self) -> None:
        """End the task: memory and temp files go."""
        with self._lock:
            self.temp.clear()
            self.memory.clear()
            self._core.index.clear()
            self._core.passages.clear()
            self._documents.clear()

    # -- export -------------------------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        from .memory.export import export_memory

        with self._lock:
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
