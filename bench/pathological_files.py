"""Time for pathological files under the default per-document budget (issue 23 §6).

The two files of the report, written here: 5 MB of one sentence repeated (a repetitive text) and 20 MB of
Markdown on one line. Each is ingested by a bank with the shipped settings (offline engine, the bundled embedding
model where installed) and a fresh memory. Printed: seconds until `ingest_file` returned, nodes kept, and the
run log's line for the cut. Before: the budget was 1,800 s, and both ran past 120 s; the target is that each
returns soon after the default budget (120 s: the wave under way finishes, then the section nodes are made)
with what it read kept.

    python bench/pathological_files.py [--budget SECONDS]

Then the transcript reader alone (issue 21's bad input, timed here rather than in tests): 5 MB with no speakers
(refused), one 5 MB turn (cut into bounded pieces), 10,000 and 100,000 turns (the ratio shows the growth).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory_bank import MemoryBank, ReadingStopped, Settings  # noqa: E402


def repetitive(path: Path, size: int = 5_000_000) -> Path:
    line = "The committee approved the budget of 5 million for the new bridge project. "
    path.write_text((line * (size // len(line) + 1))[:size], encoding="utf-8")
    return path


def one_line_markdown(path: Path, size: int = 20_000_000) -> Path:
    rng = random.Random(1)
    words = ["alpha", "beta", "gamma", "delta", "**bold**", "[link](http://x.y)", "`code`", "epsilon", "budget"]
    parts, total = [], 0
    while total < size:
        word = rng.choice(words)
        parts.append(word)
        total += len(word) + 1
    path.write_text(" ".join(parts), encoding="utf-8")
    return path


def measure(path: Path, settings: Settings, workdir: Path) -> None:
    bank = MemoryBank(settings, workdir=workdir)
    stops: list[ReadingStopped] = []
    bank.subscribe(lambda e: stops.append(e) if isinstance(e, ReadingStopped) else None)
    start = time.perf_counter()
    ids = bank.ingest_file(path)
    seconds = time.perf_counter() - start
    size = path.stat().st_size / 1_000_000
    print(f"{path.name:<22} {size:5.1f} MB  {seconds:6.1f} s  {len(ids):5d} nodes  "
          f"{stops[0].message if stops else 'read to the end'}", flush=True)


def transcripts() -> None:
    from memory_bank.structure.transcript import read_transcript

    def turns(count: int) -> str:
        lines = []
        for i in range(count):
            if i % 40 == 0:
                lines.append(f"Session {i // 40 + 1} — {i % 28 + 1} May 2023")
            lines.append(f"{'Caroline' if i % 2 else 'Melanie'}: this is turn number {i} and it says something.")
        return "\n".join(lines)

    cases = {"5 MB, no speakers": "The quick brown fox jumps over the lazy dog. " * 120_000,
             "one 5 MB turn": ("Caroline: hi there, how are you?\nMelanie: fine thanks, and you?\nCaroline: "
                               + "lorem ipsum dolor sit amet. " * 190_000 + "\nMelanie: wow, that was a long one.\n"),
             "10,000 turns": turns(10_000), "100,000 turns": turns(100_000)}
    for name, text in cases.items():
        start = time.perf_counter()
        structure = read_transcript(text)
        seconds = time.perf_counter() - start
        print(f"transcript {name:<20} {seconds:6.2f} s  "
              f"{'refused' if structure is None else f'{len(structure.units)} units'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=float, default=None, help="seconds (default: the shipped default)")
    args = parser.parse_args()
    settings = Settings() if args.budget is None else Settings(ingest_time_budget=args.budget)
    transcripts()
    print(f"per-document budget {settings.ingest_time_budget:g} s")
    with tempfile.TemporaryDirectory(prefix="amb-bench-") as tmp:
        root = Path(tmp)
        for path in (repetitive(root / "repetitive.txt"), one_line_markdown(root / "one-line.md")):
            measure(path, settings, root / f"bank-{path.stem}")


if __name__ == "__main__":
    main()
