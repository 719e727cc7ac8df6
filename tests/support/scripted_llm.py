"""A rule-based stand-in for a model, answering every agent's prompt over the real HTTP protocol.

`FakeOpenAI(handler=ScriptedLLM())` lets the whole loop run through the real `openai` client: the replies are
valid for each agent's prompt and follow visible rules (as in `fake_engine.py`): `FACT:k=v` pairs that differ
are a conflict, `DUP` marks near-duplicates, a shared ALLCAPS word makes nodes related. The ingestion
benchmark uses it with a latency to measure concurrency.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable

from tests.support.fake_openai import RecordedRequest, Reply, ok

FACT = re.compile(r"FACT:(\w+)=(\w+)")
CAPS = re.compile(r"\b[A-Z]{4,}\b")
NODE_ID = re.compile(r'"id":\s*"([0-9a-f]{12})"')
SUMMARY = re.compile(r'"summary":\s*"((?:[^"\\]|\\.)*)"')
PASSAGE = re.compile(r"^\[P(\d+)\] (.*)$", re.M)
SENTENCE_MARK = re.compile(r"(?:^| )\[(\d+)\] ")


def _user(request: RecordedRequest) -> str:
    content = request.messages[-1].get("content")
    return content if isinstance(content, str) else json.dumps(content)


def _nodes(block: str) -> list[tuple[str, str]]:
    """(id, summary) pairs of the JSON node objects in a prompt block, in order."""
    return list(zip(NODE_ID.findall(block), (json.loads(f'"{s}"') for s in SUMMARY.findall(block))))


def batch_items(block: str) -> list[dict]:
    """The JSON-line items of a batched prompt block (structure's clusters, analysis's nodes), in order."""
    return [json.loads(line) for line in block.splitlines() if line.startswith('{"')]


def batched(text: str, judge: Callable[[dict], dict]) -> str | None:
    """A batched structure prompt's reply, one `judge(item)` per item; None for a single-item prompt."""
    if not text.startswith("Items ("):
        return None
    return json.dumps({"items": [{"id": item["id"], **judge(item)} for item in batch_items(text)]})


def batched_analysis(text: str, judge: Callable[[str, list[tuple[str, str]]], list[dict]]) -> str | None:
    """A batched analysis prompt's reply: `judge(new summary, [(candidate id, summary)])` per new node."""
    if not text.startswith("Existing nodes ("):
        return None
    existing_block, _, new_block = text.partition("New nodes (")
    existing = {n["id"]: n["summary"] for n in batch_items(existing_block)}
    return json.dumps({"items": [
        {"id": item["id"], "relationships": judge(item["summary"], [(c, existing[c]) for c in item["candidates"]])}
        for item in batch_items(new_block)]})


def _keywords(text: str) -> list[str]:
    caps = sorted(set(CAPS.findall(text)) - {"DUP", "FACT"})
    words = [w for w, _ in Counter(re.findall(r"[a-z]{6,}", text.lower())).most_common(4)]
    return (caps + words)[:6] or ["text"]


