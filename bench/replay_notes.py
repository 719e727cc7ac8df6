"""Replay a real local-model run of the notes sample without the model: the pipeline as it is now, fed the replies
`bench/local_llm.py notes --replies FILE` recorded, one queue per agent, served by the scripted server.

    python bench/replay_notes.py /tmp/h31/run.replies

Node ids are random per run, so an analysis reply's ids are mapped onto this run's candidates: a recorded id
keeps the node it was first mapped to while that node is a candidate, else it takes the first candidate not yet
judged. Until the pipeline asks something the recorded run did not, the replay is the recorded run (run4's 51
replies gave back its 14 nodes, 10 merges, 15 conflicts and answer); after that, an agent whose queue is empty
gets "{}" (a re-ask, then the offline agent) and ReAct an empty answer. It prints the calls, what was decided by
rule, the graph's counts, the conflicts and the answer: where a fix changes the outcome of a recorded run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.local_llm import NOTES, NOTES_QUESTION  # noqa: E402
from memory_bank import MemoryBank  # noqa: E402
from memory_bank.retrieval.embedding import load_embedder  # noqa: E402
from tests.support.fake_openai import FakeOpenAI, RecordedRequest, Reply, ok  # noqa: E402
from tests.support.scripted_llm import batch_items  # noqa: E402

SHOWN = ("conflict_flagged", "conflict_resolved", "nodes_merged", "rule_decided", "agent_fell_back", "task_planned")


class Replayer:
    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.queues: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        for reply in replies:
            self.queues[reply["agent"]].append(reply)
        self.ids: dict[str, str] = {}

    def __call__(self, request: RecordedRequest) -> Reply:
        agent = request.agent or ""
        if not self.queues[agent]:
            return ok("<answer></answer>" if agent == "react" else "{}")
        recorded = self.queues[agent].popleft()
        text = recorded["text"]
        if agent == "analysis":
            text = self._mapped(text, request.messages[-1]["content"])
        return ok(text, finish_reason="length" if recorded["finish"] == "length" else "stop")

    def _mapped(self, text: str, prompt: str) -> str:
        candidates = {item["id"]: item["candidates"] for item in batch_items(prompt.partition("New nodes (")[2])}
        try:
            reply = json.loads(text)
        except json.JSONDecodeError:
            return text
        for item in reply.get("items", []):
            allowed, used = candidates.get(item.get("id"), []), set()
            for judgement in item.get("relationships", []):
                mine = self.ids.get(judgement["existing_node_id"])
                if mine not in allowed or mine in used:
                    mine = next((c for c in allowed if c not in used), judgement["existing_node_id"])
                    self.ids[judgement["existing_node_id"]] = mine
                used.add(mine)
                judgement["existing_node_id"] = mine
        return json.dumps(reply)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("replies", type=Path)
    args = parser.parse_args()
    replayer = Replayer([json.loads(line) for line in args.replies.read_text(encoding="utf-8").splitlines()])
    with FakeOpenAI(handler=replayer) as fake, tempfile.TemporaryDirectory() as work:
        settings = fake.settings(memory_budget_tokens=800, react_max_calls=4, react_reply_tokens=320, max_rounds=5,
                                 llm_timeout=30.0).with_preset("llm")
        bank = MemoryBank(settings, embedder=load_embedder(None), workdir=Path(work))
        bank.subscribe(lambda e: print(f"  {e.kind}: " + "; ".join(
            f"{k}={str(v)[:100]}" for k, v in vars(e).items() if k != "ts")) if e.kind in SHOWN else None)
        result = bank.run(NOTES_QUESTION, files=NOTES)
        print(json.dumps({
            "calls": dict(Counter(r.agent for r in fake.chat_requests)),
            "recorded_replies_left": {a: len(q) for a, q in replayer.queues.items() if q},
            "counts": bank.snapshot().counts,
            "conflicts": [f"{c.status}: {c.description[:100]}" for c in bank.memory.conflicts.values()],
            "answer": result.answer, "errors": [str(e)[:160] for e in result.errors]}, indent=1))
        bank.clear()


if __name__ == "__main__":
    main()
