"""The real local model (Qwen2.5-Coder-1.5B Q4_K_M on llama.cpp, this machine's CPU) through the product paths.

    python bench/local_llm.py notes            # (1) notes sample, LLM for everything
    python bench/local_llm.py nist             # (2) NIST PDF, local model for answers
    python bench/local_llm.py nist-all --max-minutes 20   # (2b) NIST PDF, LLM for everything, bounded
    python bench/local_llm.py squad -n 30      # (3) SQuAD dev questions: local model vs offline extractive answer
    python bench/local_llm.py onecall          # (4) NIST sample + dev questions: one-call answer vs offline
    python bench/local_llm.py onecall --cache /tmp/nist.json --ids nist-02 nist-19   # reuse the ingested bank
    python bench/local_llm.py onecall --set bench/data/doc_qa_blind.json --ids nist-b03 nist-b10   # blind questions
    python bench/local_llm.py all

(1) counts every call the agents made, the tokens, the wall time, and how the JSON agents' replies fared: valid
at the first try, valid after a re-ask, or given up (the offline agent then did that input: `AgentFellBack`).
A re-ask is told apart by its correction message. (2) times the first node on the graph and the answer, from
the start of ingestion. (3) ingests one SQuAD article once (offline), then answers seeded questions twice from
the same memory (export -> import): the offline extractive answer and the local model's ReAct answer; a hit is
the gold string inside the answer (case-insensitive). Every result prints with the machine's load average and
lands in bench/results/local_llm.json. Needs the model: `python -m memory_bank fetch-model`.
(2b) ingests the NIST PDF with *LLM for everything* under a time budget (`--max-minutes`, the product's
INGEST_TIME_BUDGET: after the first wave the reading stops before the next call, and says how far it got), then
asks the app's NIST sample question: wall time, pages read, calls and tokens (sent and processed) per page and per
agent, re-asks and stand-ins, the answer. After each wave the log prints what it cost per agent.
(4) ingests the NIST PDF once (offline), then asks the app's NIST sample question and dev questions of
bench/data/doc_qa_dev.json twice from the same memory: the offline answer and the local model's one grounded
call (*Local model for answers*, `engines/one_call.py`): seconds to the first streamed token, seconds in all,
the key terms the answer carries (`doc_qa_set`), "not found", citations. The sample question's target (issue 22):
first token <= 15 s, whole answer <= 60 s at load <= 1, naming two of the policy administrator, the policy
enforcement point and the trust algorithm.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.engines.llm.client import Completion  # noqa: E402
from memory_bank.engines.llm.local_server import LocalModelServer, ServerOptions  # noqa: E402
from memory_bank.engines.llm.openai_client import OpenAIClient  # noqa: E402
from memory_bank.loaders import load_file  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402
from memory_bank.settings import default_data_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTES = sorted((ROOT / "samples" / "northwind").glob("*.md"))
NOTES_QUESTION = "What is the Northwind project budget, and who approved it?"
NIST = ROOT.parent / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"
NIST_QUESTION = "How does a policy enforcement point interact with the policy decision point?"
SQUAD = ROOT.parent / "shared" / "data" / "squad" / "squad_dev_visible.json"
RESULTS = ROOT / "bench" / "results" / "local_llm.json"
REASK = "Your previous reply could not be used"


class Recorder:
    """An `LLMClient` that forwards to the real one and notes each call: agent, re-ask or first try, cut."""

    def __init__(self, inner: OpenAIClient, replies: Path | None = None) -> None:
        self.inner = inner
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._replies = replies  # each reply's text, one JSON line a call, to read what the model wrote

    def complete(self, messages: list[dict[str, Any]], **kwargs: Any) -> Completion:
        last = str(messages[-1].get("content", "")) if messages else ""
        completion = self.inner.complete(messages, **kwargs)
        with self._lock:
            self.calls.append({"agent": kwargs["agent"], "reask": last.startswith(REASK),
                               "corrections": sum(str(m.get("content", "")).startswith(REASK) for m in messages),
                               "json": kwargs.get("json_mode", False), "finish": completion.finish_reason,
                               "tokens": completion.prompt_tokens + completion.completion_tokens,
                               "prompt": completion.prompt_tokens, "cached": completion.cached_tokens})
            if self._replies is not None:
                with self._replies.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"agent": kwargs["agent"], "finish": completion.finish_reason,
                                          "max_tokens": kwargs.get("max_tokens"), "text": completion.text}) + "\n")
        return completion


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def local_settings(server: LocalModelServer, **values: Any) -> Settings:
    """Short ReAct replies and few steps: on 2 busy cores a step of 1,024 tokens takes minutes."""
    base = {"memory_budget_tokens": 800, "react_max_calls": 4, "react_reply_tokens": 320, "max_rounds": 5}
    return server.settings_for(Settings(**{**base, **values}))


def progress(bank: MemoryBank, name: str) -> None:
    """Each LLM call and each fallback on stderr, so a slow run shows it is moving."""
    start = time.perf_counter()

    def show(event: Any) -> None:
        if event.kind == "llm_usage":
            print(f"  [{name} {time.perf_counter() - start:6.0f} s] {event.agent}: {event.prompt_tokens} prompt "
                  f"({event.prompt_tokens - event.cached_tokens} processed) + {event.completion_tokens} reply "
                  f"tokens in {event.seconds:.0f} s", file=sys.stderr, flush=True)
        elif event.kind == "task_planned":
            print(f"  [{name} {time.perf_counter() - start:6.0f} s] planned {event.task_type} by {event.by}"
                  + (f" ({event.reason})" if event.reason else ""), file=sys.stderr, flush=True)
        elif event.kind == "rule_decided":
            print(f"  [{name} {time.perf_counter() - start:6.0f} s] no {event.agent} call: {event.reason[:120]}",
                  file=sys.stderr, flush=True)
        elif event.kind in ("agent_fell_back", "error", "reading_stopped"):
            message = event.message if len(event.message) <= 400 else f"{event.message[:200]} … {event.message[-200:]}"
            print(f"  [{name} {time.perf_counter() - start:6.0f} s] {event.kind}: {event.where}: {message}",
                  file=sys.stderr, flush=True)

    bank.subscribe(show)


def llm_summary(bank: MemoryBank, recorder: Recorder) -> dict[str, Any]:
    """What *LLM for everything* cost and how its replies fared: calls, tokens sent and processed per agent,
    calls the rules made unnecessary, JSON replies valid at the first try or after a re-ask, and the steps the
    offline agent stood in for."""
    json_calls = [c for c in recorder.calls if c["json"]]
    first = [c for c in json_calls if not c["reask"]]
    needed_reask = sum(c["reask"] and c["corrections"] == 1 for c in json_calls)
    log = bank.events.log()
    fell_back = [e for e in log if e.kind == "agent_fell_back"]
    usage = bank.usage()
    return {
        "llm_calls": usage["calls"], "tokens": usage["prompt_tokens"] + usage["completion_tokens"],
        "prompt_tokens_sent": usage["prompt_tokens"], "prompt_tokens_processed": usage["processed_tokens"],
        "completion_tokens": usage["completion_tokens"],
        "per_agent": {a: {"calls": u["calls"], "prompt_sent": u["prompt_tokens"],
                          "prompt_processed": u["processed_tokens"], "completion": u["completion_tokens"],
                          "seconds": round(u["seconds"], 1)}
                      for a, u in usage["per_agent"].items()},
        "planned": [f"{e.task_type} by {e.by}" for e in log if e.kind == "task_planned"],
        "calls_not_made": dict(Counter(e.agent for e in log if e.kind == "rule_decided")),
        "schema_supported": recorder.inner.schema_supported,
        "json_first_tries": len(first), "json_valid_first_try": len(first) - needed_reask,
        "json_reasks": sum(c["reask"] for c in json_calls), "json_valid_after_reask": needed_reask - len(fell_back),
        "cut_at_max_tokens": sum(c["finish"] == "length" for c in recorder.calls),
        # a ReAct step read only up to its tool call closes its stream before the server's usage arrives: its
        # prompt is counted from the timings llama.cpp sends with every chunk (`timings_per_token`)
        "calls_stopped_before_usage": sum(c["finish"] not in ("stop", "length") for c in recorder.calls),
        "fell_back_to_offline": [f"{e.where}: {e.message[:160]}" for e in fell_back],
    }


def bench_notes(server: LocalModelServer, embedder: Any, replies: Path | None = None) -> dict[str, Any]:
    settings = local_settings(server).with_preset("llm")
    recorder = Recorder(OpenAIClient(settings), replies)
    bank = MemoryBank(settings, embedder=embedder, llm_client=recorder)
    progress(bank, "notes")
    start = time.perf_counter()
    result = bank.run(NOTES_QUESTION, files=NOTES)
    wall = time.perf_counter() - start
    snap = bank.snapshot()
    return {
        "load_before": None, "wall_seconds": round(wall, 1), **llm_summary(bank, recorder),
        "nodes": snap.counts["nodes"], "merges": snap.counts["merges"], "conflicts": snap.counts["conflicts"],
        "pending_conflicts": snap.counts["pending_conflicts"],
        "completed_tasks": [f"{t.type.value} {t.status.value}" for t in result.insight_doc.completed_tasks],
        "termination": result.termination, "answer": result.answer,
        "citations": [c.node_id for c in result.citations], "errors": [str(e) for e in result.errors],
    }


def bench_nist(server: LocalModelServer, embedder: Any) -> dict[str, Any]:
    settings = local_settings(server).with_preset("answers")
    bank = MemoryBank(settings, embedder=embedder)
    progress(bank, "nist")
    first: dict[str, float] = {}
    start = time.perf_counter()
    bank.subscribe(lambda e: first.setdefault("node", time.perf_counter() - start)
                   if e.kind == "node_added" else None)
    result = bank.run(NIST_QUESTION, files=[NIST])
    usage = bank.usage()
    return {"first_node_seconds": round(first.get("node", float("nan")), 1),
            "answer_seconds": round(time.perf_counter() - start, 1), "llm_calls": usage["calls"],
            "tokens": usage["prompt_tokens"] + usage["completion_tokens"], "termination": result.termination,
            "nodes": bank.snapshot().counts["nodes"], "question": NIST_QUESTION, "answer": result.answer,
            "citations": [f"{c.source} {c.pages}" for c in result.citations]}


def _pages_read(bank: MemoryBank) -> int:
    """The last page any node was read from: how far ingestion got."""
    with bank.memory.read():
        return max((p for n in bank.memory.graph.nodes() for p in n.pages()), default=0)


def wave_log(bank: MemoryBank, name: str, start: float) -> None:
    """After each wave of chunks: how far the reading got, and the calls and prompt tokens that wave cost per
    agent, so the progress log shows what a page costs."""
    last: dict[str, dict[str, int]] = {}

    def show(event: Any) -> None:
        if event.kind != "chunks_stored":
            return
        now = bank.usage()["per_agent"]
        spent = {a: (u["calls"] - last.get(a, {}).get("calls", 0),
                     u["processed_tokens"] - last.get(a, {}).get("processed_tokens", 0)) for a, u in now.items()}
        last.update({a: dict(u) for a, u in now.items()})
        print(f"  [{name} {time.perf_counter() - start:6.0f} s] chunks {event.done}/{event.total}, pages to "
              f"{_pages_read(bank)}; this wave: " + ", ".join(f"{a} {c} calls/{t} processed"
                                                               for a, (c, t) in spent.items() if c),
              file=sys.stderr, flush=True)

    bank.subscribe(show)


def bench_nist_all(server: LocalModelServer, embedder: Any, max_minutes: float,
                   replies: Path | None = None) -> dict[str, Any]:
    """The NIST PDF through *LLM for everything* and the app's sample question. `max_minutes` is the product's
    own per-document time budget (INGEST_TIME_BUDGET): once it is spent, ingestion stops before its next call
    (the first wave is read whole), keeps what it read and says how far it got; the answer follows on what was
    read."""
    settings = local_settings(server, ingest_time_budget=max_minutes * 60).with_preset("llm")
    recorder = Recorder(OpenAIClient(settings), replies)
    bank = MemoryBank(settings, embedder=embedder, llm_client=recorder)
    total_pages = len(load_file(NIST, max_bytes=settings.max_file_mb << 20,
                                max_image_pixels=settings.max_image_pixels).page_texts)
    progress(bank, "nist-all")
    start = time.perf_counter()
    wave_log(bank, "nist-all", start)
    marks: dict[str, float] = {}
    bank.subscribe(lambda e: marks.setdefault("loop", time.perf_counter() - start)
                   if e.kind == "task_planned" else None)  # the loop's first step: ingestion is over
    result = bank.run(SAMPLE_QUESTION, files=[NIST])
    wall = time.perf_counter() - start
    summary = llm_summary(bank, recorder)
    stopped = [e for e in bank.events.log() if e.kind == "reading_stopped"]
    pages = stopped[0].done if stopped else total_pages
    ingest_s = marks.get("loop", wall)
    ingest_calls = sum(e.kind == "llm_usage" and e.agent in ("classification", "structure", "analysis",
                                                            "integration") for e in bank.events.log())
    named = [t for t in SAMPLE_TERMS if t in result.answer.lower()]
    return {
        "load_before": None, "max_minutes": max_minutes, "wall_seconds": round(wall, 1),
        "ingest_seconds": round(ingest_s, 1), "answer_seconds": round(wall - ingest_s, 1),
        "pages_read": pages, "pages_total": total_pages,
        "reading_stopped": stopped[0].message if stopped else None,
        "ingest_calls_per_page": round(ingest_calls / max(pages, 1), 2),
        "ingest_seconds_per_page": round(ingest_s / max(pages, 1), 1),
        "prompt_tokens_sent_per_page": round(summary["prompt_tokens_sent"] / max(pages, 1)),
        "prompt_tokens_processed_per_page": round(summary["prompt_tokens_processed"] / max(pages, 1)),
        "completion_tokens_per_page": round(summary["completion_tokens"] / max(pages, 1)),
        **summary, "nodes": bank.snapshot().counts["nodes"], "conflicts": bank.snapshot().counts["conflicts"],
        "completed_tasks": [f"{t.type.value} {t.status.value}" for t in result.insight_doc.completed_tasks],
        "termination": result.termination, "question": SAMPLE_QUESTION, "answer": result.answer,
        "sample_terms_named": named, "citations": [f"{c.source} {c.pages}" for c in result.citations],
        "errors": [str(e)[:200] for e in result.errors],
    }


def _squad_article(seed: int, count: int) -> tuple[str, str, list[dict[str, Any]]]:
    article = json.loads(SQUAD.read_text(encoding="utf-8"))["data"][0]
    text = "\n\n".join(p["context"] for p in article["paragraphs"])
    questions = [{"question": qa["question"], "answers": sorted({a["text"] for a in qa["answers"]})}
                 for p in article["paragraphs"] for qa in p["qas"]]
    return article["title"], text, random.Random(seed).sample(questions, count)


def _hit(answer: str, gold: list[str]) -> bool:
    hay = " ".join(answer.lower().split())
    return any(" ".join(g.lower().split()) in hay for g in gold)


def bench_squad(server: LocalModelServer, embedder: Any, count: int, seed: int) -> dict[str, Any]:
    title, text, questions = _squad_article(seed, count)
    offline = MemoryBank(Settings(memory_budget_tokens=800), embedder=embedder)
    offline.ingest_text(text, source=title)
    local = MemoryBank.from_export(offline.export(), local_settings(server).with_preset("answers"),
                                   embedder=embedder)
    rows = []
    for q in questions:
        t0 = time.perf_counter()
        off = offline.run(q["question"]).answer
        t1 = time.perf_counter()
        mine = local.run(q["question"]).answer
        t2 = time.perf_counter()
        rows.append({"question": q["question"], "gold": q["answers"], "offline_hit": _hit(off, q["answers"]),
                     "local_hit": _hit(mine, q["answers"]), "offline_seconds": round(t1 - t0, 1),
                     "local_seconds": round(t2 - t1, 1), "local_answer": mine[:300]})
        print(f"  {len(rows)}/{len(questions)} offline={rows[-1]['offline_hit']} local={rows[-1]['local_hit']} "
              f"{rows[-1]['local_seconds']} s", file=sys.stderr, flush=True)
    n = len(rows)
    return {"article": title, "questions": n, "seed": seed,
            "offline_hits": sum(r["offline_hit"] for r in rows), "local_hits": sum(r["local_hit"] for r in rows),
            "offline_seconds_per_answer": round(sum(r["offline_seconds"] for r in rows) / n, 2),
            "local_seconds_per_answer": round(sum(r["local_seconds"] for r in rows) / n, 1), "rows": rows}


# the app's NIST sample question (ui/session.py SAMPLES) and the terms its answer must name two of (issue 22)
SAMPLE_QUESTION = ("What are the core components of a zero trust architecture, and how does the policy engine "
                   "decide whether to grant access to a resource?")
SAMPLE_TERMS = ["policy administrator", "policy enforcement point", "trust algorithm"]
ONECALL_IDS = ("nist-02", "nist-08", "nist-13", "nist-19", "nist-23")


def _timed_run(bank: MemoryBank, question: str) -> dict[str, Any]:
    """The answer with seconds to its first streamed piece and in all, and this run's LLM tokens."""
    first: dict[str, float] = {}
    start = time.perf_counter()
    before = bank.usage()
    stop = bank.subscribe(lambda e: first.setdefault("t", time.perf_counter() - start)
                          if e.kind == "answer_delta" and e.text else None)
    try:
        result = bank.run(question)
    finally:
        stop()
    after = bank.usage()
    return {"answer": result.answer, "seconds": round(time.perf_counter() - start, 1),
            "first_token_seconds": round(first["t"], 1) if "t" in first else None,
            "prompt_tokens": after["prompt_tokens"] - before["prompt_tokens"],
            "completion_tokens": after["completion_tokens"] - before["completion_tokens"],
            "citations": [f"{c.node_id} p{c.pages}" for c in result.citations], "errors": result.errors}


