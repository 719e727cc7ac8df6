"""Run a stored task in this process until its second chunk is stored, then wait to be killed (-9).

Used by test_resume: the parent watches the database and kills this process mid-ingestion, as a crash would.
Settings come from the environment (MEMORY_BANK_DATA_DIR, DATABASE_URL, AGENT_WINDOW).
"""

from __future__ import annotations

import sys
import time

from memory_bank import MemoryBank, Settings
from memory_bank.events import ChunksStored
from memory_bank.store import SqlTaskStore


def main(path: str, question: str) -> None:
    settings = Settings.from_env(env_file=None)
    bank = MemoryBank(settings, store=SqlTaskStore.from_settings(settings))

    def stall(event: object) -> None:
        if isinstance(event, ChunksStored) and event.done >= 2:
            time.sleep(600)  # the parent kills us here, with chunks 1-2 stored and the rest not

    bank.subscribe(stall)
    bank.run(question, files=[path])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
