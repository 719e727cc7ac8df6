"""Agentic Memory Bank: manage the long context of one task for an LLM agent.

This module is the public API: everything an application (the Streamlit UI included) needs, and nothing it should
reach past. Names are resolved lazily (PEP 562) so that `import memory_bank` stays cheap: no torch, no
sentence-transformers, no OpenAI SDK, no pydantic until a name that needs them is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module (relative to this package) that defines it
_EXPORTS: dict[str, str] = {
    # the facade and its configuration
    "MemoryBank": ".bank",
    "Settings": ".settings",
    # what a run returns
    "RunResult": ".run.results",
    "Citation": ".engines.models",
    **{name: ".memory.insight_doc" for name in ("InsightDoc", "CompletedTask", "PendingTask", "TaskStatus",
                                                "TaskType")},
    # cancelling a run from another thread
    "CancelToken": ".control",
    # how many runs go at once in one server process; the others wait in line
    "RunSlots": ".run.slots",
    # events published while the memory forms and a run goes on
    **{name: ".events" for name in (
        "Event", "NodeAdded", "NodeUpdated", "NodesMerged", "EdgeAdded", "ConflictFlagged", "ConflictResolved",
        "TaskPlanned", "TaskCompleted", "ToolCalled", "Progress", "LLMUsage", "AnswerReady", "ErrorRaised",
        "SubscriberFailed", "Subscriber", "LongTermInjected", "ToolRecovered", "LongTermLearned", "ChunksStored",
        "event_from_dict", "AgentFellBack", "AnswerDelta", "ReadingStopped", "SaveFailed", "SaveRecovered",
        "RuleDecided")},
    "AnswerDraft": ".text.buffer",
    # errors: every one is a MemoryBankError
    **{name: ".errors" for name in (
        "MemoryBankError", "InputError", "ImportFormatError", "LLMError", "AgentOutputError", "BudgetExceeded",
        "RunCancelled", "ToolError", "ConfigError", "LongTermStoreError", "StoreError", "TaskNotFound", "TaskBusy")},
    # what a run recorded and went on from, and why one failed: typed, not "Type: message" strings
    **{name: ".errors" for name in ("RunError", "RunFailure")},
    # the task store (SQLite or PostgreSQL): tasks that survive a reload, a restart or a crash
    **{name: ".store" for name in ("SqlTaskStore", "TaskStore", "TaskSummary", "RunRecord", "SaveStatus")},
    # multi-user mode: accounts, sign-in, sessions (single-user: everything is LOCAL_USER's)
    **{name: ".accounts" for name in ("Accounts", "SessionPolicy", "SignedIn", "Throttle", "sign_in")},
    "LOCAL_USER": ".limits",
    "MAX_PASSWORD": ".accounts.users",
    # the bounds every value from outside is held to (one set: entry points and the export schema share it)
    **{name: ".limits" for name in ("MAX_TASK_NAME", "shorten_name")},
    # long-term memory across tasks (seed 004)
    "LongTermMemory": ".long_term.memory",
    **{name: ".long_term.models" for name in (
        "MemoryRecord", "Category", "Injection", "InjectedItem", "LongTermUse", "AnswerUse", "RecoveryMetadata",
        "Provenance", "Source")},
    "reflection_body": ".long_term.memory",
    "record_withheld": ".long_term.vetting",
    "source_line": ".long_term.markdown",
    # read-only views of the memory
    **{name: ".memory.snapshot" for name in ("BankSnapshot", "NodeView", "ConflictView", "MergeEventView", "RunUsage",
                                             "Tally", "LiveProgress", "LiveCall", "CallSpeed", "TimeLeft")},
    "Community": ".memory.communities",
    "find_communities": ".memory.communities",
    "DeepRetrieval": ".retrieval.deep_retrieval",
    "EntryView": ".retrieval.deep_retrieval",
    "AttachmentContent": ".retrieval.deep_retrieval",
    "page_span": ".text.pages",
    # untrusted text made harmless where it is shown or stored
    "md_escape": ".text.escape",
    "safe_name": ".text.escape",
    "pages_label": ".text.pages",
    "place_label": ".memory.query_graph",
    "section_label": ".memory.query_graph",
    # engines, before one is built
    "describe_engine": ".engines.describe",
    "is_not_found": ".engines.protocol.not_found",
    "check_connection": ".engines.describe",
    "AGENT_SLOTS": ".settings",
    "PRESETS": ".settings",
    # what LLM tokens cost: price presets, money as shown, the estimate before a run
    "PRICE_PRESETS": ".engines.llm.cost",
    "money": ".engines.llm.cost",
    "ingestion_estimate": ".ingest.estimate",
    "cost_per_page": ".ingest.estimate",
    # the local model: its llama.cpp server, one per process (the app shares it between sessions)
    "LocalModelServer": ".engines.llm.local_server",
    # the embedding model (warmed up once and shared by banks) and the files a bank can read
    "Embedder": ".retrieval.embedding",
    "load_embedder": ".retrieval.embedding",
    "supported_suffixes": ".loaders",
}

__all__ = [  # the literal list linters read; tests/test_public_api.py keeps it equal to _EXPORTS
    "AGENT_SLOTS", "Accounts", "AgentFellBack", "AgentOutputError", "AnswerDelta", "AnswerDraft", "AnswerReady",
    "AnswerUse", "AttachmentContent", "BankSnapshot", "BudgetExceeded", "CallSpeed", "CancelToken", "Category",
    "ChunksStored",
    "Citation", "Community", "CompletedTask", "ConfigError", "ConflictFlagged", "ConflictResolved", "ConflictView",
    "DeepRetrieval", "EdgeAdded", "Embedder", "EntryView", "ErrorRaised", "Event", "ImportFormatError",
    "InjectedItem", "Injection", "InputError", "InsightDoc", "LLMError", "LLMUsage", "LOCAL_USER", "LiveCall",
    "LiveProgress", "LocalModelServer",
    "LongTermInjected", "LongTermLearned", "LongTermMemory", "LongTermStoreError", "LongTermUse", "MAX_PASSWORD",
    "MAX_TASK_NAME", "MemoryBank", "MemoryBankError", "MemoryRecord", "MergeEventView", "NodeAdded", "NodeUpdated",
    "NodeView", "NodesMerged", "PRESETS", "PRICE_PRESETS", "PendingTask", "Progress", "Provenance", "ReadingStopped",
    "RecoveryMetadata", "RuleDecided", "RunCancelled", "RunError", "RunFailure", "RunRecord", "RunResult", "RunSlots",
    "RunUsage",
    "SaveFailed", "SaveRecovered", "SaveStatus", "SessionPolicy", "Settings", "SignedIn", "Source", "SqlTaskStore",
    "StoreError", "Subscriber", "SubscriberFailed", "Tally", "TaskBusy", "TaskCompleted", "TaskNotFound",
    "TaskPlanned", "TaskStatus", "TaskStore", "TaskSummary", "TaskType", "Throttle", "TimeLeft", "ToolCalled",
    "ToolError",
    "ToolRecovered", "check_connection", "cost_per_page", "describe_engine", "event_from_dict", "find_communities",
    "ingestion_estimate", "is_not_found", "load_embedder", "md_escape", "money", "page_span", "pages_label",
    "place_label", "record_withheld", "reflection_body", "safe_name", "section_label", "shorten_name", "sign_in",
    "source_line", "supported_suffixes",
]

if TYPE_CHECKING:
    from .accounts import Accounts, SessionPolicy, SignedIn, Throttle, sign_in
    from .accounts.users import MAX_PASSWORD
    from .bank import MemoryBank
    from .control import CancelToken
    from .engines.describe import check_connection, describe_engine
    from .engines.llm.cost import PRICE_PRESETS, money
    from .engines.llm.local_server import LocalModelServer
    from .engines.models import Citation
    from .engines.protocol.not_found import is_not_found
    from .errors import (
        AgentOutputError,
        BudgetExceeded,
        ConfigError,
        ImportFormatError,
        InputError,
        LLMError,
        LongTermStoreError,
        MemoryBankError,
        RunCancelled,
        RunError,
        RunFailure,
        StoreError,
        TaskBusy,
        TaskNotFound,
        ToolError,
    )
    from .events import (
        AgentFellBack,
        AnswerDelta,
        AnswerReady,
        ChunksStored,
        ConflictFlagged,
        ConflictResolved,
        EdgeAdded,
        ErrorRaised,
        Event,
        LLMUsage,
        LongTermInjected,
        LongTermLearned,
        NodeAdded,
        NodesMerged,
        NodeUpdated,
        Progress,
        ReadingStopped,
        RuleDecided,
        SaveFailed,
        SaveRecovered,
        Subscriber,
        SubscriberFailed,
        TaskCompleted,
        TaskPlanned,
        ToolCalled,
        ToolRecovered,
        event_from_dict,
    )
    from .ingest.estimate import cost_per_page, ingestion_estimate
    from .limits import LOCAL_USER, MAX_TASK_NAME, shorten_name
    from .loaders import supported_suffixes
    from .long_term.markdown import source_line
    from .long_term.memory import LongTermMemory, reflection_body
    from .long_term.models import (
        AnswerUse,
        Category,
        InjectedItem,
        Injection,
        LongTermUse,
        MemoryRecord,
        Provenance,
        RecoveryMetadata,
        Source,
    )
    from .long_term.vetting import record_withheld
    from .memory.communities import Community, find_communities
    from .memory.insight_doc import CompletedTask, InsightDoc, PendingTask, TaskStatus, TaskType
    from .memory.query_graph import place_label, section_label
    from .memory.snapshot import (
        BankSnapshot,
        CallSpeed,
        ConflictView,
        LiveCall,
        LiveProgress,
        MergeEventView,
        NodeView,
        RunUsage,
        Tally,
        TimeLeft,
    )
    from .retrieval.deep_retrieval import AttachmentContent, DeepRetrieval, EntryView
    from .retrieval.embedding import Embedder, load_embedder
    from .run.results import RunResult
    from .run.slots import RunSlots
    from .settings import AGENT_SLOTS, PRESETS, Settings
    from .store import RunRecord, SaveStatus, SqlTaskStore, TaskStore, TaskSummary
    from .text.buffer import AnswerDraft
    from .text.escape import md_escape, safe_name
    from .text.pages import page_span, pages_label


def __getattr__(name: str) -> Any:
    """Import the defining module on first use; submodules stay reachable as attributes once imported."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
