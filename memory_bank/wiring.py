"""Wiring: builds the parts of one memory bank from settings and injected dependencies.

Kept apart from `MemoryBank` so the facade reads as the public API and this file reads as the object graph:
memory and its index (`Core`), the engine that reads memory through a `MemoryReader`, and the loop that changes
it (`Loop`). Everything a test may want to replace (embedder, LLM client, engine) is a parameter.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .control import Cancellation
from .engines.base import Engine
from .engines.llm.breaker import EndpointBreaker
from .engines.llm.client import LLMClient, MeteredClient, UsageMeter
from .engines.llm.cost import prices_from
from .engines.llm.live import LiveCalls, PlanRules
from .engines.models import Citation, ToolCallRecord
from .errors import ConfigError
from .events import AnswerDelta, EventBus
from .ingest.graph_ops import GraphOps
from .ingest.linker import Linker
from .ingest.pipeline import IngestPipeline
from .ingest.sections import SectionNodes
from .memory.bank_files import BankFiles
from .memory.insight_ops import InsightOps
from .memory.pending_images import PendingImages
from .memory.query_graph import Node
from .memory.store import Memory
from .retrieval.deep_retrieval import DeepRetriever
from .retrieval.documents import DocumentPages
from .retrieval.embedding import Embedder
from .retrieval.hybrid_index import HybridIndex
from .retrieval.passages import PassageSearch
from .retrieval.reader import MemoryReader
from .retrieval.rerank import SentenceReranker
from .retrieval.retriever import Retriever
from .retrieval.view import MemoryView
from .run.adapter import Adapter
from .run.inputs import InputIngestion
from .run.runner import TaskRunner, tool_called
from .run.session import RunRecorder, RunSession
from .settings import Settings
from .structure.build import StructureBuilder
from .text.tokens import tokens_for_chars
from .tools.base import Tool, ToolBox
from .tools.deep_retrieval_tool import DeepRetrievalTool
from .tools.local_search import LocalSearchTool
from .watchdog import Cancellable

if TYPE_CHECKING:
    from .engines.compose import Label
    from .long_term.memory import LongTermMemory
    from .long_term.recovery import RecoveringToolBox
    from .run.long_term_hook import LongTermHook
    from .store.base import TaskStore
    from .store.binding import TaskBinding


@dataclass
class Core:
    """The non-LLM parts: memory, its index and retrieval, the one mutation path, and the read-only view."""

    memory: Memory
    index: HybridIndex
    retriever: Retriever
    ops: GraphOps
    passages: PassageSearch
    documents: DocumentPages
    reader: MemoryReader

    def clear(self) -> None:
        """End the task: memory, index, passage index and parsed documents go together."""
        with self.memory.write():
            self.ops.clear()
            self.passages.clear()
            self.documents.clear()


def bank_files(settings: Settings, workdir: str | Path | None, store: TaskStore | None = None,
               task_id: str | None = None) -> BankFiles:
    """Where a bank keeps its files (images waiting to be described, stored attachments) and whether ending the
    task removes the folder: a stored task's folder of the store (its files outlive the process, as its rows do;
    ending the task removes them), else the caller's `workdir` (kept), else a fresh temp folder (removed)."""
    if store is not None and task_id is not None and workdir is None:
        return BankFiles(store.task_folder(task_id, create=True), owned=True)
    root = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="memory-bank-", dir=settings.temp_dir))
    return BankFiles(root, owned=workdir is None)


def build_core(settings: Settings, embedder: Embedder, events: EventBus, memory: Memory | None = None,
               files: BankFiles | None = None) -> Core:
    """`files`: the bank's storage, the only place deep retrieval reads attachments from (none: it reads none)."""
    memory = memory or Memory()
    index = HybridIndex(embedder.dim)
    retriever = Retriever(memory.graph, index, embedder, settings.retrieval_k, settings.retrieval_alpha,
                          SentenceReranker(memory.source_text))
    passages = PassageSearch(memory)
    documents = DocumentPages(settings.max_file_mb * 1024 * 1024, settings.max_image_pixels)
    reader = MemoryReader(memory, retriever, passages, DeepRetriever(memory, documents.read, files))
    return Core(memory, index, retriever, GraphOps(memory, index, embedder, events), passages, documents, reader)


