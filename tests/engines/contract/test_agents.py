"""Each agent of each engine keeps its contract (`memory_bank.testing.AgentContract`): run once per engine of
conftest's `engine_kind`."""

from __future__ import annotations

from memory_bank.testing import AgentContract


class TestAgents(AgentContract):
    pass
