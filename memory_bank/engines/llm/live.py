"""The LLM calls in flight and the measured speed of recent ones: what a user follows while a run goes on.

A call on a small local model takes 10-60 s; without this the Run page shows nothing moving for that long. The
agents' threads write here (through `MeteredClient`) and the UI's snapshot reads immutable views
(`memory.snapshot.LiveProgress`), all under one lock.

What a call is for: the engine's slots say which input they work on (`working_on`, per thread: ingestion runs
agents on several threads at once), and a call made on that thread carries it.

Speeds: llama.cpp reports its own (`timings`: prompt and generation tokens a second). Otherwise they are
computed: prompt tokens read over the wait for the first reply token, reply tokens over the time after it; for a
client that does not stream, reply tokens over the whole call (which counts the prompt's time too, so it reads
low). The last `RECENT` calls of each agent make its measured seconds a call.

Time left (`time_left`): the calls the run knows it will still make (`planned_calls`), each at its agent's mean
measured seconds a call (an agent not measured yet: the mean over the measured agents), plus what the calls in
flight have left of their agent's mean. The calls known are: one per chunk still to classify (one for a document
not begun yet, whose chunks are not counted yet), the batches of the clusters and nodes of the documents' current
waves still to structure and analyse (a batch counted as full, at `llm_batch_items`), one per pending conflict (a
cross-validation) and one for the answer. Calls decided later (the next waves' batches, planning steps where the
rules leave a choice, further ReAct steps) are not known yet, so the run may take longer than the estimate; until
one call has been measured there is no estimate at all.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from ...events import AnswerReady, ErrorRaised, Event, Progress, TaskCompleted, TaskPlanned
from ...memory.snapshot import CallSpeed, LiveCall, LiveProgress, TimeLeft
from ...settings import Settings

RECENT = 8  # calls per agent that make its measured speed: recent enough to follow a machine getting busier


@dataclass(frozen=True)
class PlanRules:
    """How the run's remaining work turns into calls: which ingestion stages an LLM agent does (and how many of
    their items one call carries), and which agent makes the loop's calls."""

    stages: dict[str, tuple[str, int]] = field(default_factory=dict)  # stage -> (agent, items a call)
    executor: str | None = None  # the agent the answer's call is metered under; None: the loop is offline
    validates: bool = False  # whether a pending conflict takes an executor call (the one-call answerer: offline)

    @classmethod
    def of(cls, settings: Settings) -> PlanRules:
        batch = settings.llm_batch_items
        slots = {"classify": ("classification", 1), "structure": ("structure", batch), "link": ("analysis", batch)}
        stages = {stage: rule for stage, rule in slots.items() if settings.engine_for(rule[0]) == "llm"}
        if settings.engine_for("react") != "llm":
            return cls(stages)
        one_call = settings.answers_in_one_call()
        return cls(stages, "answer" if one_call else "react", validates=not one_call)


def planned_calls(rules: PlanRules, remaining: Mapping[tuple[str, str], int], pending_conflicts: int,
                  answered: bool, unstarted: int = 0) -> dict[str, int]:
    """Calls per agent the run knows it will still make. `remaining`: (document, stage) -> items not yet done;
    `unstarted`: the run's documents not begun yet (one chunk each, at least)."""
    out: dict[str, int] = {}
    if unstarted > 0 and "classify" in rules.stages:
        out[rules.stages["classify"][0]] = unstarted
    for (_, stage), left in remaining.items():
        if stage in rules.stages and left > 0:
            agent, per_call = rules.stages[stage]
            out[agent] = out.get(agent, 0) + math.ceil(left / per_call)
    if rules.executor is not None:
        loop = (pending_conflicts if rules.validates else 0) + (0 if answered else 1)
        if loop:
            out[rules.executor] = out.get(rules.executor, 0) + loop
    return out


def time_left(planned: Mapping[str, int], per_call: Mapping[str, float],
              in_flight: Sequence[tuple[str, float]] = ()) -> TimeLeft | None:
    """The estimate described in the module docstring; None until some agent has a measured call. `per_call`:
    agent -> measured seconds a call; `in_flight`: (agent, seconds it has run) of each call going on."""
    if not per_call:
        return None
    overall = sum(per_call.values()) / len(per_call)
    calls = sum(n for n in planned.values() if n > 0)
    planned_s = sum(n * per_call.get(agent, overall) for agent, n in planned.items() if n > 0)
    flight_s = sum(max(0.0, per_call.get(agent, overall) - ran) for agent, ran in in_flight)
    return TimeLeft(seconds=planned_s + flight_s, calls=calls, seconds_per_call=planned_s / calls if calls else 0.0)


@dataclass(frozen=True)
class Measure:
    """What one finished call tells of the model's speed. Speeds the server reported, or 0."""

    seconds: float
    prompt_tokens: int  # processed: those the prompt cache did not serve
    completion_tokens: int
    prompt_per_s: float = 0.0
    gen_per_s: float = 0.0


@dataclass
class _Call:
    agent: str
    item: str
    started: float
    prompt_tokens: int
    tokens: int = 0
    first_token: float | None = None
    last_token: float | None = None


@dataclass(frozen=True)
class _Speed:
    seconds: float
    prompt_per_s: float | None
    gen_per_s: float | None


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v]
    return sum(known) / len(known) if known else None


