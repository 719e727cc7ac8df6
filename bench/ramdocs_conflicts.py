"""Conflict detection on RAMDocs (issue 3, measure 2): precision and recall of flagged contradictions.

Each question's documents are ingested into a fresh memory bank as separate sources, in file order. A `misinfo`
document is a planted contradiction of the `correct` ones. Recall: misinfo documents flagged in conflict with a
correct document. Precision: flagged pairs that are such (misinfo vs correct) pairs; a flag between two correct
documents, or involving noise, counts against it. The script also reports recall on the misinfo documents that
are edited copies of a correct one (difflib word ratio >= 0.5 with some correct document of the question: the
contradictions visible without knowing the question) and, after `bank.run(question)`, how often
cross-validation sided with the correct document.

    python bench/ramdocs_conflicts.py
    python bench/ramdocs_conflicts.py --no-run      # detection only, faster
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ramdocs" / "ramdocs_dev_visible.jsonl"
COPY_RATIO = 0.5


def doc_ids_of(bank: MemoryBank, node_id: str) -> set[int]:
    """Documents behind a node (sources are named doc<i>), following merges."""
    resolved = bank.memory.resolve_id(node_id) or node_id
    if resolved in bank.memory.graph:
        names = {s.name for s in bank.node(resolved).sources}
    else:
        names = {e.metadata.get("source", "") for e in bank.entries_for(node_id)}
    return {int(n[3:]) for n in names if n.startswith("doc")}


def is_edited_copy(doc: dict, docs: list[dict]) -> bool:
    words = doc["text"].split()
    return any(SequenceMatcher(None, words, other["text"].split(), autojunk=False).ratio() >= COPY_RATIO
               for other in docs if other["type"] == "correct")


class Tally:
    def __init__(self) -> None:
        self.flagged = self.real = self.misinfo = self.misinfo_hit = 0
        self.copies = self.copies_hit = 0
        self.resolved = self.resolved_right = 0
        self.false_pairs: list[str] = []

    def add_question(self, row: dict, pairs: list[tuple[set[int], set[int]]]) -> None:
        docs = row["documents"]
        hit: set[int] = set()
        for a, b in pairs:
            self.flagged += 1
            real = [(m, c) for x, y in ((a, b), (b, a)) for m in x for c in y
                    if docs[m]["type"] == "misinfo" and docs[c]["type"] == "correct"]
            if real:
                self.real += 1
                hit.update(m for m, _ in real)
            else:
                kinds = "/".join(sorted({docs[i]["type"] for i in a | b}))
                self.false_pairs.append(f"{row['question'][:60]} [{kinds}]")
        for i, d in enumerate(docs):
            if d["type"] != "misinfo":
                continue
            self.misinfo += 1
            self.misinfo_hit += i in hit
            if is_edited_copy(d, docs):
                self.copies += 1
                self.copies_hit += i in hit


def ingest(bank: MemoryBank, row: dict) -> list[tuple[set[int], set[int]]]:
    for i, doc in enumerate(row["documents"]):
        bank.ingest_text(doc["text"], source=f"doc{i}")
    return [(doc_ids_of(bank, c.node_a), doc_ids_of(bank, c.node_b)) for c in bank.memory.conflicts.values()]


def validate(bank: MemoryBank, row: dict, tally: Tally) -> None:
    """Run the question: every pending conflict is cross-validated; check the side the verdict supports."""
    conflicts = list(bank.memory.conflicts.values())
    sides = {c.id: (c.node_a, doc_ids_of(bank, c.node_a), c.node_b, doc_ids_of(bank, c.node_b)) for c in conflicts}
    bank.run(row["question"])
    for c in conflicts:
        if c.status != "resolved" or c.rejected_node is None:
            continue  # undecided: the verdict rejected neither side
        supported = c.node_b if c.rejected_node == c.node_a else c.node_a  # the sides as validated
        a, docs_a, _, docs_b = sides[c.id]
        winner = docs_a if supported == a else docs_b
        types = {row["documents"][i]["type"] for i in winner}
        tally.resolved += 1
        tally.resolved_right += "correct" in types and "misinfo" not in types


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-run", action="store_true", help="detection only (skip cross-validation runs)")
    parser.add_argument("--show", type=int, default=10, help="false flags to list")
    args = parser.parse_args()
    if not args.data.is_file():
        sys.exit(f"RAMDocs data not found: {args.data}")
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    embedder = load_embedder()
    settings = Settings(engine="offline")
    tally = Tally()
    start = time.perf_counter()
    for row in rows:
        bank = MemoryBank(settings, embedder=embedder)
        tally.add_question(row, ingest(bank, row))
        if not args.no_run:
            validate(bank, row, tally)
        bank.clear()
    seconds = time.perf_counter() - start

    precision = tally.real / tally.flagged if tally.flagged else 0.0
    print(f"questions: {len(rows)}, misinfo documents: {tally.misinfo}, flagged pairs: {tally.flagged}")
    print(f"precision: {precision:.3f} ({tally.real}/{tally.flagged} flagged pairs are misinfo vs correct)")
    print(f"recall:    {tally.misinfo_hit / tally.misinfo:.3f} ({tally.misinfo_hit}/{tally.misinfo} misinfo documents)")
    if tally.copies:
        print(f"recall on edited copies (word ratio >= {COPY_RATIO} with a correct document): "
              f"{tally.copies_hit / tally.copies:.3f} ({tally.copies_hit}/{tally.copies})")
    if not args.no_run and tally.resolved:
        print(f"cross-validation sided with the correct document: {tally.resolved_right}/{tally.resolved}")
    for line in tally.false_pairs[: args.show]:
        print(f"  false flag: {line}")
    print(f"{seconds:.0f}s")


if __name__ == "__main__":
    main()
