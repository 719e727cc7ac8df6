"""Each near-miss constraint of `constraints.py` measured alone, on the fit and check halves of the near misses.

Two readings. *Ranked*: every near miss of `bench/data/squad_near_miss.json` and a sample of answerable SQuAD
questions of the dev book is ranked as the product ranks it (the memory block's evidence, `Answerer.rank`), and
each signal is read on the sentence the answer would open with; printed per half: near misses the found model
answers that the signal would refuse, and answerable questions answered right (gold in the answer) it would
refuse. *Gold sentences* (no model, seconds): each signal read on the sentence of its paragraph holding the gold
answer of every answerable dev question (its neighbours as context, the article's title as topic), and on the
sentence of each near miss's tempting span: how often an answer sentence would be refused, how often a near miss.

    python bench/near_miss_signals.py --cache /tmp/book13.json --answerable 170 --threads 1
    python bench/near_miss_signals.py --gold-only
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from squad_longdoc import DATA, hit, load_book, load_or_ingest  # noqa: E402
from squad_near_miss import HALVES, NEAR_MISS, NEAR_MISS_MORE, half, load_near_miss  # noqa: E402

from memory_bank import Settings  # noqa: E402
from memory_bank.engines.offline.constraints import (  # noqa: E402
    opposite_words,
    other_member,
    unmet_terms,
    unsaid_measure,
)
from memory_bank.engines.offline.dated_event import redated  # noqa: E402
from memory_bank.engines.offline.denied import denied  # noqa: E402
from memory_bank.engines.offline.nlp import sentences  # noqa: E402
from memory_bank.engines.offline.slots import other_agent, renumbered, swapped_names  # noqa: E402

Signal = Callable[[str, str, str, str], list[str]]  # (question, sentence, its neighbours, topic) -> what is unmet
SIGNALS: dict[str, Signal] = {
    "unmet name/number/year": lambda q, s, near, topic: unmet_terms(q, near, topic),
    "word said the other way": lambda q, s, near, topic: opposite_words(q, s) + other_member(q, s, near),
    "share, year or count not given": lambda q, s, near, topic: unsaid_measure(q, s, near),
    "name in another's slot": lambda q, s, near, topic: (swapped_names(q, s, near, topic) + renumbered(q, s)
                                                        + other_agent(q, s)),
    "year of another event": lambda q, s, near, topic: redated(q, s),
    "what it denies": lambda q, s, near, topic: denied(q, s),
}


def flags(question: str, sentence: str, near: str, topic: str) -> dict[str, bool]:
    out = {name: bool(signal(question, sentence, near, topic)) for name, signal in SIGNALS.items()}
    out["any"] = any(out.values())
    return out


def gold_sentences(data: Path) -> None:
    articles = json.loads(data.read_text(encoding="utf-8"))["data"]
    counts: dict[str, int] = dict.fromkeys([*SIGNALS, "any"], 0)
    total = 0
    for article in articles:
        topic = article["title"].replace("_", " ")
        for paragraph in article["paragraphs"]:
            said = sentences(paragraph["context"])
            for qa in paragraph["qas"]:
                k = next((i for i, s in enumerate(said) if qa["answers"][0]["text"] in s), None)
                if k is None:
                    continue
                total += 1
                for name, on in flags(qa["question"], said[k], " ".join(said[max(0, k - 1):k + 2]), topic).items():
                    counts[name] += on
    print(f"answer sentences of {total} answerable dev questions refused: "
          + "; ".join(f"{name} {n} ({n / max(1, total):.3f})" for name, n in counts.items()))
    by_title = {a["title"]: a for a in articles}
    for path in (NEAR_MISS, NEAR_MISS_MORE):
        caught = {part: [0, 0] for part in HALVES}
        for q in load_near_miss(path):
            said = sentences(by_title[q["title"]]["paragraphs"][q["paragraph"]]["context"])
            k = next((i for i, s in enumerate(said) if q["tempting"][:20] in s), None)
            if k is None:
                continue
            near = " ".join(said[max(0, k - 1):k + 2])
            caught[half(q["question"])][0] += flags(q["question"], said[k], near, q["title"].replace("_", " "))["any"]
            caught[half(q["question"])][1] += 1
        print(f"near misses ({path.stem}) refused at their tempting sentence: "
              + "; ".join(f"{part} {n}/{of}" for part, (n, of) in caught.items()))


def ranked(args: argparse.Namespace) -> None:
    from memory_bank.engines.offline.executor import OfflineExecutor
    from memory_bank.engines.protocol.figures import TableIndex
    from memory_bank.engines.protocol.memory_block import MemoryBlockBuilder
    from memory_bank.retrieval.embedding import load_embedder

    book, questions = load_book(args.data)
    bank = load_or_ingest(book, Settings(engine="offline"), load_embedder(), args.cache)
    executor = OfflineExecutor(bank.embedder, bank.view, TableIndex(bank.view))
    blocks = MemoryBlockBuilder(bank.view)
    sample = random.Random(args.seed).sample(questions, args.answerable)
    tally: dict[tuple[str, str, str], list[int]] = {}
    for kind, items in (("near miss", load_near_miss()), ("more near misses", load_near_miss(NEAR_MISS_MORE)),
                        ("answerable", sample)):
        for q in items:
            selection = blocks.select(q["question"], bank.settings.memory_budget_tokens)
            ranking = executor.answerer.rank(q["question"], executor.evidence(selection))
            if ranking is None:
                continue
            found = ranking.signals(ranking.lead())
            answer = executor.answerer.answer_ranked(q["question"], ranking)
            if not executor.answerer.config.found.found(found) or ranking.misdated(ranking.lead()):
                continue  # refused before any constraint is read
            if kind == "answerable" and not hit(answer.text, q["answers"]):
                continue  # a wrong answer refused loses nothing
            lead = ranking.pool[ranking.lead()]
            near = " ".join(e.text for e in ranking.pool
                            if e.node_id == lead.node_id and abs(e.position - lead.position) <= 1)
            topic = " ".join((lead.source, *lead.section))
            for name, on in flags(q["question"], lead.text, near or lead.text, topic).items():
                count = tally.setdefault((kind, half(q["question"]), name), [0, 0])
                count[0] += on
                count[1] += 1
    for name in [*SIGNALS, "any"]:
        print(f"{name:>26}: " + "; ".join(
            f"{kind} {part} {tally.get((kind, part, name), [0, 0])[0]}/{tally.get((kind, part, name), [0, 0])[1]}"
            for kind in ("near miss", "more near misses", "answerable") for part in HALVES))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--cache", type=Path, help="export of the ingested book (squad_longdoc.py's)")
    parser.add_argument("--answerable", type=int, default=170, help="answerable questions sampled")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--gold-only", action="store_true", help="only the model-free gold-sentence reading")
    parser.add_argument("--threads", type=int, help="torch threads (1 is faster on a busy shared machine)")
    args = parser.parse_args()
    if not args.data.is_file():
        sys.exit(f"SQuAD data not found: {args.data}")
    gold_sentences(args.data)
    if args.gold_only:
        return
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    ranked(args)


if __name__ == "__main__":
    main()
