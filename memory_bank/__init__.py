"""Agentic Memory Bank: manage the long context of one task for an LLM agent.

`MemoryBank` and `Settings` are the public API; they are imported lazily so that `import memory_bank` stays
cheap (no torch, no model) until a bank is actually built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["MemoryBank", "Settings"]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from .bank import MemoryBank
    from .settings import Settings


def __getattr__(name: str) -> Any:
    if name == "MemoryBank":
        from .bank import MemoryBank

        return MemoryBank
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(name)
