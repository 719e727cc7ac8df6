"""Document QA on the project's own dev set: lists, steps, counts, comparisons, table figures, yes/no judgements
and on-topic questions the document does not answer, over the NIST PDF and the two 10-Ks.

Each PDF is ingested once by the offline engine (`bank.ingest_file`, as an upload is), then its questions are
asked in file order through `bank.run` — the call the Run page makes for a question and its follow-ups — and
scored on what the user sees: the key terms in the answer (`doc_qa_set.carries`), a cited PDF page among the
evidence pages and the share of the cited pages that are evidence pages (a citation spanning a whole part of a
filing meets the first trivially), "not found" said for the unanswerable questions (and wrongly for the others),
seconds per answer.

Beside it, the evidence a block holds: the question's `memory_prompt` built for a budget worth 250 / 500 / 1000
words of the document (its characters per word, counted with the project's one token estimate) and cut at that
many words, against the document's 200-word chunks ranked by the same embedder and hybrid score (MiniLM + BM25,
alpha 0.5) and cut at the same words. The chunks are cut from the loader's text, the very text the bank ingests.
The share of a question's evidence entries found is averaged per document and kind.

    python bench/doc_qa.py                          # all three PDFs, every question (~8 min on 2 busy cores)
    python bench/doc_qa.py --doc nist --limit 7     # one document, a question of each kind
    python bench/doc_qa.py --cache /tmp/docqa --json /tmp/doc_qa.json   # reuse the ingested banks; keep the rows
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doc_qa_set import DEV_SET, KINDS, PDF_DIR, carries, evidence_share, load, term_share  # noqa: E402
from longdoc import ChunkBaseline, cut, load_or_build  # noqa: E402

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.engines.protocol.not_found import NOT_FOUND, is_not_found  # noqa: E402
from memory_bank.loaders import load_file  # noqa: E402
from memory_bank.retrieval.embedding import Runtime, load_embedder  # noqa: E402
from memory_bank.text.tokens import tokens_for_chars  # noqa: E402

BUDGETS = (250, 500, 1000)
CHUNKS_READ = 10  # ranked chunks joined before the cut: more than the largest budget needs


def pick(questions: list[dict], limit: int | None) -> list[dict]:
    """The first `limit` questions taking kinds in turn, so a short run still sees every kind."""
    if limit is None:
        return questions
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for q in questions:
        by_kind[q["kind"]].append(q)
    turns = [q for i in range(len(questions)) for kind in KINDS if i < len(by_kind[kind]) for q in [by_kind[kind][i]]]
    return sorted(turns[:limit], key=questions.index)


def ask(bank: MemoryBank, baseline: ChunkBaseline, tokens: dict[int, int], q: dict,
        fractions: dict[str, float]) -> dict:
    t0 = time.perf_counter()
    result = bank.run(q["question"])
    seconds = time.perf_counter() - t0
    answer = result.answer.strip()
    cited = sorted({p for c in result.citations for p in c.pages})
    row = {"id": q["id"], "doc": q["doc"], "kind": q["kind"], "answerable": q["answerable"],
           "question": q["question"], "answer": answer, "cited_pages": cited, "seconds": round(seconds, 2),
           "not_found": is_not_found(answer), "a_part_not_found": NOT_FOUND in answer}
    if not q["answerable"]:
        return row
    chunks = baseline.context(q["question"], CHUNKS_READ)
    row.update(carries=carries(answer, q, fractions), term_share=round(term_share(answer, q["key_terms"]), 2),
               page_cited=bool(set(cited) & set(q["evidence_pages"])),
               page_precision=len(set(cited) & set(q["evidence_pages"])) / len(cited) if cited else 0.0,
               block={b: evidence_share(cut(bank.memory_prompt(q["question"], budget_tokens=tokens[b]), b),
                                        q["evidence"]) for b in BUDGETS},
               chunks={b: evidence_share(cut(chunks, b), q["evidence"]) for b in BUDGETS})
    return row


def run_document(doc: str, questions: list[dict], settings: Settings, embedder, cache: Path | None,  # noqa: ANN001
                 fractions: dict[str, float]) -> tuple[list[dict], dict]:
    pdf = PDF_DIR / doc
    loaded = load_file(pdf, max_bytes=settings.max_file_mb * 1024 * 1024,
                       max_image_pixels=settings.max_image_pixels)
    text = "\n\n".join(page.text for page in loaded.pages if page.text.strip())
    chars_per_word = len(text) / len(text.split())
    tokens = {b: tokens_for_chars(round(b * chars_per_word)) for b in BUDGETS}
    print(f"\n== {doc}: {len(loaded.pages)} pages, {len(text.split())} words, {len(questions)} questions; budgets "
          + ", ".join(f"{b} words = {t} tokens" for b, t in tokens.items()))
    t0 = time.perf_counter()
    baseline = ChunkBaseline(text, embedder, settings.retrieval_alpha)
    baseline_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    bank = load_or_build(settings, embedder, cache / f"{pdf.stem}.json" if cache else None,
                         lambda b: b.ingest_file(pdf))
    info = {"pages": len(loaded.pages), "words": len(text.split()), "budget_tokens": tokens,
            "chunks": len(baseline.chunks), "baseline_seconds": round(baseline_seconds, 1),
            "bank_seconds": round(time.perf_counter() - t0, 1), "counts": bank.snapshot().counts}
    rows = []
    for q in questions:
        rows.append(ask(bank, baseline, tokens, q, fractions))
        print(f"  {q['id']:<10} {rows[-1]['seconds']:>5.1f}s  {_verdict(rows[-1])}")
    return rows, info


def _verdict(row: dict) -> str:
    if not row["answerable"]:
        return "not found (right)" if row["not_found"] else "answered (should be not found)"
    if row["not_found"]:
        return "not found (wrong)"
    top = BUDGETS[-1]
    return (f"terms {'ok' if row['carries'] else 'no'} ({row['term_share']:.2f}), "
            f"page {'ok' if row['page_cited'] else 'no'}, "
            f"block {row['block'][top]:.2f} / chunks {row['chunks'][top]:.2f} at {top} words")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def summary_row(rows: list[dict]) -> dict:
    """Shares over the rows: answer measures over the answerable ones, 'not found' over the unanswerable ones
    (right) or the answerable ones (wrong), evidence shares averaged over the answerable ones."""
    ans = [r for r in rows if r["answerable"]]
    gone = [r for r in rows if not r["answerable"]]
    out = {"n": len(rows), "seconds": _mean([r["seconds"] for r in rows])}
    if ans:
        out.update(terms=_mean([r["carries"] for r in ans]), pages=_mean([r["page_cited"] for r in ans]),
                   precision=_mean([r["page_precision"] for r in ans]),
                   wrong_not_found=_mean([r["not_found"] for r in ans]),
                   block={b: _mean([r["block"][b] for r in ans]) for b in BUDGETS},
                   chunks={b: _mean([r["chunks"][b] for r in ans]) for b in BUDGETS})
    if gone:
        out["not_found"] = _mean([r["not_found"] for r in gone])
    return out


def _cell(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


COLUMNS = ("key terms", "evidence page cited", "cited pages on evidence", "not found", "s / answer",
           *(f"block {b}" for b in BUDGETS), *(f"chunks {b}" for b in BUDGETS))


def _cells(s: dict, unanswerable: bool) -> list[str]:
    nothing = ["—"] * len(BUDGETS)
    return [_cell(s.get("terms")), _cell(s.get("pages")), _cell(s.get("precision")),
            _cell(s.get("not_found") if unanswerable else s.get("wrong_not_found")), f"{s['seconds']:.1f}",
            *([_cell(s["block"][b]) for b in BUDGETS] if "block" in s else nothing),
            *([_cell(s["chunks"][b]) for b in BUDGETS] if "chunks" in s else nothing)]


def table(rows: list[dict]) -> tuple[str, dict]:
    """Markdown: one line per document and kind, one per document, one overall. 'not found' is the right
    answer on the unanswerable line and a wrong one on the others."""
    lines = ["| document | kind | n | " + " | ".join(COLUMNS) + " |", "|---|---|" + "---:|" * (1 + len(COLUMNS))]
    groups: dict[str, dict] = {}
    docs = list(dict.fromkeys(r["doc"] for r in rows))
    for doc in docs + (["all"] if len(docs) > 1 else []):
        mine = [r for r in rows if doc in ("all", r["doc"])]
        kinds = [k for k in KINDS if any(r["kind"] == k for r in mine)]
        for kind in kinds + ["all"]:
            s = groups[f"{doc} / {kind}"] = summary_row([r for r in mine if kind in ("all", r["kind"])])
            name = doc.removesuffix(".pdf") if kind in ("all", kinds[0]) else ""
            label = "**all**" if kind == "all" else kind
            lines.append(f"| {name} | {label} | {s['n']} | " + " | ".join(_cells(s, kind == "unanswerable")) + " |")
    return "\n".join(lines), groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--doc", action="append", help="only documents whose file name holds this (repeatable)")
    parser.add_argument("--limit", type=int, help="questions per document, kinds taken in turn")
    parser.add_argument("--json", type=Path, help="write every answer and score, and the summary, here")
    parser.add_argument("--cache", type=Path, help="folder of the ingested banks' exports: written once, then loaded")
    parser.add_argument("--set", type=Path, default=DEV_SET, help="the question file (a held-out set alike)")
    parser.add_argument("--threads", type=int, help="torch threads (1 is faster on a busy shared machine)")
    parser.add_argument("--runtime", choices=get_args(Runtime), default="auto",
                        help="the embedding runtime (the vectors of each are compared by bench/embedding_int8.py)")
    args = parser.parse_args()
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    about, questions = load(args.set)
    docs = [d for d in dict.fromkeys(q["doc"] for q in questions)
            if not args.doc or any(part.lower() in d.lower() for part in args.doc)]
    missing = [d for d in docs if not (PDF_DIR / d).is_file()]
    if missing:
        sys.exit(f"PDFs not found in {PDF_DIR}: {', '.join(missing)}")
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    settings, embedder = Settings(engine="offline"), load_embedder(runtime=args.runtime)
    started = time.perf_counter()
    rows: list[dict] = []
    info: dict[str, dict] = {}
    for doc in docs:
        mine, info[doc] = run_document(doc, pick([q for q in questions if q["doc"] == doc], args.limit), settings,
                                       embedder, args.cache, about["term_fraction"])
        rows.extend(mine)
    text, groups = table(rows)
    wall = time.perf_counter() - started
    print(f"\n{text}\n\n{len(rows)} questions in {wall:.0f}s (ingestion and baseline indexing included)")
    if args.json:
        args.json.write_text(json.dumps({"documents": info, "summary": groups, "rows": rows, "seconds": round(wall)},
                                        indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