class LiveCalls:
    """Calls in flight, what each is for, the recent calls' speeds, and the run's remaining work (heard from its
    `Progress` and task events, `hear`)."""

    def __init__(self, rules: PlanRules | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._rules = rules or PlanRules()
        self._clock = clock
        self._lock = threading.Lock()
        self._keys = itertools.count(1)
        self._calls: dict[int, _Call] = {}
        self._items: dict[int, list[str]] = {}  # thread -> what it works on (innermost last)
        self._speeds: dict[str, deque[_Speed]] = {}
        self._remaining: dict[tuple[str, str], int] = {}
        self._unstarted = 0
        self._running = self._answered = False

    # -- the run's work ----------------------------------------------------------------------------------
    def begin_run(self, documents: int = 0) -> None:
        """A run (or an ingestion) of `documents` inputs starts: its work is counted afresh; the measured speeds
        stay (same model)."""
        with self._lock:
            self._remaining.clear()
            self._unstarted = documents
            self._running, self._answered = True, False

    def hear(self, event: Event) -> None:
        """An event subscriber: stage progress per document (the inputs are read one after another, so a new
        document's first progress, or its failure to load, is the next input begun), the loop begun (every input
        read), the answer written, the run over."""
        if isinstance(event, Progress):
            with self._lock:
                if not any(doc == event.message for doc, _ in self._remaining):
                    self._unstarted = max(0, self._unstarted - 1)
                self._remaining[(event.message, event.stage)] = max(0, event.total - event.done)
        elif isinstance(event, ErrorRaised) and event.where.startswith("ingest "):
            with self._lock:
                self._unstarted = max(0, self._unstarted - 1)
        elif isinstance(event, TaskPlanned):
            with self._lock:
                self._unstarted = 0
        elif isinstance(event, TaskCompleted) and event.task_type == "NORMAL" and event.status == "success":
            with self._lock:
                self._answered = True
        elif isinstance(event, AnswerReady):
            with self._lock:
                self._running = False

    # -- calls -------------------------------------------------------------------------------------------
    @contextmanager
    def working_on(self, item: str) -> Iterator[None]:
        """Calls made on this thread inside the block are for `item`."""
        thread = threading.get_ident()
        with self._lock:
            self._items.setdefault(thread, []).append(item)
        try:
            yield
        finally:
            with self._lock:
                stack = self._items.get(thread, [])
                if stack:
                    stack.pop()
                if not stack:
                    self._items.pop(thread, None)

    def begin(self, agent: str, prompt_tokens: int) -> int:
        with self._lock:
            key = next(self._keys)
            stack = self._items.get(threading.get_ident())
            self._calls[key] = _Call(agent, stack[-1] if stack else "", self._clock(), prompt_tokens)
            return key

    def streamed(self, key: int, tokens: int) -> None:
        """The reply so far is `tokens` long (a retried stream starts again from its first)."""
        with self._lock:
            call = self._calls.get(key)
            if call is None:
                return
            now = self._clock()
            if call.first_token is None or tokens < call.tokens:
                call.first_token = now
            call.tokens, call.last_token = tokens, now

    def end(self, key: int, measure: Measure | None) -> None:
        """The call is over; `measure` is None when it failed (nothing to learn of the model's speed from it)."""
        with self._lock:
            call = self._calls.pop(key, None)
            if call is None or measure is None:
                return
            self._speeds.setdefault(call.agent, deque(maxlen=RECENT)).append(self._speed(call, measure))

    def _speed(self, call: _Call, m: Measure) -> _Speed:
        prompt, gen = m.prompt_per_s or None, m.gen_per_s or None
        first = call.first_token - call.started if call.first_token is not None else None
        if prompt is None and first and m.prompt_tokens:
            prompt = m.prompt_tokens / first
        writing = m.seconds - first if first is not None else m.seconds
        if gen is None and m.completion_tokens and writing > 0:
            gen = m.completion_tokens / writing
        return _Speed(m.seconds, prompt, gen)

    # -- the view ----------------------------------------------------------------------------------------
    def view(self, pending_conflicts: int = 0) -> LiveProgress:
        with self._lock:
            now = self._clock()
            calls = tuple(LiveCall(c.agent, c.item, max(0.0, now - c.started), c.prompt_tokens, c.tokens,
                                   _rate(c)) for c in self._calls.values())
            speeds = tuple(CallSpeed(agent, len(d), sum(s.seconds for s in d) / len(d),
                                     _mean([s.prompt_per_s for s in d]), _mean([s.gen_per_s for s in d]))
                           for agent, d in sorted(self._speeds.items()) if d)
            planned = (planned_calls(self._rules, self._remaining, pending_conflicts, self._answered,
                                     self._unstarted) if self._running else {})
        per_call = {s.agent: s.seconds_per_call for s in speeds}
        return LiveProgress(calls, speeds, planned,
                            time_left(planned, per_call, [(c.agent, c.elapsed_s) for c in calls]))


def _rate(call: _Call) -> float | None:
    """Reply tokens a second since the first: the first token's own wait is the prompt's reading."""
    if call.tokens < 2 or call.first_token is None or call.last_token is None:
        return None
    span = call.last_token - call.first_token
    return (call.tokens - 1) / span if span > 0 else None
