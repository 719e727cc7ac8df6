"""The error hierarchy.

Every failure the core raises on purpose is a `MemoryBankError`, so the edges (the UI, the CLI, the loop's
run log) can catch one type and show its message. Sub-classes exist only where a caller reacts differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class MemoryBankError(Exception):
    """Base of every error the memory bank raises on purpose; its message is meant for a user."""


class InputError(MemoryBankError):
    """A file or text the user gave cannot be used (corrupt, encrypted, empty, too large, wrong type)."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        self.source = source
        super().__init__(f"{source}: {message}" if source else message)


class ImportFormatError(MemoryBankError):
    """An export file that fails schema validation; nothing in memory was touched."""


class LLMError(MemoryBankError):
    """The LLM endpoint failed after retries (transport, HTTP status, timeout).

    Raised without the SDK's exception chained to it: that exception holds the raw response, and a server that
    echoes the request puts the API key there, which any rendered traceback would print. `status` keeps the one
    thing callers read from it (the HTTP status, None when there was no answer)."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class LLMUnavailable(LLMError):
    """The endpoint gave no usable answer: unreachable, past the deadline, 5xx or 429 after the retries, or a body
    that is not a completion. Counted: a run stops after a few of these in a row (`EndpointDown`)."""


class LLMRejected(LLMUnavailable):
    """The endpoint refused the request as such (401 bad key, 403, 404 no such model): never retried, and it stops
    the run at once, since every later call would be refused the same way."""


class EndpointDown(LLMError):
    """The LLM endpoint is down or refuses this bank: the run stops with this one message, keeping its memory."""


class AgentOutputError(MemoryBankError):
    """An agent's output stayed invalid after the allowed re-asks."""

    def __init__(self, agent: str, detail: str) -> None:
        self.agent = agent
        self.detail = detail
        super().__init__(f"{agent} agent returned invalid output: {detail}")


class BudgetExceeded(MemoryBankError):
    """A run budget (LLM calls or tokens) is used up; the run stops and keeps its memory."""


class IngestTimeSpent(BudgetExceeded):
    """A document's ingestion time budget (INGEST_TIME_BUDGET) ran out between two agent calls. The pipeline
    catches it where the reading stops (what was built stays, and the run log says so); it never ends a run. A
    budget, so the steps between (a fallback to the offline agent, a failure record) let it through."""


class RunCancelled(MemoryBankError):
    """The user cancelled the run; raised at the next safe point."""


class ToolError(MemoryBankError):
    """A tool failed; the ReAct loop turns it into an observation instead of stopping."""


# What stops a whole run (or ingestion) rather than failing one sub-task: handlers that record a failure and go
# on re-raise these.
STOPS_THE_RUN: tuple[type[MemoryBankError], ...] = (BudgetExceeded, RunCancelled, EndpointDown)


class ConfigError(MemoryBankError):
    """Settings are inconsistent (for example the LLM engine without a model name)."""


class LongTermStoreError(MemoryBankError):
    """The long-term memory's files cannot be read (a corrupt index: a backup is kept) or the user id is bad."""


class StoreError(MemoryBankError):
    """The task store cannot be used: a corrupt database, one written by a newer version, or unreachable."""


class TaskNotFound(StoreError):
    """No task has this id (never created, or deleted), or it is another user's: the two read the same."""


class TaskBusy(StoreError):
    """Another process holds the task's write lease (it runs or edits the task): this one may only read it."""

    def __init__(self, message: str, *, holder: str) -> None:
        self.holder = holder
        super().__init__(message)


def call_unchained(call: Callable[[], T], catch: type[Exception] | tuple[type[Exception], ...],
                   failure: Callable[[Exception], MemoryBankError]) -> T:
    """`call()`, or the error `failure` makes of what it raised, with nothing chained to it.

    `raise ... from None` inside a handler still leaves the caught exception in `__context__`. That exception can
    hold what a server sent (an SDK error its response, a `JSONDecodeError` the whole body in `doc`), which holds
    an API key when the server echoes the request. Raised here, outside the handler, the new error has neither
    `__cause__` nor `__context__`: no rendered traceback or error report can reach the original."""
    try:
        return call()
    except catch as exc:
        error = failure(exc)
    raise error


class RunError(BaseModel):
    """An error a run recorded and went on from (or stopped at, when `fatal`): kept typed on the run's result,
    so the same failure met twice (the endpoint down while reading, then in the loop) is said once by equality,
    and the CLI and the page each say it their own way. `where`: the stage or input it happened in."""

    model_config = ConfigDict(frozen=True)

    where: str = ""
    message: str
    fatal: bool = False

    @classmethod
    def of(cls, where: str, exc: BaseException, fatal: bool = False) -> RunError:
        return cls(where=where, message=str(exc), fatal=fatal)

    @classmethod
    def coerce(cls, value: Any) -> Any:
        """A result stored before errors were typed holds "where: message" strings: kept whole as the message."""
        return cls(message=value) if isinstance(value, str) else value

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def unique_errors(errors: Iterable[RunError]) -> list[RunError]:
    """`errors` in order, each said once."""
    return list(dict.fromkeys(errors))


class RunFailure(BaseModel):
    """Why a run raised instead of returning a result, as the store keeps it and the page shows it: the
    exception's type and message apart (a restored run is not re-raised, so its type is not re-wrapped)."""

    model_config = ConfigDict(frozen=True)

    type: str = ""
    message: str

    @classmethod
    def of(cls, exc: BaseException) -> RunFailure:
        return cls(type=type(exc).__name__, message=str(exc))

    @classmethod
    def from_stored(cls, result: dict[str, Any] | None) -> RunFailure:
        """The failure of a stored run: `{type, message}`, or the one "Type: message" string stored before."""
        result = result or {}
        if isinstance(result.get("message"), str):
            return cls(type=str(result.get("type") or ""), message=result["message"])
        return cls(message=str(result.get("error") or "the run failed"))

    def __str__(self) -> str:
        return f"{self.type}: {self.message}" if self.type else self.message
