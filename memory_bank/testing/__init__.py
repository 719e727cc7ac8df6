"""The engine contract as test mixins, so that a third engine inherits the cases both shipped engines pass.

In a test module of the new engine: `class TestAgents(AgentContract)` and `class TestMemoryEffects(
MemoryEffectsContract)`, with fixtures giving `engine` (the `Engine` a bank wires), `bank` (a `MemoryBank` on
it) and `northwind` (the three sample notes of `samples/northwind`); tests/engines/contract/ is the example.
Imported by tests only: it needs pytest to collect it and reportlab (requirements-dev.txt) to make a PDF.
"""

from .agent_contract import AgentContract
from .memory_contract import MemoryEffectsContract

__all__ = ["AgentContract", "MemoryEffectsContract"]
