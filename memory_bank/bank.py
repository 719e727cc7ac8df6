"""`MemoryBank`: the memory of one task, and the public API (see README).

A facade only: the parts are built by `wiring`, memory guards itself (`Memory.write()` / `read()`), the engines
read it through a `MemoryReader`, and one `Cancellation` gives each run or ingestion its own cancel token. Agents
run outside any lock, so a UI thread can take a snapshot at any time while a run goes on in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import wiring
from .control import Cancellation, CancelToken
from .engines.base import Engine
from .engines.llm.client import LLMClient
from .events import ErrorRaised, Event, EventBus
from .memory.interaction_tree import InteractionEntry
from .memory.pending_images import PendingImages
from .memory.query_graph import Node, PendingConflict
from .memory.snapshot import BankSnapshot, RunUsage, take_snapshot
from .memory.store import Memory
from .retrieval.deep_retrieval import DeepRetrieval
from .retrieval.embedding import Embedder, embedder_for
from .retrieval.view import Passage
from .run.results import RunResult
from .run.session import RunInputs
from .settings import Settings

if TYPE_CHECKING:
    from .long_term.memory import LongTermMemory
    from .store.base import RunRecord, TaskStore
    from .store.persist import SaveStatus


class MemoryBank:
    def __init__(self, settings: Settings | None = None, *, embedder: Embedder | None = None,
                 llm_client: LLMClient | None = None, engine: Engine | None = None,
                 workdir: str | Path | None = None, long_term: LongTermMemory | None = None,
                 store: TaskStore | None = None, task_name: str = "", owner: str | None = None,
                 _memory: Memory | None = None, _stored: tuple[str, dict[str, int]] | None = None) -> None:
        """`long_term`: the user's memory across tasks (seed 004); without it the bank is the task memory alone.
        With a `store`, the bank is a stored task of `owner` (a new one, or the one `open` loaded): every change is
        written there within a second, and its files live in the task's folder of the store. Without one it lives
        in memory only."""
        self.settings = settings or Settings.from_env()
        self.events = EventBus()
        self.embedder = embedder or embedder_for(self.settings)
        self.cancellation = Cancellation()
        self.meter = wiring.usage_meter(self.settings)
        if store is not None and _stored is None:
            _stored = store.create_task(task_name, "", self.embedder.name, owner), {}
        # the files the bank keeps (stored attachments), and the images waiting for a run to describe them
        self.files = wiring.bank_files(self.settings, workdir, store, _stored[0] if _stored else None)
        self.images = PendingImages(self.files)
        self.workdir = self.files.root  # clear() removes the folder when the bank made it
        parts = wiring.build_parts(self.settings, self.embedder, self.events, self.cancellation, self.meter,
                                   self.images, lambda: self.task_id, memory=_memory, llm_client=llm_client,
                                   engine=engine, long_term=long_term)
        self._core, self._loop, self.llm, self.tools, self.engine = (parts.core, parts.loop, parts.llm, parts.tools,
                                                                     parts.engine)
        self.memory, self.view, self.long_term = self._core.memory, self._core.reader, long_term
        if _memory is None:
            self.memory.embedding_model = self.embedder.name  # every vector of this memory is this model's
        if self.embedder.warning:
            self.events.publish(ErrorRaised(where="embedding", message=self.embedder.warning))
        self._task = wiring.task_binding(store, _stored, self.memory, self.events, self.meter)
        self._session = wiring.build_session(self.settings, parts, self.images, self.events, self.cancellation,
                                             self.meter, self._task, self.usage)
        self.reports = self._session.inputs.reports  # what each ingestion did, in order

    @classmethod
    def open(cls, task_id: str, store: TaskStore, settings: Settings | None = None, *,
             stale_seconds: float | None = None, **kwargs: Any) -> MemoryBank:
        """Reopen a stored task: memory, run log and usage as they were last written. A run left 'running' by
        a process that died (no heartbeat for `stale_seconds`) is marked 'interrupted' (see `resume`).
        `TaskNotFound` for an unknown id, `StoreError` for a damaged or newer database or bad stored data."""
        from .store.binding import load_task, released_on_error

        memory, seqs = load_task(store, task_id, stale_seconds)
        with released_on_error(store, task_id):
            bank = cls(settings, _memory=memory, store=store, _stored=(task_id, seqs), **kwargs)
        bank._reindex_all()
        return bank

    def _reindex_all(self) -> None:
        """Index what an import or a reopen brought; say so when its vectors were another model's."""
        made_by = self.memory.embedding_model or "an unnamed model"
        if replaced := self._core.ops.reindex_all():
            self.events.publish(ErrorRaised(where="embedding", message=(
                f"This memory's vectors were made by {made_by[:80]}; its {replaced} nodes were embedded again "
                f"with {self.embedder.name}, so that questions and nodes are measured by the same model.")))

    @property
    def task_id(self) -> str | None:
        """The stored task's id (its link), or None for a bank kept in memory only."""
        return self._task.task_id if self._task else None

    def stored_runs(self) -> list[RunRecord]:
        """Every run of the stored task, oldest first, with its answer once it finished ([] without a store)."""
        return self._task.runs() if self._task else []

    def flush(self) -> None:
        """Write pending changes to the store now (it happens by itself within about a second). `StoreError`
        when the store does not take them: they stay in memory, and a later flush that succeeds writes them."""
        if self._task:
            self._task.persistence.flush()

    def save_status(self) -> SaveStatus | None:
        """Whether all of the memory is in the store (None without a store): a failed write shows here."""
        return self._task.persistence.status() if self._task else None

    def close(self, save: bool = True) -> None:
        """Stop writing to the store after a final flush; the bank is not to be used afterwards. When that flush
        fails, `StoreError` and the bank keeps saving in the background: call again once the cause is fixed.
        `save=False`: stop without a final write (the task is about to be deleted)."""
        if self._task:
            self._task.close(save)

    # -- events and state ---------------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        return self.events.subscribe(callback)

    def event_log(self) -> list[dict[str, Any]]:
        """The task's whole run log as plain records: what an import or the store brought, then this session's."""
        with self.memory.read():
            prior = list(self.memory.prior_log)
        return prior + [e.to_dict() for e in self.events.log()]

    def snapshot(self) -> BankSnapshot:
        usage = self.run_usage()
        with self.memory.read():
            return take_snapshot(self.memory, usage, self.meter.live.view(len(self.memory.pending_conflicts())))

    def run_usage(self) -> RunUsage:
        return self.meter.usage()

    def usage(self) -> dict[str, Any]:
        """`run_usage()` in the form a run's record and the task row store."""
        return self.run_usage().as_dict()

    # -- ingestion ----------------------------------------------------------------------------------------

    def ingest_file(self, path: str | Path, name: str | None = None, goal: str | None = None) -> list[str]:
        """Load and ingest one file; returns the ids of the nodes created. Bad files raise `InputError`;
        `cancel()` while it runs raises `RunCancelled` and keeps what was already stored."""
        return self._session.ingest_file(path, name, goal)

    def ingest_text(self, text: str, source: str = "notes") -> list[str]:
        return self._session.ingest_text(text, source)

    def add_image(self, path: str | Path, name: str | None = None) -> str:
        """Queue an image for the next run's IMAGE_RECOGNITION task; returns its temp id."""
        return self._session.inputs.image(path, name)

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

    def rejected_claims(self) -> set[str]:
        return self.view.rejected_claims()

    def table_entries(self) -> list[tuple[InteractionEntry, tuple[str, ...]]]:
        return self.view.table_entries()

    def section_nodes(self) -> list[Node]:
        return self.view.section_nodes()

    # -- the loop ------------------------------------------------------------------------------------------

    def run(self, question: str, files: Sequence[str | Path] = (), text: str | None = None,
            cancel: CancelToken | None = None) -> RunResult:
        """Ingest what is given, then run the task loop for `question` over the whole memory (the sequence is
        `run/session.py`). The run answers to its own cancel token: `cancel` if given (the UI keeps it), a fresh
        one otherwise."""
        return self._session.run(question, RunInputs(tuple(files), text), cancel)

    def resume(self, cancel: CancelToken | None = None) -> RunResult:
        """Continue the stored task's interrupted run: the inputs not yet fully ingested from the chunk where
        they stopped (what a crash left half stored is not stored twice), then the loop for its question."""
        return self._session.resume(cancel)

    def call_tool(self, name: str, arguments: dict[str, Any], goal: str = "") -> str:
        """Call one of the agent's tools (search, visit, deep_retrieval) as an outer agent would: with long-term
        memory, a failing call is recovered first (seed 004 §8). Returns what the agent reads; a failure that
        could not be recovered raises `ToolError`."""
        return self._session.call_tool(name, arguments, goal)

    def cancel(self) -> None:
        """Stop the running run (or ingestion) at its next safe point; what was built stays."""
        self.cancellation.cancel()

    def clear(self) -> None:
        """End the task: the memory, the pending images and the bank's files go."""
        with self._task.persistence.paused() if self._task else nullcontext():
            with self.memory.write():
                self.images.clear()
                self.files.clear()
                self._core.clear()
            if self._task:
                self._task.clear()

    # -- export -------------------------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        from .memory.export import export_memory

        with self.memory.read():
            return export_memory(self.memory, self.settings, self.meter.snapshot(), self.embedder.name,
                                 [e.to_dict() for e in self.events.log()])

    @classmethod
    def from_export(cls, data: dict[str, Any] | str | bytes, settings: Settings | None = None, *,
                    files_from: str | Path | None = None, **kwargs: Any) -> MemoryBank:
        """A bank holding an export's memory. The export is untrusted: a bad one is an `ImportFormatError` naming
        the field, and its attachments are read only from this bank's storage; `files_from` is the folder of a
        bank the caller trusts (`bank.workdir`), whose stored files are copied in (an attachment whose file is in
        neither place is shown as unreadable)."""
        from .memory.export import import_memory

        settings = settings or Settings.from_env()
        embedder = kwargs.pop("embedder", None) or embedder_for(settings)
        memory = import_memory(data)
        # with store=: a new stored task holding all of it
        bank = cls(settings, _memory=memory, embedder=embedder, **kwargs)
        if files_from is not None:
            paths = {a.path for e in memory.tree.entries.values() for a in e.attachments if a.path}
            for path in sorted(paths):
                bank.files.copy_from(Path(files_from), path)
        bank._reindex_all()
        if bank._task:
            bank._task.record_imported_runs(memory.prior_log)
        return bank
