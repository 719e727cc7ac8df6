"""The error hierarchy.

Every failure the core raises on purpose is a `MemoryBankError`, so the edges (the UI, the CLI, the loop's
run log) can catch one type and show its message. Sub-classes exist only where a caller reacts differently.
"""

from __future__ import annotations


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
    """The LLM endpoint failed after retries (transport, HTTP status, timeout)."""


class AgentOutputError(MemoryBankError):
    """An agent's output stayed invalid after the allowed re-asks."""

    def __init__(self, agent: str, detail: str) -> None:
        self.agent = agent
        self.detail = detail
        super().__init__(f"{agent} agent returned invalid output: {detail}")


class BudgetExceeded(MemoryBankError):
    """A run budget (LLM calls or tokens) is used up; the run stops and keeps its memory."""


class RunCancelled(MemoryBankError):
    """The user cancelled the run; raised at the next safe point."""


class ToolError(MemoryBankError):
    """A tool failed; the ReAct loop turns it into an observation instead of stopping."""


class ConfigError(MemoryBankError):
    """Settings are inconsistent (for example the LLM engine without a model name)."""


class StoreError(MemoryBankError):
    """The task store cannot be used: a corrupt database, one written by a newer version, or unreachable."""


class TaskNotFound(StoreError):
    """No task has this id (never created, or deleted)."""
