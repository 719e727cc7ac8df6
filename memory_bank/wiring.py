"""Wiring: builds the parts of one memory bank from settings and injected dependencies.

Kept apart from `MemoryBank` so the facade reads as the public API and this file reads as the object graph:
memory and its index (`Core`), the engine that reads memory through a `MemoryReader`, and the loop that changes
it (`Loop`). Everything a test may want to replace (embedder, LLM client, engine) is a parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import requests

from .control import Cancellation
from .engines.base import Engine
from .engines.llm.client import LLMClient, MeteredClient, UsageMeter
from .engines.models import ToolCallRecord
from .errors import ConfigError
from .events import EventBus
from .ingest.graph_ops import GraphOps
from .ingest.linker import Linker
from .ingest.pipeline import IngestPipeline
from .memory.store import Memory
from .memory.temp_store import TempStore
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
from .run.runner import TaskRunner
from .settings import Settings
from .tools.base import Tool, ToolBox
from .tools.deep_retrieval_tool import DeepRetrievalTool
from .tools.local_search import LocalSearchTool


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


def build_core(settings: Settings, embedder: Embedder, events: EventBus, memory: Memory | None = None) -> Core:
    memory = memory or Memory()
    index = HybridIndex(embedder.dim)
    retriever = Retriever(memory.graph, index, embedder, settings.retrieval_k, settings.retrieval_alpha,
                          SentenceReranker(memory.source_text))
    passages = PassageSearch(memory)
    documents = DocumentPages(settings.max_file_mb * 1024 * 1024, settings.max_image_pixels)
    reader = MemoryReader(memory, retriever, passages, DeepRetriever(memory, documents.read))
    return Core(memory, index, retriever, GraphOps(memory, index, embedder, events), passages, documents, reader)


@dataclass
class Loop:
    """What changes memory for the engine: ingestion, linking, the adapter's prompts and the task loop."""

    linker: Linker
    pipeline: IngestPipeline
    adapter: Adapter
    runner: TaskRunner


def build_loop(settings: Settings, core: Core, engine: Engine, embedder: Embedder, events: EventBus,
               temp: TempStore, cancellation: Cancellation) -> Loop:
    linker = Linker(engine, core.ops, core.retriever, core.memory, settings, events, cancellation.check)
    pipeline = IngestPipeline(engine, core.ops, linker, embedder, settings, events, cancellation.check)
    adapter = Adapter(core.reader, settings.memory_budget_tokens, settings.task_budget_tokens)
    runner = TaskRunner(engine, core.memory, pipeline, linker, adapter, temp, settings, events)
    return Loop(linker, pipeline, adapter, runner)


def web_tools(settings: Settings, session: requests.Session, extractor) -> tuple[Tool | None, Tool]:  # noqa: ANN001
    """The web search backend named by the settings (or none) and the visit tool."""
    from .tools.visit import VisitTool
    from .tools.web_search import SearxngSearch, SerperSearch

    web: Tool | None = None
    if settings.serper_api_key is not None:
        web = SerperSearch(settings.secret("serper_api_key") or "", timeout=settings.visit_timeout, session=session)
    elif settings.searxng_url:
        web = SearxngSearch(settings.searxng_url, timeout=settings.visit_timeout, session=session)
    visit = VisitTool(timeout=settings.visit_timeout, max_bytes=settings.visit_max_bytes,
                      allow_private=settings.visit_allow_private, session=session, extractor=extractor,
                      jina_api_key=settings.secret("jina_api_key"))
    return web, visit


def build_toolbox(settings: Settings, view: MemoryView, session: requests.Session, extractor) -> ToolBox:  # noqa: ANN001
    web, visit = web_tools(settings, session, extractor)
    return ToolBox([LocalSearchTool(view, web, k=settings.retrieval_k), visit, DeepRetrievalTool(view.deep_retrieve)])


def build_engine(settings: Settings, *, embedder: Embedder, view: MemoryView, llm: LLMClient | None,
                 events: EventBus, on_tool_call: Callable[[ToolCallRecord], None] | None = None,
                 on_answer_text: Callable[[str], None] | None = None) -> Engine:
    """The engine the settings select: offline, or each agent slot on the engine chosen for it (LLM slots get
    the metered client and the full toolbox, and fall back to the offline agent on a failed input)."""
    from .engines.offline.engine import build_offline_engine

    offline = build_offline_engine(settings, embedder, view)
    if not settings.needs_llm:
        return offline
    settings.check_llm()
    if llm is None:
        raise ValueError("the LLM engine needs an LLM client")
    from .engines.compose import compose_engine
    from .engines.llm.engine import build_llm_engine
    from .engines.llm.visit_extractor import LLMExtractor

    toolbox = build_toolbox(settings, view, requests.Session(), LLMExtractor(llm, settings))
    llm_engine = build_llm_engine(settings, llm, toolbox, on_tool_call, on_answer_text)
    return compose_engine(settings, llm_engine, offline, events.publish)


def metered(settings: Settings, client: LLMClient | None, events: EventBus, cancellation: Cancellation,
            meter: UsageMeter) -> MeteredClient | None:
    """Wrap the given client, or build the OpenAI one when the LLM engine is selected. Its retry backoff sleeps
    on the cancellation, so a cancelled run does not wait out a backoff."""
    if client is None and settings.needs_llm:
        settings.check_llm()
        if settings.llm_provider == "local" and not settings.llm_base_url:
            raise ConfigError("The local model runs in a server this process starts: start a LocalModelServer "
                              "and use its settings_for(settings) (the app and the CLI do this).")
        from .engines.llm.openai_client import OpenAIClient

        client = OpenAIClient(settings, sleep=cancellation.wait)
    return MeteredClient(client, meter, events, cancellation) if client is not None else None
