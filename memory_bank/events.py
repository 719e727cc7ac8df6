"""Typed events and a thread-safe bus.

The run publishes what happens (DESIGN §6) so that a UI or a log can follow it without touching the core's
state. Subscribers are called on the publishing thread, outside the bus's lock, so one slow or failing
subscriber cannot deadlock the run; a subscriber that raises is reported by a `SubscriberFailed` record
instead of being silently dropped.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"
    # False for a kind that is only heard as it happens (one per streamed token): kept by neither the bus's log
    # nor the task store's run log, so a long answer cannot fill either
    logged: ClassVar[bool] = True
    ts: float = field(default_factory=time.time, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class NodeAdded(Event):
    kind: ClassVar[str] = "node_added"
    node_id: str
    context: str
    source: str = ""


@dataclass(frozen=True)
class NodeUpdated(Event):
    kind: ClassVar[str] = "node_updated"
    node_id: str
    context: str


@dataclass(frozen=True)
class NodesMerged(Event):
    kind: ClassVar[str] = "nodes_merged"
    merged_ids: tuple[str, ...]
    new_node_id: str
    description: str


@dataclass(frozen=True)
class EdgeAdded(Event):
    kind: ClassVar[str] = "edge_added"
    a: str
    b: str


@dataclass(frozen=True)
class ConflictFlagged(Event):
    kind: ClassVar[str] = "conflict_flagged"
    conflict_id: str
    node_a: str
    node_b: str
    description: str


@dataclass(frozen=True)
class ConflictResolved(Event):
    kind: ClassVar[str] = "conflict_resolved"
    conflict_id: str
    new_node_id: str | None
    resolution: str


@dataclass(frozen=True)
class TaskPlanned(Event):
    kind: ClassVar[str] = "task_planned"
    task_type: str
    description: str
    by: str = "planning agent"  # or "rule": the loop decided without asking the planning agent (`reason` says why)
    reason: str = ""


@dataclass(frozen=True)
class TaskCompleted(Event):
    kind: ClassVar[str] = "task_completed"
    task_type: str
    description: str
    status: str
    context: str = ""


@dataclass(frozen=True)
class ToolCalled(Event):
    kind: ClassVar[str] = "tool_called"
    tool: str
    arguments: dict[str, Any]
    ok: bool
    summary: str = ""


@dataclass(frozen=True)
class Progress(Event):
    kind: ClassVar[str] = "progress"
    stage: str
    done: int = 0
    total: int = 0
    message: str = ""


@dataclass(frozen=True)
class LLMUsage(Event):
    kind: ClassVar[str] = "llm_usage"
    agent: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    cached_tokens: int = 0


@dataclass(frozen=True)
class AnswerReady(Event):
    kind: ClassVar[str] = "answer"
    question: str
    answer: str
    citations: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ErrorRaised(Event):
    kind: ClassVar[str] = "error"
    where: str
    message: str
    fatal: bool = False


@dataclass(frozen=True)
class LongTermInjected(Event):
    """The long-term records put into this run's prompts (seed 004 §7)."""

    kind: ClassVar[str] = "long_term_injected"
    memory_ids: tuple[str, ...]
    tokens: int
    budget_tokens: int


@dataclass(frozen=True)
class ToolRecovered(Event):
    """A failed tool call and how it was recovered (seed 004 §8): from a remembered strategy, a built-in rule or
    the LLM's analysis; `ok` is False when every fix failed too."""

    kind: ClassVar[str] = "tool_recovered"
    tool: str
    error_type: str
    fix_source: str
    ok: bool
    retries: int
    memory_id: str | None = None


@dataclass(frozen=True)
class LongTermLearned(Event):
    """Records the finished task left in long-term memory (seed 004 §6.3)."""

    kind: ClassVar[str] = "long_term_learned"
    memory_ids: tuple[str, ...]


