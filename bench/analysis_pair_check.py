"""The real local model on one batched analysis call over NIST body nodes: how many judgements, how many reply tokens.

    python bench/analysis_pair_check.py                     # NIST pages 9-12, the last 3 body nodes, one call
    python bench/analysis_pair_check.py --replies FILE      # also append the reply's text here
    python bench/analysis_pair_check.py --dry               # the inputs only, no model

NIST pages 9-12 are read offline; of the body nodes (not section nodes, summaries over 200 characters) the last
`--count` are the new ones, each with the five nodes before it as candidates (a new node may be another's
candidate). The analysis agent plans its batches on the local server's settings and the largest batch is asked
(two nodes of five candidates on a 3,072-token window): the check h40-llm and h41-llm ran by hand (stop 41: 1,370
reply tokens for 10 judgements, the new node's rewrite copied into each related one). Reply tokens do not depend
on the machine's load; the seconds do, so the load is printed beside them. Node ids are new each run: compare
the nodes by their text (printed with `--dry`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from local_llm import NIST, Recorder, local_settings  # noqa: E402

from memory_bank import MemoryBank, Settings  # noqa: E402
from memory_bank.engines.llm.analysis import AnalysisAgent  # noqa: E402
from memory_bank.engines.llm.local_server import LocalModelServer, ServerOptions  # noqa: E402
from memory_bank.engines.llm.openai_client import OpenAIClient  # noqa: E402
from memory_bank.engines.models import AnalysisInput, AnalysisOutput  # noqa: E402
from memory_bank.ingest.linker import node_info  # noqa: E402
from memory_bank.loaders import load_file  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402
from memory_bank.settings import default_data_dir  # noqa: E402


def inputs(first: int, last: int, count: int) -> list[AnalysisInput]:
    """The last `count` body nodes of the pages, each with the five body nodes before it as candidates."""
    settings = Settings()
    doc = load_file(NIST, max_bytes=settings.max_file_mb << 20, max_image_pixels=settings.max_image_pixels)
    bank = MemoryBank(Settings(engine="offline"), embedder=load_embedder(None))
    ids = bank.ingest_text("\n\n".join(t for _, t in doc.page_texts[first - 1:last]), source=NIST.name)
    with bank.memory.read():
        nodes = [n for n in (bank.memory.graph.get(i) for i in ids) if n.kind != "section" and len(n.summary) > 200]
    nodes = nodes[:count + 6]
    new, pool = nodes[-count:], nodes[:-count]
    return [AnalysisInput(new_node=node_info(n), candidates=[node_info(c) for c in (pool + new[:k])[-5:]])
            for k, n in enumerate(new)]


def outcome(out: AnalysisOutput | Exception) -> object:
    if isinstance(out, Exception):
        return str(out)[:200]
    return {"judged": [j.relationship.value for j in out.relationships], "new_context": out.context_update_new,
            "new_keywords": out.keywords_update_new,
            "candidate_contexts": [j.context_update_existing for j in out.relationships]}


def main() -> None:
    parser = argparse.ArgumentParser(description="One real-model analysis call over NIST body nodes")
    parser.add_argument("--pages", type=int, nargs=2, default=[9, 12])
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--replies", type=Path)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--dry", action="store_true")
    args = parser.parse_args()
    first, last = args.pages
    asked = inputs(first, last, args.count)
    for inp in asked:
        print(f"new: {inp.new_node.summary[:70]!r} candidates: {[c.summary[:30] for c in inp.candidates]}",
              file=sys.stderr)
    if args.dry:
        return
    server = LocalModelServer.for_data_dir(default_data_dir(), options=ServerOptions(threads=args.threads))
    server.start()
    try:
        settings = local_settings(server).with_preset("llm")
        recorder = Recorder(OpenAIClient(settings), args.replies)
        agent = AnalysisAgent(recorder, settings)
        group = max(agent.plan_batches(asked), key=len)
        load, start = os.getloadavg(), time.perf_counter()
        outs = agent.run_batch([asked[i] for i in group])
        seconds = time.perf_counter() - start
    finally:
        server.stop()
    print(json.dumps({"items_in_call": len(group), "seconds": round(seconds, 1),
                      "load_start": [round(x, 1) for x in load], "load_end": [round(x, 1) for x in os.getloadavg()],
                      "calls": recorder.calls, "reply_tokens": sum(c["tokens"] - c["prompt"] for c in recorder.calls),
                      "outcomes": [outcome(o) for o in outs]}, indent=1))


if __name__ == "__main__":
    main()
