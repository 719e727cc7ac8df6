"""Open a stored task for writing in this process, write to it, say so, then wait to be killed (-9).

Used by test_lease: the parent, a second process on the same database, must find the task busy while this one
lives, and take it over (with everything this one wrote) once it is killed. Argument: the task id. Settings come
from the environment (MEMORY_BANK_DATA_DIR, DATABASE_URL).
"""

from __future__ import annotations

import sys
import time

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.store import SqlTaskStore


def main(task_id: str) -> None:
    settings = Settings.from_env(env_file=None)
    bank = MemoryBank.open(task_id, SqlTaskStore.from_settings(settings), settings, embedder=HashingEmbedder())
    ids = bank.ingest_text("The child process wrote this. The pump moves 40 litres a minute.", source="child")
    bank.flush()
    print(f"wrote {len(ids)} {bank.snapshot().counts['nodes']}", flush=True)
    time.sleep(600)  # the parent kills us here, holding the lease


if __name__ == "__main__":
    main(sys.argv[1])
