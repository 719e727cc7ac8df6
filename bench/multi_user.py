"""What multi-user mode and the task lease cost.

1. Sign-in: argon2id verify of a right password, a wrong one and an unknown name (the same work, so the time
   does not tell which names exist), with the default parameters `users add` writes.
2. The lease: acquire + release of a task's lease, a renew (what the keeper does every 5 s), and one flush of a
   stored bank after a small change, which renews the lease in the write's transaction.

    python bench/multi_user.py                        # SQLite in a temp folder
    DATABASE_URL=postgresql+psycopg://... python bench/multi_user.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import Accounts, MemoryBank, Settings, SqlTaskStore  # noqa: E402
from memory_bank.retrieval.embedding import HashingEmbedder  # noqa: E402


def timed(call, n: int) -> tuple[float, float]:  # noqa: ANN001
    """Median and p95 milliseconds of `n` calls."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        accounts = Accounts(Path(folder) / "users.json")
        accounts.add("alice", "correct horse battery")
        for label, name, password in (("right password", "alice", "correct horse battery"),
                                      ("wrong password", "alice", "not the password"),
                                      ("unknown name", "nobody", "correct horse battery")):
            med, p95 = timed(lambda n=name, p=password: accounts.verify(n, p), 20)
            print(f"sign-in verify, {label:15s}: median {med:6.1f} ms, p95 {p95:6.1f} ms")

        settings = Settings(data_dir=Path(folder) / "data", database_url=os.environ.get("DATABASE_URL"))
        store = SqlTaskStore.from_settings(settings)
        print(f"store: {store.where}")
        task_id = store.create_task("bench", "", "model")

        def cycle() -> None:
            store.leases.acquire(task_id)
            store.leases.release(task_id)

        med, p95 = timed(cycle, 200)
        print(f"lease acquire + release : median {med:6.2f} ms, p95 {p95:6.2f} ms")
        store.leases.acquire(task_id)
        med, p95 = timed(lambda: store.leases.renew(task_id), 200)
        print(f"lease renew             : median {med:6.2f} ms, p95 {p95:6.2f} ms")
        store.leases.release(task_id)

        bank = MemoryBank(settings, store=store, embedder=HashingEmbedder())
        counter = iter(range(10**6))

        def flush() -> None:
            bank.ingest_text(f"Note {next(counter)}: the pump moves 40 litres a minute.", source="bench")
            bank.flush()

        med, p95 = timed(flush, 50)
        print(f"ingest one note + flush (lease renewed in the write): median {med:6.1f} ms, p95 {p95:6.1f} ms")
        bank.close()
        store.close()


if __name__ == "__main__":
    main()