class ScriptedLLM:
    def __init__(self, winner: str = "1990", per_cluster: int = 3, visit_url: str | None = None) -> None:
        self.winner = winner
        self.per_cluster = per_cluster
        self.visit_url = visit_url  # when set, a NORMAL task first visits this page
        self.react_turns: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Reply:
        agent = request.agent or ""
        handler = getattr(self, f"_{agent}", None)
        if handler is None:
            return ok(json.dumps({"error": f"no script for agent {agent!r}"}))
        return ok(handler(_user(request), request))

    def _classification(self, text: str, _: RecordedRequest) -> str:
        passages = PASSAGE.findall(text)
        topics, labels = [], []
        for start in range(0, len(passages), self.per_cluster):
            group = passages[start:start + self.per_cluster]
            body = " ".join(p for _, p in group)
            topics.append({"context": " ".join(body.split()[:8]), "keywords": _keywords(body)})
            labels.extend([len(topics) - 1] * len(group))
        return json.dumps({"topics": topics, "labels": labels})

    def _structure(self, text: str, _: RecordedRequest) -> str:
        batch = batched(text, self._structure_item)
        return batch or json.dumps({"summary": self._summary(text.split("<<<", 1)[-1].rsplit(">>>", 1)[0])})

    def _structure_item(self, item: dict) -> dict:
        """A written summary, or under selection (numbered sentences) the first ~45 % of the sentences."""
        if item["aim"].endswith(" sentences"):
            count = len(SENTENCE_MARK.findall(item["text"]))
            return {"keep": list(range(1, max(1, int(count * 0.45)) + 1))}
        return {"summary": self._summary(item["text"])}

    @staticmethod
    def _summary(content: str) -> str:
        words = content.split()
        return " ".join(words[: max(8, int(len(words) * 0.45))])

    def _analysis(self, text: str, _: RecordedRequest) -> str:
        batch = batched_analysis(text, self._judge_all)
        if batch is not None:
            return batch
        new_block, _, cand_block = text.partition("Candidates")
        return json.dumps({"relationships": self._judge_all(_nodes(new_block)[0][1], _nodes(cand_block))})

    @staticmethod
    def _judge_all(new_summary: str, candidates: list[tuple[str, str]]) -> list[dict]:
        out: list[dict] = []
        for cid, summary in candidates:
            a, b = dict(FACT.findall(new_summary)), dict(FACT.findall(summary))
            clash = [k for k in a if k in b and a[k] != b[k]]
            shared = (set(CAPS.findall(new_summary)) & set(CAPS.findall(summary))) - {"DUP", "FACT"}
            if clash:
                out.append({"existing_node_id": cid, "relationship": "conflict", "reasoning": "facts differ",
                            "conflict_description": f"{clash[0]}: {a[clash[0]]} vs {b[clash[0]]}"})
            elif "DUP" in new_summary and "DUP" in summary:
                out.append({"existing_node_id": cid, "relationship": "merge", "reasoning": "same content"})
            elif shared:
                word = sorted(shared)[0]
                out.append({"existing_node_id": cid, "relationship": "related", "reasoning": f"both on {word}",
                            "context_update_new": f"{word}: new side", "context_update_existing": f"{word}: old side",
                            "keywords_update_new": [word], "keywords_update_existing": [word, "linked"]})
            else:
                out.append({"existing_node_id": cid, "relationship": "unrelated", "reasoning": "different topics"})
        return out

    def _integration(self, text: str, _: RecordedRequest) -> str:
        validation = text.split("Validation result:", 1)[-1].split("\n", 1)[0]
        nodes_block = text.split("Nodes to merge", 1)[-1]
        groups = json.loads(nodes_block[nodes_block.index("["):nodes_block.rindex("]") + 1])
        merged_ids = {g["node"]["id"] for g in groups}
        summaries = list(dict.fromkeys(g["node"]["summary"] for g in groups))
        losers = [g["node"]["id"] for g in groups if self.winner not in g["node"]["summary"]]
        rejected = losers[0] if self.winner in validation and len(losers) == 1 else None
        if self.winner in validation:
            summaries = [s for s in summaries if self.winner in s] or summaries[:1]
        neighbours = {nb["id"]: {"context": f"rewritten after merge: {nb['context']}", "keywords": nb["keywords"]}
                      for g in groups for nb in g.get("neighbours", []) if nb["id"] not in merged_ids}
        return json.dumps({"summary": " ".join(summaries), "context": groups[0]["node"]["context"],
                           "keywords": sorted({k for g in groups for k in g["node"]["keywords"]}),
                           "neighbor_updates": neighbours,
                           "interaction_tree_description": f"merged {len(groups)} nodes",
                           "rejected_node_id": rejected})

    def _planning(self, text: str, _: RecordedRequest) -> str:
        goal = text.split("Task goal:", 1)[-1].split("\n", 1)[0].strip()
        conflict = re.search(r"conflict_id ([0-9a-f]{12})", text.split("Pending conflicts:", 1)[-1])
        answered = "(none yet)" not in text.split("Answer so far:", 1)[-1]
        if conflict:
            task = {"type": "CROSS_VALIDATE", "description": "validate the conflict", "conflict_id": conflict[1]}
        elif not answered:
            task = {"type": "NORMAL", "description": f"answer: {goal}"}
        else:
            task = None
        return json.dumps({"task_goal": goal, "completed_tasks": [], "pending_tasks": [task] if task else []})

    def _react(self, text: str, request: RecordedRequest) -> str:
        memory_ids = re.findall(r"\[node:([0-9a-f]{12})\]", request.text())
        observed = len(request.messages) > 2  # system + first user message, then assistant/tool turns
        validating = "([CROSS_VALIDATE])" in text
        if validating and not observed:
            return '<think>check the sources</think>\n<tool_call>{"name": "search", "arguments": ' \
                   '{"query": "first deployed"}}</tool_call>'
        if validating:
            return f"<answer>The sources support {self.winner}.</answer>"
        if self.visit_url and not observed:
            return (f'<tool_call>{{"name": "visit", "arguments": {{"url": "{self.visit_url}", '
                    f'"goal": "deployment year"}}}}</tool_call>')
        if memory_ids and not observed:
            return (f'<think>read the source</think>\n<tool_call>{{"name": "deep_retrieval", "arguments": '
                    f'{{"node_id": "{memory_ids[0]}"}}}}</tool_call>')
        cite = f" [node:{memory_ids[0]}]" if memory_ids else ""
        return f"<answer>They were first deployed in {self.winner}.{cite}</answer>"

    def _image(self, text: str, _: RecordedRequest) -> str:
        return json.dumps({"description": "a bar chart of deployments per year", "keywords": ["chart"]})

    def _visit(self, text: str, _: RecordedRequest) -> str:
        page = text.split("<<<", 1)[-1].rsplit(">>>", 1)[0]
        evidence = [line for line in page.splitlines() if CAPS.search(line)]
        return json.dumps({"relevant": bool(evidence), "evidence": "\n\n".join(evidence),
                           "summary": "what the page says about the systems"})
