"""The one LLM seam.

Everything that talks to a language model goes through `LLMClient.complete`. The only implementation that
imports the `openai` SDK is `llm/openai_client.py`; tests pass scripted fakes. `MeteredClient` wraps any client
with the run's budgets, cancellation and usage accounting, so agents never count anything themselves; with the
endpoint breaker (a run stops once the endpoint is judged down); and with redaction: a completion is text from
outside, and a server that echoes the API key back (in an error page, a debug field, a prompt-injected reply)
must not get it into memory, the run result, events or the export, so every configured secret is replaced
before the text leaves the seam.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from ...control import Cancellation, CancelToken
from ...errors import BudgetExceeded, LLMError
from ...events import EventBus, LLMUsage
from ...memory.snapshot import RunUsage, Tally
from ...text.redact import RedactedStream, redact
from .breaker import EndpointBreaker
from .cost import Prices, money
from .live import LiveCalls, Measure
from .prompt_size import estimate_message_tokens

Message = dict[str, Any]  # OpenAI chat format: {"role": ..., "content": str | list[content parts]}


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""
    finish_reason: str = ""  # "length": the reply was cut at max_tokens
    cached_tokens: int = 0  # of prompt_tokens, those the endpoint served from its prompt cache (when it says)
    prompt_per_s: float = 0.0  # prompt tokens read a second, as the server measured them (llama.cpp); 0: unsaid
    gen_per_s: float = 0.0  # reply tokens written a second, likewise


@dataclass(frozen=True)
class ResponseSchema:
    """A JSON schema the reply must follow, sent as `response_format` `json_schema` where the endpoint takes it
    (grammar-constrained decoding on llama.cpp, structured outputs on OpenAI and vLLM)."""

    name: str
    schema: dict[str, Any]


# Hears a streamed reply piece by piece: the new text, and how many characters of the reply came before it (0
# starts the reply again: a retried stream begins anew). Only new text travels, so a long reply costs linear work.
# It returns True when it needs no more of the reply (the answer it waits for is complete, or cut at its cap): the
# client then stops reading, so a model that writes on past its answer is neither held in memory nor waited for.
TextListener = Callable[[str, int], bool | None]

# Hears how many reply tokens have arrived so far, where the client streams the reply (a client that does not
# never calls it): what the Run page shows of a call in progress.
TokenListener = Callable[[int], None]


class StopReply(Exception):  # noqa: N818 - a signal, not an error
    """Raised by a `TextListener` that has heard enough (a reply past its time or size: a model that streams
    for ever). The client stops reading, closes the stream and returns the reply so far, `finish_reason`
    "stopped"; a client that cannot stop raises it on, and the listener keeps what it heard."""


@runtime_checkable
class LLMClient(Protocol):
    def complete(self, messages: list[Message], *, agent: str, temperature: float, top_p: float,
                 max_tokens: int | None = None, json_mode: bool = False,
                 schema: ResponseSchema | None = None,
                 on_text: TextListener | None = None, on_tokens: TokenListener | None = None) -> Completion:
        """`on_text`, when given, hears each new piece of the reply as it is generated (the client streams);
        `on_tokens` how many reply tokens have come, where the client streams."""
        ...


@dataclass
class AgentUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def processed_tokens(self) -> int:
        """Prompt tokens the model actually read: those sent less those its prompt cache served (what a local
        model's prompt time goes by)."""
        return self.prompt_tokens - self.cached_tokens

    def cost(self, prices: Prices | None) -> float | None:
        return None if prices is None else prices.cost(self.prompt_tokens, self.completion_tokens,
                                                       self.cached_tokens)


@dataclass
class UsageMeter:
    """Calls and tokens per agent, thread-safe; the budgets are checked before every call. With prices, the
    run's cost is known and `max_cost` bounds it like the token budget does. `live`: the calls in flight and the
    measured speeds (`live.py`)."""

    max_calls: int
    max_tokens: int
    prices: Prices | None = None
    max_cost: float | None = None
    per_agent: dict[str, AgentUsage] = field(default_factory=dict)
    live: LiveCalls = field(default_factory=LiveCalls)
    _baseline: AgentUsage = field(default_factory=AgentUsage, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def begin_run(self, documents: int = 0) -> None:
        """Budgets bound one run: usage before it (ingestion, earlier questions) does not count against it.
        `documents`: the inputs it reads (what its time left counts before they are begun)."""
        self._baseline = self.totals()
        self.live.begin_run(documents)

    def run_usage(self) -> AgentUsage:
        total, base = self.totals(), self._baseline
        return AgentUsage(calls=total.calls - base.calls, prompt_tokens=total.prompt_tokens - base.prompt_tokens,
                          completion_tokens=total.completion_tokens - base.completion_tokens,
                          seconds=total.seconds - base.seconds, cached_tokens=total.cached_tokens - base.cached_tokens)

    def totals(self) -> AgentUsage:
        with self._lock:
            total = AgentUsage()
            for u in self.per_agent.values():
                total.calls += u.calls
                total.prompt_tokens += u.prompt_tokens
                total.completion_tokens += u.completion_tokens
                total.seconds += u.seconds
                total.cached_tokens += u.cached_tokens
            return total

    def check(self) -> None:
        total = self.run_usage()
        if total.calls >= self.max_calls:
            raise BudgetExceeded(f"LLM call budget used up ({total.calls}/{self.max_calls} calls)")
        if total.tokens >= self.max_tokens:
            raise BudgetExceeded(f"token budget used up ({total.tokens}/{self.max_tokens} tokens)")
        cost = total.cost(self.prices)
        if self.max_cost is not None and cost is not None and cost >= self.max_cost:
            raise BudgetExceeded(f"cost budget used up ({money(cost)} of {money(self.max_cost)})")

    def record(self, agent: str, completion: Completion, seconds: float) -> None:
        with self._lock:
            u = self.per_agent.setdefault(agent, AgentUsage())
            u.calls += 1
            u.prompt_tokens += completion.prompt_tokens
            u.completion_tokens += completion.completion_tokens
            u.seconds += seconds
            u.cached_tokens += completion.cached_tokens

    def snapshot(self) -> dict[str, dict[str, float]]:
        with self._lock:
            return {a: {"calls": u.calls, "prompt_tokens": u.prompt_tokens, "cached_tokens": u.cached_tokens,
                        "processed_tokens": u.processed_tokens, "completion_tokens": u.completion_tokens,
                        "seconds": round(u.seconds, 3)}
                    for a, u in self.per_agent.items()}

    def usage(self) -> RunUsage:
        """The task's and the current run's usage with the run's budgets: what the UI shows and runs record."""
        total, run = self.totals(), self.run_usage()
        return RunUsage(task=self._tally(total), run=self._tally(run), max_llm_calls=self.max_calls,
                        max_tokens=self.max_tokens, max_cost=self.max_cost, per_agent=self.snapshot())

    def _tally(self, u: AgentUsage) -> Tally:
        return Tally(calls=u.calls, prompt_tokens=u.prompt_tokens, cached_tokens=u.cached_tokens,
                     completion_tokens=u.completion_tokens, cost=u.cost(self.prices))


class MeteredClient:
    """An `LLMClient` that enforces budgets, cancellation and the endpoint breaker, redacts secrets from what
    comes back, and publishes usage events."""

    def __init__(self, inner: LLMClient, meter: UsageMeter, events: EventBus, cancel: CancelToken | Cancellation,
                 *, breaker: EndpointBreaker | None = None, secrets: Sequence[str] = ()) -> None:
        self.inner = inner
        self.meter = meter
        self.events = events
        self.cancel = cancel
        self.breaker = breaker
        self.secrets = tuple(secrets)

    def wait(self, seconds: float) -> None:
        """The inner client's backoff sleep: ends at once when the current run's token is cancelled."""
        self.cancel.wait(seconds)

    def complete(self, messages: list[Message], *, agent: str, temperature: float, top_p: float,
                 max_tokens: int | None = None, json_mode: bool = False,
                 schema: ResponseSchema | None = None,
                 on_text: TextListener | None = None, on_tokens: TokenListener | None = None) -> Completion:
        """The call is shown in flight (`meter.live`) from its start to its end, with the reply tokens that have
        streamed; a call that succeeds leaves its measured speed there."""
        self.cancel.check()
        self.meter.check()
        if self.breaker is not None:
            self.breaker.begin(self.cancel.token if isinstance(self.cancel, Cancellation) else self.cancel)
            self.breaker.check()
        live = self.meter.live
        key = live.begin(agent, estimate_message_tokens(messages))

        def heard(tokens: int) -> None:
            live.streamed(key, tokens)
            if on_tokens is not None:
                on_tokens(tokens)

        measure: Measure | None = None
        try:
            completion, seconds = self._call(messages, agent=agent, temperature=temperature, top_p=top_p,
                                             max_tokens=max_tokens, json_mode=json_mode, schema=schema,
                                             on_text=on_text, on_tokens=heard)
            measure = Measure(seconds, completion.prompt_tokens - completion.cached_tokens,
                              completion.completion_tokens, completion.prompt_per_s, completion.gen_per_s)
        finally:
            live.end(key, measure)
        self.meter.record(agent, completion, seconds)
        self.events.publish(LLMUsage(agent=agent, prompt_tokens=completion.prompt_tokens,
                                     completion_tokens=completion.completion_tokens, seconds=seconds,
                                     cached_tokens=completion.cached_tokens))
        return completion

    def _call(self, messages: list[Message], *, agent: str, on_text: TextListener | None,
              **options: Any) -> tuple[Completion, float]:
        """The inner client's call with the breaker told how it went, and the secrets taken out of the reply."""
        start = time.perf_counter()
        # the streamed text goes through the same redaction as the finished completion (an echoed key)
        stream = RedactedStream(on_text, self.secrets) if on_text is not None else None
        try:
            completion = self.inner.complete(messages, agent=agent, on_text=stream.hear if stream is not None else None,
                                             **options)
        except LLMError as exc:
            down = self.breaker.failed(exc) if self.breaker is not None else None
            if down is not None:
                raise down from exc
            raise
        if stream is not None:
            stream.end()  # the held-back tail, now that no secret can continue past it
        if self.breaker is not None:
            self.breaker.succeeded()
        seconds = time.perf_counter() - start
        return replace(completion, text=redact(completion.text, self.secrets),
                       model=redact(completion.model, self.secrets)), seconds
