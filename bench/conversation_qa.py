"""Conversation QA: does the memory block an agent is handed hold the turns that answer a question about a long
chat, and the session date a "when did ..." question needs?

Each conversation of `bench/data/conversation/` (two speakers, dated sessions, "Name: text" turns) is pasted
whole through the product path, as the New task page's paste box does (`bank.ingest_text(text, "pasted text")`,
offline engine, MiniLM), and for every question `bank.memory_prompt(question, budget_tokens=B)` is read at
budgets B equivalent to 250 / 500 / 1000 words of the conversation. The baseline cuts the same text into 200-word
chunks ranked by the same hybrid score (MiniLM + BM25, the settings' alpha), cut to the same budgets
(`squad_longdoc.ChunkBaseline`).

Scored per question: `turn` the share of its evidence turns the context holds, `all` whether it holds every
one (what a multi-hop question needs), `date` whether a temporal question's session date is in it, `key`
whether every answer key term is. A turn is held when the sentences of it found verbatim in the context (word
for word, case and punctuation aside) make up at least half of its words: the block shows the sentences that
bear on the question, chunks cut a turn at their edges, and both are judged alike.

    python bench/conversation_qa.py
    python bench/conversation_qa.py --threads 1 --budgets 250 1000
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from squad_longdoc import BUDGETS, ChunkBaseline  # noqa: E402

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402
from memory_bank.text.split import split_sentences  # noqa: E402
from memory_bank.text.tokens import chars_for_tokens, tokens_for_chars  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "conversation"
KINDS = ("single-hop", "multi-hop", "temporal", "adversarial")
SOURCE = "pasted text"  # what the New task page names a pasted context
_SESSION = re.compile(r"^Session (\d+)\s*(?:—\s*(.+)|\((.+)\))\s*$")
_TURN = re.compile(r"^([A-Z][\w.]*(?: [A-Z][\w.]*)?): (.+)$")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Turn:
    id: str  # "S3:T12": session number, turn number within the session (from 1)
    date: str  # the session's date as written in its header
    text: str  # the whole line, speaker included


def read_turns(text: str) -> dict[str, Turn]:
    """The data's own reading of its turns, independent of the parser under test: one turn per line."""
    turns: dict[str, Turn] = {}
    session, date, number = 0, "", 0
    for line in text.splitlines():
        if match := _SESSION.match(line):
            session, date, number = int(match.group(1)), match.group(2) or match.group(3), 0
        elif _TURN.match(line):
            number += 1
            turns[f"S{session}:T{number}"] = Turn(f"S{session}:T{number}", date, line)
    return turns


def load(name: str) -> tuple[str, dict[str, Turn], list[dict]]:
    """A conversation, its turns and its questions, checked: every evidence id is a turn, every quote is in
    its turn, every key term of an answerable question is in one of its turns (a temporal one's is the date)."""
    text = (DATA / f"{name}.txt").read_text(encoding="utf-8")
    turns = read_turns(text)
    questions = json.loads((DATA / f"{name}.questions.json").read_text(encoding="utf-8"))["questions"]
    for q in questions:
        evidence = [turns[e] for e in q["evidence"]]
        for turn, quote in zip(evidence, q["quotes"]):
            assert quote in turn.text, f"{q['id']}: {quote!r} is not in {turn.id}"
        said = " ".join(t.text for t in evidence).lower() if q["kind"] != "temporal" else \
            " ".join(t.date for t in evidence).lower()
        missing = [k for k in q["key_terms"] if k.lower() not in said]
        assert not missing, f"{q['id']}: key terms {missing} not in its evidence"
    return text, turns, questions


def _norm(text: str) -> str:
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def holds_turn(context: str, turn: Turn) -> bool:
    """Whether at least half the turn's words are in sentences of it found verbatim in the context."""
    sentences = split_sentences(turn.text)
    total = sum(len(_WORD.findall(s)) for s in sentences)
    found = sum(len(_WORD.findall(s)) for s in sentences if _norm(s) in context)
    return total > 0 and found * 2 >= total


def score(context: str, q: dict, turns: dict[str, Turn]) -> dict[str, float]:
    norm = _norm(context)
    held = [holds_turn(norm, turns[e]) for e in q["evidence"]]
    out = {"turn": sum(held) / len(held), "all": float(all(held))}
    if q["kind"] == "temporal":
        out["date"] = float(all(_norm(turns[e].date) in norm for e in q["evidence"]))
    if q["key_terms"]:
        out["key"] = float(all(_norm(k) in norm for k in q["key_terms"]))
    return out


def ingest(text: str, settings: Settings, embedder) -> tuple[MemoryBank, float]:  # noqa: ANN001
    bank = MemoryBank(settings, embedder=embedder)
    t0 = time.perf_counter()
    bank.ingest_text(text, source=SOURCE)
    return bank, time.perf_counter() - t0


def run(names: list[str], budgets: tuple[int, ...], k: int) -> None:
    embedder = load_embedder()
    if embedder.warning:
        print(f"warning: {embedder.warning}")
    settings = Settings(engine="offline")
    # (system, kind, budget) -> measure -> scores
    results: dict[tuple[str, str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for name in names:
        text, turns, questions = load(name)
        bank, seconds = ingest(text, settings, embedder)
        counts = bank.snapshot().counts
        baseline = ChunkBaseline(text, embedder, settings.retrieval_alpha)
        chars_per_word = len(text) / len(text.split())
        tokens = {b: tokens_for_chars(round(b * chars_per_word)) for b in budgets}
        print(f"{name}: {len(text.split())} words, {len(turns)} turns, {len(questions)} questions; "
              f"ingested in {seconds:.1f}s ({counts}); budgets {tokens} tokens")
        for q in questions:
            chunks = baseline.context(q["question"], k)
            for b in budgets:
                block = bank.memory_prompt(q["question"], budget_tokens=tokens[b])
                for system, context in (("block", block), ("chunks", chunks[: chars_for_tokens(tokens[b])])):
                    for kind in (q["kind"], "all kinds"):
                        for measure, value in score(context, q, turns).items():
                            results[(system, kind, b)][measure].append(value)
        bank.clear()
    report(results, budgets)


def report(results: dict, budgets: tuple[int, ...]) -> None:
    measures = ("turn", "all", "date", "key")
    print(f"\n{'kind':>12} {'words':>5} | " + " | ".join(f"{m:>13}" for m in measures))
    print(f"{'':>12} {'':>5} | " + " | ".join(f"{'block chunks':>13}" for _ in measures))
    for kind in (*KINDS, "all kinds"):
        for b in budgets:
            cells = []
            for m in measures:
                got = [results[(s, kind, b)].get(m) for s in ("block", "chunks")]
                cells.append(" ".join(f"{sum(v) / len(v):>6.3f}" if v else f"{'-':>6}" for v in got))
            n = len(results[("block", kind, b)]["turn"])
            print(f"{kind:>12} {b:>5} | " + " | ".join(cells) + f"   (n={n})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", nargs="+",
                        default=sorted(p.stem for p in DATA.glob("*.txt")), help="names in bench/data/conversation")
    parser.add_argument("--budgets", nargs="+", type=int, default=list(BUDGETS))
    parser.add_argument("--k", type=int, default=10, help="chunks ranked to fill the largest budget")
    parser.add_argument("--threads", type=int, help="torch threads (1 is faster on a busy shared machine)")
    args = parser.parse_args()
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    run(args.conversations, tuple(args.budgets), args.k)
    print(f"\n{time.perf_counter() - t0:.0f}s in all")


if __name__ == "__main__":
    main()