@dataclass
class Loop:
    """What changes memory for the engine: ingestion, linking, the adapter's prompts and the task loop."""

    linker: Linker
    pipeline: IngestPipeline
    adapter: Adapter
    runner: TaskRunner


def build_loop(settings: Settings, core: Core, engine: Engine, embedder: Embedder, events: EventBus,
               images: PendingImages, cancellation: Cancellation) -> Loop:
    linker = Linker(engine, core.ops, core.retriever, core.memory, settings, events, cancellation.check)
    pipeline = IngestPipeline(engine, core.ops, linker, embedder, settings, events, cancellation.check,
                              StructureBuilder(), SectionNodes(core.ops, embedder))
    adapter = Adapter(core.reader, settings.memory_budget_tokens, settings.task_budget_tokens)
    runner = TaskRunner(engine, core.memory, InsightOps(core.memory, events), pipeline, linker, adapter, images,
                        settings, events)
    return Loop(linker, pipeline, adapter, runner)


@dataclass
class Parts:
    """One bank's object graph below its run session."""

    core: Core
    llm: MeteredClient | None
    tools: ToolBox
    engine: Engine
    loop: Loop
    long_term: LongTermHook | None  # the run's two long-term moments, with the user's long-term memory only


def build_parts(settings: Settings, embedder: Embedder, events: EventBus, cancellation: Cancellation,
                meter: UsageMeter, images: PendingImages, task_id: Callable[[], str | None], *,
                memory: Memory | None = None,
                llm_client: LLMClient | None = None, engine: Engine | None = None,
                long_term: LongTermMemory | None = None) -> Parts:
    """`task_id`: the stored task's id, read when asked (a bank is bound to its task after it is built); what the
    long-term records learnt here name. An `engine` given is used as is (a test's)."""
    core = build_core(settings, embedder, events, memory, images.files)
    llm = metered(settings, llm_client, events, cancellation, meter)
    tools = build_tools(settings, core.reader, llm, cancellation)
    source = source_task(task_id)
    recovering = recovering_tools(settings, tools, long_term, llm, events, source) if long_term is not None else None
    tools = recovering if recovering is not None else tools
    engine = engine or build_engine(settings, embedder=embedder, view=core.reader, llm=llm, toolbox=tools,
                                    on_tool_call=lambda call: events.publish(tool_called(call)),
                                    cancel=cancellation, events=events, on_answer_text=answer_deltas(meter, events),
                                    label=meter.live.working_on)
    events.subscribe(meter.live.hear)  # the run's remaining work, for the time-left estimate
    loop = build_loop(settings, core, engine, embedder, events, images, cancellation)
    hook = (long_term_hook(settings, long_term, engine, llm, loop, events, recovering, source)
            if long_term is not None and recovering is not None else None)
    return Parts(core, llm, tools, engine, loop, hook)


def usage_meter(settings: Settings) -> UsageMeter:
    """The bank's meter: its budgets and prices, and the calls in flight with what the settings make a run plan."""
    return UsageMeter(settings.max_llm_calls, settings.max_tokens, prices_from(settings), settings.max_cost,
                      live=LiveCalls(PlanRules.of(settings)))


def answer_deltas(meter: UsageMeter, events: EventBus) -> Callable[[str, int], None]:
    """What the agents call with each new piece of the answer as they write it: an `AnswerDelta` with the run's
    calls and tokens so far (the call being streamed is counted when it ends, so its tokens are estimated from
    the answer until then)."""
    def publish(text: str, offset: int) -> None:
        run = meter.run_usage()
        events.publish(AnswerDelta(text=text, offset=offset, llm_calls=run.calls + 1,
                                   tokens=run.tokens + tokens_for_chars(offset + len(text))))

    return publish