def _scored(run: dict[str, Any], q: dict[str, Any], fractions: dict[str, float]) -> dict[str, Any]:
    from doc_qa_set import carries, term_share

    from memory_bank.engines.protocol.not_found import is_not_found

    answer = run["answer"]
    if q["id"] == "sample":
        named = [t for t in SAMPLE_TERMS if term_share(answer, [t])]
        return {**run, "not_found": is_not_found(answer), "key_terms": f"{len(named)}/3 {named}",
                "carries": len(named) >= 2}
    share = term_share(answer, q["key_terms"]) if q["key_terms"] else None
    ok = (not q["answerable"] and is_not_found(answer)) or (q["answerable"] and carries(answer, q, fractions))
    return {**run, "not_found": is_not_found(answer), "key_terms": share, "carries": ok}


def bench_onecall(server: LocalModelServer, embedder: Any, ids: list[str], cache: Path | None,
                  question_set: Path | None = None) -> dict[str, Any]:
    from doc_qa_set import DEV_SET
    from doc_qa_set import load as load_dev_set
    from longdoc import load_or_build

    about, dev = load_dev_set(question_set or DEV_SET)
    questions = [{"id": "sample", "question": SAMPLE_QUESTION, "answerable": True}]
    questions += [q for q in dev if q["id"] in ids]
    offline = load_or_build(Settings(), embedder, cache, lambda bank: bank.ingest_file(NIST))
    local = MemoryBank.from_export(offline.export(), local_settings(server).with_preset("answers"),
                                   embedder=embedder)
    assert local.settings.answers_in_one_call()
    progress(local, "onecall")
    rows = []
    for q in questions:
        load_before = load()
        off = _scored(_timed_run(offline, q["question"]), q, about["term_fraction"])
        mine = _scored(_timed_run(local, q["question"]), q, about["term_fraction"])
        rows.append({"id": q["id"], "question": q["question"], "load_before": load_before, "load_after": load(),
                     "offline": off, "one_call": mine})
        print(f"  {q['id']}: load {load_before} -> {load()} | offline {off['seconds']} s carries={off['carries']} "
              f"| one call: first token {mine['first_token_seconds']} s, all {mine['seconds']} s, "
              f"{mine['prompt_tokens']}+{mine['completion_tokens']} tokens, carries={mine['carries']} "
              f"terms={mine['key_terms']} not_found={mine['not_found']}", file=sys.stderr, flush=True)
        print(f"    one call: {mine['answer'][:600]!r}", file=sys.stderr, flush=True)
    return {"questions": len(rows), "offline_carries": sum(r["offline"]["carries"] for r in rows),
            "one_call_carries": sum(r["one_call"]["carries"] for r in rows), "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["notes", "nist", "nist-all", "squad", "onecall", "all"])
    parser.add_argument("-n", "--questions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--ids", nargs="*", default=list(ONECALL_IDS), help="onecall: dev-set question ids")
    parser.add_argument("--cache", type=Path, help="onecall: the ingested NIST bank's export (written when absent)")
    parser.add_argument("--set", type=Path, help="onecall: the question file --ids are read from (default: the dev "
                        "set; bench/data/doc_qa_blind.json for the blind one)")
    parser.add_argument("--replies", type=Path,
                        help="notes, nist-all: append each reply's text here (one JSON line a call)")
    parser.add_argument("--max-minutes", type=float, default=20.0,
                        help="nist-all: the ingestion's time budget (INGEST_TIME_BUDGET); the answer follows")
    parser.add_argument("--threads", type=int, default=0,
                        help="llama.cpp threads (0: the server's own choice from the load; 1 beside other work)")
    args = parser.parse_args()
    embedder = load_embedder(None)
    server = LocalModelServer.for_data_dir(default_data_dir(), options=ServerOptions(threads=args.threads))
    t0 = time.perf_counter()
    server.start()
    ready = round(time.perf_counter() - t0, 1)
    try:
        for name in (["notes", "nist", "squad"] if args.what == "all" else [args.what]):
            before = load()
            print(f"{name}: load average {before}", file=sys.stderr, flush=True)
            if name == "notes":
                out = bench_notes(server, embedder, args.replies)
            elif name == "nist":
                out = bench_nist(server, embedder)
            elif name == "nist-all":
                out = bench_nist_all(server, embedder, args.max_minutes, args.replies)
            elif name == "onecall":
                out = bench_onecall(server, embedder, args.ids, args.cache, args.set)
            else:
                out = bench_squad(server, embedder, args.questions, args.seed)
            out["load_before"], out["load_after"], out["server_ready_seconds"] = before, load(), ready
            out["llama_threads"] = args.threads or "auto"
            RESULTS.parent.mkdir(parents=True, exist_ok=True)
            # read again just before writing: another run of this script may have added its part meanwhile
            results = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
            results[name] = out
            RESULTS.write_text(json.dumps(results, indent=1, ensure_ascii=False))
            print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1, ensure_ascii=False))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
