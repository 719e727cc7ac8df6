"""What a run does to memory, the same for every engine (`memory_bank.testing.MemoryEffectsContract`): run once
per engine of conftest's `engine_kind`."""

from __future__ import annotations

from memory_bank.testing import MemoryEffectsContract


class TestMemoryEffects(MemoryEffectsContract):
    pass