def task_binding(store: TaskStore | None, stored: tuple[str, dict[str, int]] | None, memory: Memory,
                 events: EventBus, meter: UsageMeter) -> TaskBinding | None:
    """The bank bound to its stored task (none without a store); the usage it stores adds this process's to what
    the task had used before."""
    if store is None or stored is None:
        return None
    from .memory.export import sum_usage
    from .store.binding import TaskBinding

    return TaskBinding(store, stored[0], memory, events, lambda: sum_usage(memory.prior_usage, meter.snapshot()),
                       stored[1])


def build_session(settings: Settings, parts: Parts, images: PendingImages, events: EventBus, cancellation: Cancellation,
                  meter: UsageMeter, recorder: RunRecorder | None, usage: Callable[[], dict[str, Any]]) -> RunSession:
    """The run sequence over the loop; `recorder`: the stored task's binding (none for a bank in memory)."""
    core, loop, long_term, tools = parts.core, parts.loop, parts.long_term, parts.tools
    inputs = InputIngestion(settings, core.memory, images, loop.pipeline, loop.runner, events)
    return RunSession(inputs, loop.runner, events, cancellation, meter, long_term, recorder, usage, tools)


def web_tools(settings: Settings, extractor, cancel: Cancellable | None = None) -> tuple[Tool | None, Tool]:  # noqa: ANN001
    """The web search backend named by the settings (or none) and the visit tool; a cancel of the run ends a
    fetch in flight."""
    from .tools.visit import VisitTool
    from .tools.web_search import SearxngSearch, SerperSearch

    web: Tool | None = None
    if settings.serper_api_key is not None:
        web = SerperSearch(settings.secret("serper_api_key") or "", timeout=settings.visit_timeout, cancel=cancel)
    elif settings.searxng_url:
        web = SearxngSearch(settings.searxng_url, timeout=settings.visit_timeout, cancel=cancel)
    visit = VisitTool(timeout=settings.visit_timeout, max_bytes=settings.visit_max_bytes,
                      allow_private=settings.visit_allow_private, extractor=extractor,
                      jina_api_key=settings.secret("jina_api_key"), cancel=cancel)
    return web, visit


def build_toolbox(settings: Settings, view: MemoryView, extractor,  # noqa: ANN001
                  cancel: Cancellable | None = None) -> ToolBox:
    web, visit = web_tools(settings, extractor, cancel)
    return ToolBox([LocalSearchTool(view, web, k=settings.retrieval_k), visit, DeepRetrievalTool(view.deep_retrieve)])


def build_tools(settings: Settings, view: MemoryView, llm: LLMClient | None,
                cancel: Cancellable | None = None) -> ToolBox:
    """The agent's tools; `visit` keeps what serves the goal with the LLM when the LLM engine runs, else with
    keyword extraction."""
    extractor = None
    if settings.needs_llm and llm is not None:
        from .engines.llm.visit_extractor import LLMExtractor

        extractor = LLMExtractor(llm, settings)
    return build_toolbox(settings, view, extractor, cancel)


def source_task(stored: Callable[[], str | None]) -> Callable[[], str]:
    """The task id a bank's long-term records name as their source: the stored task's (read when asked, since a
    bank is bound to its task after it is built), else one of the bank's own while it is kept in memory only."""
    unsaved = f"unsaved-{uuid.uuid4().hex[:12]}"
    return lambda: stored() or unsaved


def recovering_tools(settings: Settings, tools: ToolBox, ltm: LongTermMemory, llm: LLMClient | None,
                     events: EventBus, task_id: Callable[[], str | None] = lambda: None) -> RecoveringToolBox:
    """The tools with long-term error recovery: the LLM engine analyses a new error with its prompt, the offline
    engine with the built-in rules."""
    from .long_term.recovery import RecoveringToolBox, RuleAnalyst

    if settings.needs_llm and llm is not None:
        from .long_term.llm_agents import LLMErrorAnalyst

        return RecoveringToolBox(tools, ltm, LLMErrorAnalyst(llm, settings), events.publish, task_id)
    return RecoveringToolBox(tools, ltm, RuleAnalyst(settings.visit_timeout), events.publish, task_id)


