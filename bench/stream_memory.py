"""Memory of a streamed 2 MB answer (issue 23 §3): peak RSS growth of the process while the answer streams.

A scripted OpenAI-compatible server (in a child process, so its own copy of the reply is not counted) streams a
2,000,000-character answer 4 characters a chunk (500,000 chunks) to a bank whose answer is written by the LLM
(preset "answers"; ingestion offline, hashing embedder). A warm-up run with a short answer loads everything first;
then the peak RSS (VmHWM, reset through /proc/self/clear_refs where the kernel allows, else a 5 ms sampler) is
compared with the RSS before the run. Printed per cap: growth in MB and as a multiple of the answer, deltas heard,
the answer kept, seconds. Before the fix every delta carried the whole answer so far: ~1 GB for 2 MB.
Target: growth <= 3x the answer. At the largest cap (1,000,000) it was 3.9x while the reply was kept in the
ReAct transcript beside the answer, the answer was copied out of it three times and widened to two bytes a
character by the cut marker's '…', and the reply's and draft's joined blocks left holes in the heap; now the
answer is one capped slice the transcript shares, and growing text is one bytearray: 2.2x.

    python bench/stream_memory.py [--chars 2000000] [--piece 4] [--cap N ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_bank import AnswerDelta, AnswerDraft, MemoryBank, Settings  # noqa: E402
from memory_bank.retrieval.embedding import HashingEmbedder  # noqa: E402

SERVER = """
import sys, threading
sys.path.insert(0, {root!r})
from tests.support.fake_openai import FakeOpenAI, Reply
line = "The ALPHA pump moves water every hour and the BETA valve closes at night. "
answers = {{"short": "The ALPHA pump moves water.", "long": (line * ({chars} // len(line) + 1))[:{chars} - 1] + "."}}
def handler(request):
    kind = "short" if "warm-up" in request.text() else "long"
    return Reply(text="<answer>" + answers[kind] + "</answer>", piece={piece})
with FakeOpenAI(handler=handler) as fake:
    print(fake.base_url, flush=True)
    sys.stdin.read()
"""


def rss_kb(field: str = "VmRSS") -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return rss_kb("VmHWM") <= rss_kb("VmRSS") + 1024


class Sampler:
    """The highest RSS seen every 5 ms: the peak where VmHWM cannot be reset."""

    def __init__(self) -> None:
        self.peak, self._stop = 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            self.peak = max(self.peak, rss_kb())

    def __enter__(self) -> Sampler:
        self.peak = rss_kb()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def measure(base_url: str, chars: int, cap: int) -> None:
    settings = Settings(engine="llm", llm_base_url=base_url, llm_model="fake-model", llm_api_key="sk-bench",
                        llm_timeout=900, max_answer_chars=cap).with_preset("answers")
    bank = MemoryBank(settings, embedder=HashingEmbedder())
    draft, heard = AnswerDraft(), [0]

    def on_event(event: object) -> None:
        if isinstance(event, AnswerDelta):
            draft.add(event)  # what the Run page keeps
            heard[0] += 1

    bank.subscribe(on_event)
    bank.run("warm-up: what does the pump do?", text="The ALPHA pump moves water every hour.")
    draft, heard[0] = AnswerDraft(), 0
    before = rss_kb()
    exact = reset_peak()
    start = time.perf_counter()
    with Sampler() as sampler:
        result = bank.run("What does the pump do?")
    seconds = time.perf_counter() - start
    peak = rss_kb("VmHWM") if exact else sampler.peak
    growth_mb = (peak - before) / 1024
    print(f"cap {cap:>9,}  growth {growth_mb:7.1f} MB = {growth_mb * 1024 * 1024 / chars:4.1f}x the answer  "
          f"deltas {heard[0]:>7,}  answer kept {len(result.answer):>9,} chars (draft {len(draft):,})  "
          f"{seconds:5.1f} s  peak by {'VmHWM' if exact else 'sampler'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=2_000_000)
    parser.add_argument("--piece", type=int, default=4)
    parser.add_argument("--cap", type=int, action="append", help="max_answer_chars (default: shipped and largest)")
    args = parser.parse_args()
    code = SERVER.format(root=str(ROOT), chars=args.chars, piece=args.piece)
    server = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        base_url = server.stdout.readline().strip()
        print(f"answer {args.chars:,} characters streamed {args.piece} a chunk; target: growth <= 3x")
        for cap in args.cap or (Settings().max_answer_chars, 1_000_000):
            measure(base_url, args.chars, cap)
    finally:
        server.stdin.close()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
