"""Several users starting the NIST sample at once on one server process: what each waits, and what the server holds.

Each simulated user does what the New task page's "Run the sample" does, through the app's own session API: a new
stored task of their own in the process-wide registry (`ui.tasks.TaskRegistry`), then `ui.worker.start_run` with the
sample's PDF and question, in line for the server's run slots (`RunSlots`, `--slots`, the app's default
`MEMORY_BANK_MAX_CONCURRENT_RUNS`). All users click at once. Measured per user, from the click: the first node on
their graph, and the answer (p50 / p95 over users); errors (a run not 'done', or an error in its log: must be 0);
the server's peak memory (resident set, sampled every 0.2 s, and the kernel's high-water mark); and what a page
costs meanwhile: one `bank.snapshot()` + `monitor.view()`, what the Run page's fragment reads every second, timed
for a user whose run is going or waiting. All users ask about one document, so after the first has embedded a
passage the others find its vector in the model's cache, as on a real server.

    python bench/concurrent_users.py --users 1 4 8           # offline engine, the app's default of 2 slots
    python bench/concurrent_users.py --users 4 --slots 4     # every run at once, to compare
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402

from memory_bank import NodeAdded, RunSlots, Settings, SqlTaskStore, load_embedder  # noqa: E402
from memory_bank.retrieval.embedding import CachedEmbedder  # noqa: E402
from ui.session import SAMPLES  # noqa: E402
from ui.tasks import TaskRegistry  # noqa: E402
from ui.worker import RunHandle, start_run  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = SAMPLES[0]
SHARED_PDF = ROOT.parent / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"


def percentile(values: list[float], q: float) -> float:
    """The q-quantile, interpolated between the closest ranks (p50 of an even count: the mean of the middle two)."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


class PeakMemory:
    """The process's resident set, sampled until stopped."""

    def __init__(self, every: float = 0.2) -> None:
        self.peak, self._stop = 0, threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(every,), daemon=True)
        self._thread.start()

    def _loop(self, every: float) -> None:
        me = psutil.Process()
        while not self._stop.wait(every):
            self.peak = max(self.peak, me.memory_info().rss)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


class User:
    def __init__(self, name: str, registry: TaskRegistry, settings: Settings, embedder: object) -> None:
        self.name, self.first_node, self.answered = name, None, None
        self.live = registry.create(settings, embedder, SAMPLE.question[:80], name)
        self.live.bank.subscribe(self._on_event)
        self.clicked = self.clicked_at = 0.0
        self.handle: RunHandle | None = None

    def _on_event(self, event: object) -> None:
        if self.first_node is None and isinstance(event, NodeAdded):
            self.first_node = time.perf_counter() - self.clicked

    def start(self, pdf: Path, slots: RunSlots) -> None:
        self.clicked, self.clicked_at = time.perf_counter(), time.time()
        self.handle = start_run(self.live.bank, SAMPLE.question, [pdf], None, slots=slots)
        self.live.runs.append(self.handle)

    def wait(self) -> None:
        self.handle.join(3600)
        self.answered = (self.handle.monitor.view().finished or time.time()) - self.clicked_at

    def errors(self) -> list[str]:
        view = self.handle.monitor.view()
        problems = [f"{self.name}: {line.text}" for line in view.errors]
        if view.status != "done" or view.result is None or not view.result.answer:
            problems.append(f"{self.name}: ended {view.status} ({view.error})")
        return problems


def page_reads(users: list[User], stop: threading.Event, times: list[float]) -> None:
    """What the Run page's fragment reads every second, for the last user (the one who waits longest)."""
    user = users[-1]
    while not stop.wait(1.0):
        start = time.perf_counter()
        user.live.bank.snapshot()
        user.handle.monitor.view()
        times.append(time.perf_counter() - start)


def one_round(count: int, slots_limit: int, pdf: Path, model: CachedEmbedder) -> None:
    # the model's vector cache starts empty each round, so no round reads the vectors of the one before; within
    # a round the users share it, as every session of one app server shares its model
    embedder = CachedEmbedder(model.inner)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(engine="offline", data_dir=Path(folder) / "data", max_concurrent_runs=slots_limit)
        store = SqlTaskStore.from_settings(settings)
        registry, slots = TaskRegistry(store), RunSlots(settings.max_concurrent_runs)
        users = [User(f"user{i}", registry, settings, embedder) for i in range(count)]
        load_before = os.getloadavg()
        memory, stop, reads = PeakMemory(), threading.Event(), []
        started = time.perf_counter()
        for user in users:
            user.start(pdf, slots)
        reader = threading.Thread(target=page_reads, args=(users, stop, reads), daemon=True)
        reader.start()
        for user in users:
            user.wait()
        wall = time.perf_counter() - started
        stop.set()
        reader.join()
        peak = memory.stop()
        load_after = os.getloadavg()
        errors = [e for u in users for e in u.errors()]
        firsts = [u.first_node for u in users if u.first_node is not None]
        answers = [u.answered for u in users]
        print(f"\n{count} user(s), {slots_limit} slot(s): wall {wall:.1f} s")
        print(f"  first node   p50 {percentile(firsts, 0.5):6.1f} s  p95 {percentile(firsts, 0.95):6.1f} s"
              f"  ({len(firsts)}/{count} saw one)")
        print(f"  answer       p50 {percentile(answers, 0.5):6.1f} s  p95 {percentile(answers, 0.95):6.1f} s")
        print("  per user (in click order): first node / answer, s: " + ", ".join(
            f"{u.first_node or float('nan'):.0f}/{u.answered:.0f}" for u in users))
        if reads:
            print(f"  page read    p50 {statistics.median(reads) * 1000:6.1f} ms  p95 "
                  f"{percentile(reads, 0.95) * 1000:6.1f} ms  max {max(reads) * 1000:6.1f} ms ({len(reads)} reads)")
        print(f"  errors       {len(errors)}" + "".join(f"\n    {e}" for e in errors[:10]))
        print(f"  peak RSS     {peak / 2**20:6.0f} MiB (sampled); process high-water mark "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
        print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); "
              f"{os.cpu_count()} cores")
        for user in users:
            registry.close(user.live.task_id)
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--slots", type=int, default=Settings().max_concurrent_runs)
    args = parser.parse_args()
    pdf = SAMPLE.files[0] if SAMPLE.files[0].is_file() else SHARED_PDF
    if not pdf.is_file():
        sys.exit(f"the NIST sample is missing: {pdf}")
    print(f"document: {pdf.name}; question: {SAMPLE.question[:70]}…")
    loaded = time.perf_counter()
    embedder = load_embedder()  # one model for the process, as the app shares it (`ui.session.shared_embedder`)
    print(f"embedding model loaded in {time.perf_counter() - loaded:.1f} s (before any user clicks)")
    for count in args.users:
        one_round(count, args.slots, pdf, embedder)


if __name__ == "__main__":
    main()