@dataclass(frozen=True)
class AgentFellBack(ErrorRaised):
    """An LLM agent failed on one input and the offline agent did it instead: shown like an error, counted apart
    (the run goes on with the offline result, so nothing is missing from memory)."""

    kind: ClassVar[str] = "agent_fell_back"
    agent: str = ""


@dataclass(frozen=True)
class RuleDecided(Event):
    """An LLM agent was not called because a rule already decided its answer (a duplicate merged into its own
    text, a conflict the documents' count settled, a cluster short enough to be its own summary): the offline
    agent's answer stands. Counted apart from a fallback: nothing failed."""

    kind: ClassVar[str] = "rule_decided"
    agent: str
    reason: str


@dataclass(frozen=True)
class AnswerDelta(Event):
    """The answer as it is being written: only the new text, which starts `offset` characters into the answer
    (offset 0 starts the draft again: a retried or a new reply), and the calls and tokens used up to now.

    A reader keeps the draft itself (`AnswerDraft`, in `text.buffer`). Each event carries only its own piece,
    so a streamed answer costs memory in proportion to its length, not its length squared; the events are not
    logged (`logged`), the finished answer is (`AnswerReady`)."""

    kind: ClassVar[str] = "answer_delta"
    logged: ClassVar[bool] = False
    text: str
    offset: int = 0
    llm_calls: int = 0
    tokens: int = 0


@dataclass(frozen=True)
class SubscriberFailed(Event):
    kind: ClassVar[str] = "subscriber_failed"
    message: str


Subscriber = Callable[[Event], None]


class EventBus:
    def __init__(self, keep: int = 5_000) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []
        self._log: deque[Event] = deque(maxlen=keep)  # bounded: the oldest go first

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Register a callback; returns a function that unsubscribes it."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def publish(self, event: Event) -> None:
        with self._lock:
            if event.logged:
                self._log.append(event)
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(event)
            except Exception as exc:  # noqa: BLE001 - a UI bug must not kill the run; it is recorded instead
                if not isinstance(event, SubscriberFailed):
                    self.publish(SubscriberFailed(message=f"{type(exc).__name__}: {exc}"))

    def log(self) -> list[Event]:
        with self._lock:
            return list(self._log)


@dataclass(frozen=True)
class ChunksStored(Event):
    """A document's first `done` of `total` chunks are stored and linked: where a resumed ingestion starts."""

    kind: ClassVar[str] = "chunks_stored"
    source: str
    done: int
    total: int


@dataclass(frozen=True)
class ReadingStopped(ErrorRaised):
    """A document's ingestion stopped at the per-document time budget before its end: shown in the run log like
    an error, with how far the reading got (`done` of `total` pages, or parts of a text without pages); what was
    read stays in memory."""

    kind: ClassVar[str] = "reading_stopped"
    source: str = ""
    seconds: float = 0.0
    done: int = 0
    total: int = 0
    unit: str = "pages"


@dataclass(frozen=True)
class SaveFailed(ErrorRaised):
    """The task store did not take the latest changes: they stay in memory and are written by the next flush
    that succeeds (the writer retries by itself; `flush()` and `close()` raise until one does)."""

    kind: ClassVar[str] = "save_failed"


@dataclass(frozen=True)
class SaveRecovered(Event):
    """A flush succeeded after failures: everything in memory is in the store again."""

    kind: ClassVar[str] = "save_recovered"
    message: str


def event_from_dict(data: dict[str, Any]) -> Event | None:
    """A stored event (`Event.to_dict()`, through JSON) as its typed event again, for a reopened task's run log;
    None for a kind this version does not know or a record that does not fit it."""
    kinds = {cls.kind: cls for cls in _subclasses(Event)}
    cls = kinds.get(str(data.get("kind")))
    if cls is None:
        return None
    names = {f.name for f in fields(cls)}
    values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in names}
    try:
        return cls(**values)
    except TypeError:
        return None


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found.extend([sub, *_subclasses(sub)])
    return found
