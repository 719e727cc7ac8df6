"""A consistent, plain copy of the memory for readers on other threads (the UI's fragment, the CLI).

Taken under the bank's lock; holds no references into live objects, so the reader may keep it as long as it
likes while the run goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .insight_doc import InsightDoc
from .interaction_tree import MergeEvent
from .store import Memory


@dataclass(frozen=True)
class NodeView:
    id: str
    context: str
    summary: str
    keywords: tuple[str, ...]
    kind: str
    timestamp: float
    source_names: tuple[str, ...]
    source_labels: tuple[str, ...]
    pages: tuple[int, ...]
    merged_from: tuple[str, ...]
    role: str = "body"  # a `Role` value: furniture ("contents", "notice", ...) is drawn de-emphasised
    title: str = ""  # unique within the task (section path's last title + what sets it apart); "" before titles

    @property
    def label(self) -> str:
        """What the graph and lists call the node: its title, else its topic line."""
        return self.title or self.context


@dataclass(frozen=True)
class ConflictView:
    """A conflict as it stands: pending, being validated, resolved (`merged_into` the node that settled it) or
    failed."""

    id: str
    node_a: str
    node_b: str
    description: str
    status: str
    created: float
    resolved_at: float | None = None
    resolution: str = ""
    merged_into: str | None = None
    rejected_node: str | None = None

    @property
    def pending(self) -> bool:
        return self.status == "pending"


# Nodes merged into one, as the snapshot holds them: the tree's own events, which are immutable already.
MergeEventView = MergeEvent


@dataclass(frozen=True)
class Tally:
    """LLM calls and tokens over some span (the whole task, or the run going on)."""

    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # None when no prices are set

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def processed_tokens(self) -> int:
        """Prompt tokens the model actually read: those sent less those its prompt cache served."""
        return self.prompt_tokens - self.cached_tokens


@dataclass(frozen=True)
class RunUsage:
    """What the task and its current run have used, against the run's budgets."""

    task: Tally = field(default_factory=Tally)
    run: Tally = field(default_factory=Tally)
    max_llm_calls: int = 0
    max_tokens: int = 0
    max_cost: float | None = None
    per_agent: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The stored form (a run's record, the task row), flat as it always was, so stored tasks still read."""
        return {"calls": self.task.calls, "prompt_tokens": self.task.prompt_tokens,
                "cached_tokens": self.task.cached_tokens, "processed_tokens": self.task.processed_tokens,
                "completion_tokens": self.task.completion_tokens,
                "run_calls": self.run.calls, "run_tokens": self.run.tokens, "max_llm_calls": self.max_llm_calls,
                "max_tokens": self.max_tokens, "cost": self.task.cost, "run_cost": self.run.cost,
                "max_cost": self.max_cost, "per_agent": self.per_agent}


@dataclass(frozen=True)
class LiveCall:
    """An LLM call in flight: who makes it, for what, how long it has run and what it has written so far."""

    agent: str
    item: str  # what the call is for ("node 'Budget'", "conflict c1", "the answer"); "" when not said. From data
    elapsed_s: float
    prompt_tokens: int  # sent (estimated from the messages: the server counts them only at the end)
    tokens_so_far: int  # reply tokens streamed so far: 0 until the first arrives, and for a client that does not
    # stream the reply
    tokens_per_s: float | None  # writing speed since the first token; None until two tokens have arrived


@dataclass(frozen=True)
class CallSpeed:
    """One agent's measured calls (the recent ones): what a call of it takes, and the model's speeds in them."""

    agent: str
    calls: int
    seconds_per_call: float
    prompt_per_s: float | None  # prompt tokens read a second (llama.cpp's `timings`, or up to the first token)
    gen_per_s: float | None  # reply tokens written a second


@dataclass(frozen=True)
class TimeLeft:
    """`seconds` for `calls` planned calls (and the rest of those in flight); see `engines/llm/live.py`."""

    seconds: float
    calls: int
    seconds_per_call: float


@dataclass(frozen=True)
class LiveProgress:
    """The calls in flight, the measured speeds, and the time left: None while no call has been measured yet
    ("estimating…"), since a guess from nothing would be no estimate."""

    calls: tuple[LiveCall, ...] = ()
    speeds: tuple[CallSpeed, ...] = ()
    planned: dict[str, int] = field(default_factory=dict)  # agent -> calls the run knows it will still make
    time_left: TimeLeft | None = None

    @property
    def measured(self) -> bool:
        return bool(self.speeds)

    @property
    def gen_per_s(self) -> float | None:
        """The recent writing speed over every agent's calls (weighted by calls)."""
        return _weighted([(s.gen_per_s, s.calls) for s in self.speeds])

    @property
    def prompt_per_s(self) -> float | None:
        """The recent prompt-reading speed over every agent's calls (weighted by calls)."""
        return _weighted([(s.prompt_per_s, s.calls) for s in self.speeds])


def _weighted(values: list[tuple[float | None, int]]) -> float | None:
    known = [(v, n) for v, n in values if v]
    return sum(v * n for v, n in known) / sum(n for _, n in known) if known else None


@dataclass(frozen=True)
class BankSnapshot:
    nodes: list[NodeView]
    edges: list[tuple[str, str]]
    conflicts: list[ConflictView]
    merge_events: list[MergeEventView]
    insight_doc: InsightDoc
    usage: RunUsage = field(default_factory=RunUsage)
    entries: int = 0
    live: LiveProgress = field(default_factory=LiveProgress)  # the LLM calls in flight and the time left

    @property
    def counts(self) -> dict[str, int]:
        return {"nodes": len(self.nodes), "edges": len(self.edges), "merges": len(self.merge_events),
                "conflicts": len(self.conflicts),
                "pending_conflicts": sum(c.pending for c in self.conflicts), "entries": self.entries}


def take_snapshot(memory: Memory, usage: RunUsage, live: LiveProgress | None = None) -> BankSnapshot:
    nodes = [NodeView(id=n.id, context=n.context, summary=n.summary, keywords=tuple(n.keywords), kind=n.kind,
                      timestamp=n.timestamp, source_names=tuple(dict.fromkeys(s.name for s in n.sources)),
                      source_labels=tuple(s.label() for s in n.sources), pages=tuple(n.pages()),
                      merged_from=tuple(n.merged_from), role=n.role.value, title=n.title)
             for n in memory.graph.nodes()]
    conflicts = [ConflictView(**{f.name: getattr(c, f.name) for f in fields(ConflictView)})
                 for c in memory.conflicts.values()]
    merges = list(memory.tree.merge_events)
    return BankSnapshot(nodes=nodes, edges=memory.graph.edges(), conflicts=conflicts, merge_events=merges,
                        insight_doc=memory.insight_doc.model_copy(deep=True), usage=usage,
                        entries=len(memory.tree.entries), live=live or LiveProgress())
