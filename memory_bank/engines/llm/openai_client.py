"""`LLMClient` for any OpenAI-compatible endpoint (OpenAI, DeepSeek, Ollama, vLLM, LM Studio).

The only module that imports `openai`. The SDK's own retries are off (`max_retries=0`) because the retry policy
must be ours: exponential backoff on connection errors, timeouts, 5xx and 429 (honouring `Retry-After` up to
`llm_backoff_max`; a server asking for longer fails the call at once, saying so), immediate failure on other 4xx,
and a final `LLMError` that names status, endpoint and model but never the key. That error is raised outside the
handler that caught the SDK's exception, so nothing is chained to it (`__cause__` and `__context__` stay empty):
the SDK's exception holds the raw response, which holds the key when a server echoes the request, and a rendered
traceback prints every chained exception.
JSON mode is only a hint: many local servers reject `response_format`, so a 400 on a JSON-mode request is
retried once without it and the server is remembered as not supporting it; the structured helper validates the
text either way.

Deadlines, not timeouts: `LLM_TIMEOUT` is the wall-clock deadline of one attempt (one HTTP request, from sending
it to the last byte of the answer). Socket timeouts only bound each read, so a server dripping its body would
hold a call for ever; instead a `Watchdog` watches the sockets each request opens (httpx's `trace` hook; every
request asks for `Connection: close` so it opens its own) and shuts them down at the deadline, or at once when
the run is cancelled. A retry gets a fresh deadline; retries are bounded by `LLM_MAX_RETRIES` and by the
breaker, which stops all calls of a run once the endpoint is judged down.
A JSON schema (`response_format` `json_schema`) is tried first where one is given: the first request that
carries one probes the endpoint, and a rejection is remembered (then JSON mode). The local llama.cpp server is
sent the schema as an llguidance grammar held to compact JSON instead (`_with_grammar`), falling back to
`response_format` if it refuses one. A streamed answer is read under
the same deadline (`stream_reader` reads it). The local model's replies all stream (structured ones too, with
their schema), so the Run page sees a call's tokens arrive (`on_tokens`); other endpoints stream free text only.
`llm_socket` sends the requests over a Unix socket instead of TCP (the local model server listens on one, see
`local_server`); the base URL then only names the paths.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import httpx2
import openai

from ...errors import ConfigError, LLMError, LLMRejected, LLMUnavailable, MemoryBankError, RunCancelled
from ...settings import Settings
from ...text.redact import redact
from ...text.tokens import estimate_tokens
from ...watchdog import Cancellable, Watchdog
from .breaker import EndpointBreaker
from .cached import cached_tokens, server_speeds
from .client import Completion, Message, ResponseSchema, TextListener, TokenListener
from .prompt_size import estimate_message_tokens, has_image
from .retry_after import parse_retry_after
from .stream_reader import read_stream

DEFAULT_BASE_URL = "https://api.openai.com/v1"  # explicit, so the SDK never picks one up from the environment
AGENT_HEADER = "X-Memory-Bank-Agent"  # lets a proxy or a scripted server tell the agents apart
_RETRYABLE_STATUS = frozenset({408, 429})  # request timeout, rate limit; 5xx is checked apart
_REJECTED_STATUS = frozenset({401, 403, 404})  # bad key, no permission, no such model or path: asking again won't help
_CONNECTED = frozenset({"connection.connect_tcp.complete", "connection.connect_unix_socket.complete",
                        "connection.start_tls.complete"})
_JSON_MODE_REJECTIONS = frozenset({400, 422})  # bad request, unprocessable entity: what a server without it says
_DETAIL_CHARS = 300
REACT_SLOT = 0  # the llama.cpp server slot every ReAct step goes to (`_streamed_extra`)
_STREAM = {"stream": True, "stream_options": {"include_usage": True}}  # the usage comes in a last chunk
# llguidance's JSON grammar with no whitespace between tokens (`OpenAIClient._with_grammar`)
_COMPACT = {"x-guidance": {"whitespace_flexible": False}}


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError and a stream broken mid-read
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in _RETRYABLE_STATUS or exc.status_code >= 500
    return False


def _error_class(exc: Exception) -> type[LLMError]:
    if isinstance(exc, openai.APIStatusError) and exc.status_code in _REJECTED_STATUS:
        return LLMRejected
    return LLMUnavailable if _retryable(exc) or isinstance(exc, openai.APIResponseValidationError) else LLMError


class OpenAIClient:
    """Thread-safe: one SDK client serves concurrent agent calls; each call has its own watchdog.

    `sleep` is injectable so a caller can make backoff waits cancellable and tests can observe them; `cancel`
    (the bank's `Cancellation`) interrupts a request in flight; `breaker`, shared with the metered client, ends
    the retries of calls in flight once the endpoint is judged down.
    """

    def __init__(self, settings: Settings, *, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None, cancel: Cancellable | None = None,
                 breaker: EndpointBreaker | None = None) -> None:
        if not settings.llm_model:
            raise ConfigError("The LLM engine needs a model name (LLM_MODEL or the Settings page).")
        self._settings = settings
        self._model = settings.llm_model
        self._vision_model = settings.llm_vision_model or settings.llm_model
        self._key = settings.secret("llm_api_key")
        self._secrets = settings.secret_values()  # redacted from every message built from what the server said
        self._calls = threading.local()  # the watchdog of the call this thread is making
        self._cancel = cancel
        self._breaker = breaker
        unix = httpx2.HTTPTransport(uds=settings.llm_socket) if settings.llm_socket else None
        http = openai.DefaultHttpxClient(event_hooks={"request": [self._watch_request]}, transport=unix)
        self._sdk = openai.OpenAI(base_url=settings.llm_base_url or DEFAULT_BASE_URL, api_key=self._key or "not-needed",
                                  timeout=settings.llm_timeout, max_retries=0, http_client=http)
        self._base = str(self._sdk.base_url).rstrip("/")
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._json_mode_supported = True
        self._schema_supported = True
        self._grammar_supported = True
        # llama.cpp: keep each prompt's KV so the next call sharing its prefix reads only the rest (issue 29)
        self._local = settings.llm_provider == "local"
        # and send its timings with every streamed chunk: a stream closed at a ReAct step's tool call still says
        # how many prompt tokens were read and how many the cache served
        self._extra = {"extra_body": {"cache_prompt": True, "timings_per_token": True}} if self._local else {}
        # a local model takes 10-60 s a call: every reply streams, so the Run page shows its tokens arrive
        self._stream_all = self._local

    @property
    def endpoint(self) -> str:
        return f"{self._base}/chat/completions"

    @property
    def host(self) -> str:
        return urlparse(self._base).netloc or self._base

    @property
    def json_mode_supported(self) -> bool:
        with self._lock:
            return self._json_mode_supported

    @property
    def schema_supported(self) -> bool:
        with self._lock:
            return self._schema_supported

    def complete(self, messages: list[Message], *, agent: str, temperature: float, top_p: float,
                 max_tokens: int | None = None, json_mode: bool = False,
                 schema: ResponseSchema | None = None,
                 on_text: TextListener | None = None, on_tokens: TokenListener | None = None) -> Completion:
        if on_text is not None:  # streamed: text arrives token by token; no response_format (free text only)
            streamed = {"model": self._vision_model if has_image(messages) else self._model, "messages": messages,
                        "temperature": temperature, "top_p": top_p, "extra_headers": {AGENT_HEADER: agent},
                        **_STREAM, **self._streamed_extra(agent)}
            if max_tokens is not None:
                streamed["max_tokens"] = max_tokens
            return self._with_retries(streamed, agent, on_text, on_tokens)
        params: dict[str, Any] = {
            "model": self._vision_model if has_image(messages) else self._model,
            "messages": messages, "temperature": temperature, "top_p": top_p,
            "extra_headers": {AGENT_HEADER: agent}, **self._extra,
        }
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if on_tokens is not None and self._stream_all:
            params.update(_STREAM)
        return self._structured(params, agent, json_mode, schema, on_tokens)

    def _streamed_extra(self, agent: str) -> dict[str, Any]:
        """llama.cpp: every ReAct step on one server slot. A step is read only up to its tool call, so its
        stream closes while the server still writes; the next step, sent at once, found that slot busy and went
        to the other one, reading its whole prompt again (the notes sample: 1,355 tokens, 44 s, where the slot
        it left held all but the last message). Pinned, it waits the moment the slot takes to stop."""
        if not self._local or agent != "react":
            return self._extra
        return {"extra_body": {**self._extra["extra_body"], "id_slot": REACT_SLOT}}

    @property
    def grammar_supported(self) -> bool:
        with self._lock:
            return self._grammar_supported

    @staticmethod
    def _with_grammar(params: dict[str, Any], schema: ResponseSchema) -> dict[str, Any]:
        """The local server's request with the schema as an llguidance grammar held to compact JSON: its
        `response_format` path let the 1.5B model indent every key (a newline and spaces a token or two each,
        ~15 % of an analysis reply), the prompt's "compact, no indentation" and the schema's `x-guidance` key
        notwithstanding; the same schema given as the grammar itself, with `x-guidance`, is obeyed."""
        grammar = "%llguidance {}\nstart: %json " + json.dumps({**schema.schema, **_COMPACT}, separators=(",", ":"))
        return {**params, "extra_body": {**params.get("extra_body", {}), "grammar": grammar}}

    def _structured(self, params: dict[str, Any], agent: str, json_mode: bool, schema: ResponseSchema | None,
                    on_tokens: TokenListener | None) -> Completion:
        """The schema where the endpoint takes one, else JSON mode where it takes that, else neither; a rejection
        (400/422) is remembered, so later calls go straight to what works."""
        if schema is not None and self.schema_supported:
            if self._local and self.grammar_supported:
                try:
                    return self._with_retries(self._with_grammar(params, schema), agent, None, on_tokens)
                except LLMError as exc:
                    if exc.status not in _JSON_MODE_REJECTIONS:
                        raise
                with self._lock:
                    self._grammar_supported = False  # a server built without llguidance: its own schema path
            response_format = {"type": "json_schema",
                               "json_schema": {"name": schema.name, "schema": schema.schema, "strict": False}}
            try:
                return self._with_retries({**params, "response_format": response_format}, agent, None, on_tokens)
            except LLMError as exc:
                if exc.status not in _JSON_MODE_REJECTIONS:
                    raise
            with self._lock:
                self._schema_supported = False  # remembered: later calls go straight to JSON mode
            json_mode = True
        if not (json_mode and self.json_mode_supported):
            return self._with_retries(params, agent, None, on_tokens)
        try:
            return self._with_retries({**params, "response_format": {"type": "json_object"}}, agent, None, on_tokens)
        except LLMError as exc:
            if exc.status not in _JSON_MODE_REJECTIONS:
                raise
        completion = self._with_retries(params, agent, None, on_tokens)
        with self._lock:
            self._json_mode_supported = False  # the same request without response_format worked
        return completion

    def check_connection(self) -> str:
        """One tiny completion, no retries: the Settings page's "test connection" answer, or an LLMError.

        It carries the same parameters as the agents' calls (sampling, no token limit), so a model that rejects
        them fails here rather than in the middle of a run.
        """
        sampling = self._settings.sampling_for("react")
        start = time.perf_counter()
        response, failure = self._attempt(lambda: self._sdk.chat.completions.create(
            model=self._model, messages=[{"role": "user", "content": "Reply with the single word OK."}],
            temperature=sampling.temperature, top_p=sampling.top_p))
        if isinstance(failure, openai.NotFoundError):
            raise LLMRejected(self._describe(failure, 1) + self._available_models(), status=failure.status_code)
        if failure is not None:
            raise self._failure(failure, 1)
        self._to_completion(response, [])
        seconds = time.perf_counter() - start
        return f"Connected to {self.host}: model {self._model} answered in {seconds:.1f} s."

    # -- internals -------------------------------------------------------------------------------------------
    def _with_retries(self, params: dict[str, Any], agent: str, on_text: TextListener | None = None,
                      on_tokens: TokenListener | None = None) -> Completion:
        attempts = self._settings.llm_max_retries + 1
        streamed = bool(params.get("stream"))
        for attempt in range(1, attempts + 1):
            if streamed:
                result, failure = self._attempt(lambda: self._collect(self._sdk.chat.completions.create(**params),
                                                                      params["messages"], agent, on_text, on_tokens))
            else:
                result, failure = self._attempt(lambda: self._sdk.chat.completions.create(**params))
            if failure is None:
                return result if streamed else self._to_completion(result, params["messages"], agent)
            wait = self._delay(attempt, failure) if _retryable(failure) and attempt < attempts else None
            if wait is None:
                raise self._failure(failure, attempt, agent)
            self._sleep(wait)
            if self._breaker is not None:
                self._breaker.check()  # another call found the endpoint down while this one waited
        raise AssertionError("unreachable: the loop returns or raises")

    def _attempt(self, create: Callable[[], Any]) -> tuple[Any, Exception | None]:
        """One request under its deadline and the run's cancel (see the module docstring): (its result, None), or
        (None, the SDK's exception or the `ValueError` of a body that does not decode). The exception is returned,
        not raised, so the error made from it is raised outside any handler and has nothing chained to it."""
        with Watchdog(self._settings.llm_timeout, self._cancel) as watch:
            self._calls.watch = watch
            try:
                result, failure = create(), None
            except (openai.APIError, ValueError) as exc:  # a body cut by the watchdog may fail to decode
                result, failure = None, exc
            finally:
                self._calls.watch = None
        if watch.fired == "cancel":
            raise RunCancelled("the run was cancelled")
        if watch.fired == "deadline":  # whatever the cut body looked like, complete or broken
            return None, openai.APITimeoutError(request=getattr(failure, "request", None))  # type: ignore[arg-type]
        return result, failure

    def _failure(self, exc: Exception, attempts: int, agent: str = "") -> LLMError:
        """The error for a failed request: a new one, with the HTTP status and the redacted detail only."""
        if isinstance(exc, ValueError):  # the SDK's JSON decoding of a cut or broken body
            return LLMUnavailable(self._unreadable(exc, agent))
        return _error_class(exc)(self._describe(exc, attempts, agent), status=getattr(exc, "status_code", None))

    def _watch_request(self, request: Any) -> None:
        """httpx request hook: hand the sockets this request opens to the call's watchdog."""
        watch: Watchdog | None = getattr(self._calls, "watch", None)
        if watch is None:
            return
        request.headers["Connection"] = "close"  # a fresh connection, so `connect_tcp` is traced

        def trace(event: str, info: dict[str, Any]) -> None:
            if event in _CONNECTED and info.get("return_value") is not None:
                watch.watch(info["return_value"].get_extra_info("socket"))

        request.extensions = {**request.extensions, "trace": trace}

    def _collect(self, stream: Any, messages: list[Message], agent: str, on_text: TextListener | None,
                 on_tokens: TokenListener | None) -> Completion:
        """Read a streamed reply (`stream_reader`). What a listener raises (the run cancelled or out of budget
        while the answer streamed) goes on as itself, not as a broken stream to retry; the connection is closed
        whenever reading ends, so the server stops generating."""
        try:
            return read_stream(stream, messages, self._where(agent), on_text, on_tokens)
        except (openai.APIError, MemoryBankError):
            raise
        except Exception as exc:  # noqa: BLE001 - the SDK's HTTP library raises its own types mid-stream
            raise openai.APIConnectionError(message=f"the stream broke: {type(exc).__name__}: {exc}",
                                            request=stream.response.request) from exc
        finally:
            stream.close()

    def _asked_wait(self, exc: Exception) -> float | None:
        """The wait the server asked for (Retry-After), when it is longer than this client waits."""
        if not isinstance(exc, openai.APIStatusError):
            return None
        asked = parse_retry_after(exc.response.headers)
        return asked if asked is not None and asked > self._settings.llm_backoff_max else None

    def _delay(self, attempt: int, exc: Exception) -> float | None:
        """Seconds to wait before the next attempt, never more than `llm_backoff_max` (itself bounded by
        `limits.MAX_RETRY_WAIT`). None when the server asks for longer (`Retry-After: 3600`): it said it will
        not answer within any wait we take, so the call fails now, saying so, instead of retrying blind."""
        cap = self._settings.llm_backoff_max
        if isinstance(exc, openai.APIStatusError):
            retry_after = parse_retry_after(exc.response.headers)
            if retry_after is not None:
                return None if retry_after > cap else retry_after
        delay = min(self._settings.llm_backoff_base * 2 ** (attempt - 1), cap)
        return delay * self._rng.uniform(0.5, 1.0)  # jitter: concurrent agents that failed together retry apart

    def _to_completion(self, response: Any, messages: list[Message], agent: str = "") -> Completion:
        choices = getattr(response, "choices", None)
        if not choices:
            kind = "a non-completion body" if isinstance(response, str) else "no choices"
            sample = self._redact(str(response))[:120]
            raise LLMUnavailable(f"{self._where(agent)} returned {kind}: {sample!r}. "
                                 "Is the base URL an OpenAI-compatible API (often ending in /v1)?")
        text = choices[0].message.content or ""
        finish = getattr(choices[0], "finish_reason", "") or ""
        usage = getattr(response, "usage", None)
        cached, speeds, model = cached_tokens(response, usage), server_speeds(response), getattr(response, "model", "")
        if usage is not None and usage.prompt_tokens is not None:
            return Completion(text, usage.prompt_tokens, usage.completion_tokens or 0, model or "", finish, cached,
                              *speeds)
        return Completion(text, estimate_message_tokens(messages), estimate_tokens(text), model or "", finish, cached,
                          *speeds)

    def _where(self, agent: str) -> str:
        return f"{self.endpoint} (model {self._model}{self._for(agent)})"

    def _describe(self, exc: Exception, attempts: int, agent: str = "") -> str:
        where = self._where(agent)
        tries = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
        if isinstance(exc, openai.APITimeoutError):
            return f"LLM request to {where} timed out ({self._settings.llm_timeout:g} s) {tries}"
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc
            return f"LLM request to {where} could not connect {tries}: {self._redact(str(cause))[:_DETAIL_CHARS]}"
        status = getattr(exc, "status_code", "?")
        detail = self._redact(getattr(exc, "message", str(exc)))[:_DETAIL_CHARS]
        asked = self._asked_wait(exc)
        if asked is not None:
            detail += (f" (the server asks to retry after {asked:,.0f} s, longer than the "
                       f"{self._settings.llm_backoff_max:g} s this app waits before a retry)")
        return f"LLM request to {where} failed with HTTP {status} {tries}: {detail}"

    def _unreadable(self, exc: ValueError, agent: str = "") -> str:
        return (f"{self._where(agent)} returned a body that is not valid JSON "
                f"({self._redact(str(exc))[:_DETAIL_CHARS]}). Is the base URL an OpenAI-compatible API?")

    def _available_models(self) -> str:
        try:
            names = [m.id for m in self._sdk.models.list()]
        except openai.APIError as exc:
            return f" (the model list is unavailable too: {self._redact(str(exc))[:_DETAIL_CHARS]})"
        return f". Models this server offers: {', '.join(names[:20]) or 'none'}"

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets)

    @staticmethod
    def _for(agent: str) -> str:
        return f", agent {agent}" if agent else ""