def long_term_hook(settings: Settings, ltm: LongTermMemory, engine: Engine, llm: LLMClient | None, loop: Loop,
                   events: EventBus, tools: RecoveringToolBox,
                   task_id: Callable[[], str | None] = lambda: None) -> LongTermHook:
    from .long_term.distill import Distiller, RuleDistiller
    from .run.long_term_hook import LongTermHook

    distiller: Distiller
    if engine.uses_llm and llm is not None:
        from .long_term.llm_agents import LLMDistiller

        distiller = LLMDistiller(llm, settings)
    else:
        distiller = RuleDistiller()
    return LongTermHook(ltm, distiller, events, settings.long_term_budget_tokens, tools, task_id,
                        loop.adapter.blocks.view)


def build_engine(settings: Settings, *, embedder: Embedder, view: MemoryView, llm: LLMClient | None,
                 events: EventBus, on_tool_call: Callable[[ToolCallRecord], None] | None = None,
                 on_answer_text: Callable[[str, int], None] | None = None, toolbox: ToolBox | None = None,
                 cancel: Cancellable | None = None, label: Label | None = None) -> Engine:
    """The engine the settings select: offline, or each agent slot on the engine chosen for it (LLM slots get
    the metered client and the toolbox, the full one built here unless one is given, and fall back to the
    offline agent on a failed input; with `label`, their calls name the input they serve)."""
    from .engines.offline.engine import build_offline_engine

    offline = build_offline_engine(settings, embedder, view)
    if not settings.needs_llm:
        return offline
    settings.check_llm()
    if llm is None:
        raise ValueError("the LLM engine needs an LLM client")
    from .engines.compose import compose_engine
    from .engines.llm.engine import build_llm_engine
    from .engines.offline.structure import OfflineStructurer

    extractive = offline.structure if isinstance(offline.structure, OfflineStructurer) else None
    llm_engine = build_llm_engine(settings, llm, toolbox or build_tools(settings, view, llm, cancel), on_tool_call,
                                  on_answer_text, extractive)
    if settings.answers_in_one_call():
        llm_engine = one_call_engine(settings, llm_engine, llm, view, offline, on_answer_text)
    return compose_engine(settings, llm_engine, offline, events.publish, label)


def one_call_engine(settings: Settings, llm_engine: Engine, llm: LLMClient, view: MemoryView, offline: Engine,
                    on_answer_text: Callable[[str, int], None] | None) -> Engine:
    """The LLM engine with its answers written in one grounded call (`engines/one_call.py`) and its other
    executor tasks done offline; uncited sentences are traced with the run's grounding, over the view."""
    from dataclasses import replace

    from .engines.one_call import OneCallAnswerer
    from .run.grounding import ground

    def trace(claim: str, nodes: list[Node]) -> list[Citation]:
        return ground(claim, nodes, view.entries_for, view.rejected_entries())

    answerer = OneCallAnswerer(llm, settings, view, trace, offline.executor, on_answer_text)
    return replace(llm_engine, executor=answerer, label=f"{llm_engine.label}, one grounded call per answer")


def metered(settings: Settings, client: LLMClient | None, events: EventBus, cancellation: Cancellation,
            meter: UsageMeter) -> MeteredClient | None:
    """Wrap the given client, or build the OpenAI one when the LLM engine is selected. Its retry backoff sleeps
    on the cancellation and a cancel interrupts its request in flight, so a cancelled run waits for neither; the
    breaker is shared, so calls waiting to retry stop as soon as one call finds the endpoint down."""
    breaker = EndpointBreaker(settings.llm_max_consecutive_failures)
    if client is None and settings.needs_llm:
        settings.check_llm()
        if settings.needs_local_server:
            raise ConfigError("The local model runs in a server this process starts: start a LocalModelServer "
                              "and use its settings_for(settings) (the app and the CLI do this).")
        from .engines.llm.openai_client import OpenAIClient

        client = OpenAIClient(settings, sleep=cancellation.wait, cancel=cancellation, breaker=breaker)
    if client is None:
        return None
    return MeteredClient(client, meter, events, cancellation, breaker=breaker, secrets=settings.secret_values())
