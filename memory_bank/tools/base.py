"""Tool contract for the executor.

A tool takes JSON arguments and returns text; a failure raises `ToolError`, which the executor turns into an
observation for the agent instead of ending the run (DESIGN §4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ToolError


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)  # JSON schema of the arguments


class Tool(Protocol):
    spec: ToolSpec

    def call(self, arguments: dict[str, Any]) -> str: ...


class ToolBox:
    def __init__(self, tools: list[Tool]) -> None:
        self._tools = {t.spec.name: t for t in tools}

    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self) -> list[ToolSpec]:
        return [t.spec for t in self._tools.values()]

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        tool = self._tools.get(name)
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; available: {', '.join(self._tools)}")
        if not isinstance(arguments, dict):
            raise ToolError(f"arguments of {name} must be a JSON object")
        return tool.call(arguments)
