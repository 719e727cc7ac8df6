"""The scripted model behind the contract suite's LLM engine: `ScriptedLLM` with rules that read natural text.

`ScriptedLLM` judges by planted markers (`FACT:k=v`, `DUP`); the contract cases use real prose (the Northwind
sample), so this model's rules read prose the way the offline engine's do, visibly:
- classification: a passage that is a markdown heading starts a new cluster;
- structure: the summary is the cluster's text (a faithful summariser keeps every figure), or every sentence kept;
- analysis: texts with the same words once figures are masked are a conflict when their figures differ and a
  merge when they do not; a shared capitalised name makes them related. Every reply also judges one id that
  was never a candidate, as a careless model does, so the agent's "only given candidates" rule is exercised;
- react: a NORMAL task reads the first memory node and answers with its sentence that best matches the goal,
  citing it; a CROSS_VALIDATE task searches, then says the sources support `winner` (the scripted verdict).
- integration: `ScriptedLLM`'s (the `winner`'s side survives and the other is named rejected), plus an update
  for a neighbour id that was never given, which the agent must drop;
- planning: CROSS_VALIDATE while a conflict is pending, then IMAGE_RECOGNITION while an image waits, then one
  NORMAL task until there is an answer.
"""

from __future__ import annotations

import json
import re

from tests.support.fake_openai import RecordedRequest
from tests.support.scripted_llm import PASSAGE, SENTENCE_MARK, ScriptedLLM, _nodes, batched, batched_analysis

INVENTED_ID = "0123456789ab"  # never a node id in these tests: ids are uuid hex, this one is judged anyway
_WORD = re.compile(r"\d[\d.,]*\d|\d|[^\W\d_]+")
_NAME = re.compile(r"\b[A-Z][a-z]{3,}\b")
_SENTENCE = re.compile(r"[A-Z][^.!?\n\"]*[.!?]")
_IMAGE = re.compile(r"^- image_id (\S+):", re.M)
_STOP = frozenset("the a an of to in and is was for by with on at be are it that this from as".split())
_SAME_WORDS = 0.8


def _is_figure(word: str) -> bool:
    return word[0].isdigit()


def _masked(text: str) -> tuple[list[str], list[str]]:
    """(words with figures masked, the figures), lowercased."""
    words = [w.lower() for w in _WORD.findall(text)]
    return ["#" if _is_figure(w) else w for w in words], [w for w in words if _is_figure(w)]


def _judge(new: str, old: str, cand_id: str) -> dict[str, object]:
    (new_words, new_figs), (old_words, old_figs) = _masked(new), _masked(old)
    a, b = set(new_words), set(old_words)
    same_words = len(a & b) / max(len(a | b), 1) >= _SAME_WORDS
    if same_words and set(new_figs) != set(old_figs):
        ours, theirs = sorted(set(new_figs) - set(old_figs)), sorted(set(old_figs) - set(new_figs))
        claims = f"{' '.join(ours)} vs {' '.join(theirs)}"
        return {"existing_node_id": cand_id, "relationship": "conflict", "reasoning": "same claim, other figure",
                "conflict_description": f"the figures differ: {claims}"}
    if same_words:
        return {"existing_node_id": cand_id, "relationship": "merge", "reasoning": "the same text"}
    shared = sorted(set(_NAME.findall(new)) & set(_NAME.findall(old)))
    if shared:
        return {"existing_node_id": cand_id, "relationship": "related", "reasoning": f"both about {shared[0]}",
                "context_update_new": None, "context_update_existing": None}
    return {"existing_node_id": cand_id, "relationship": "unrelated", "reasoning": "different topics"}


def _keep_all(item: dict) -> dict:
    """The whole text: written as the summary, or under selection every numbered sentence kept."""
    if item["aim"].endswith(" sentences"):
        return {"keep": [int(n) for n in SENTENCE_MARK.findall(item["text"])]}
    return {"summary": " ".join(item["text"].split())}


def _judge_all(new_summary: str, candidates: list[tuple[str, str]]) -> list[dict[str, object]]:
    judged = [_judge(new_summary, summary, cid) for cid, summary in candidates]
    judged.append({"existing_node_id": INVENTED_ID, "relationship": "merge", "reasoning": "invented"})
    return judged


def _best_sentence(text: str, goal: str) -> str:
    wanted = {w.lower() for w in _WORD.findall(goal)} - _STOP
    sentences = [s.strip() for s in _SENTENCE.findall(text)]
    return max(sentences, key=lambda s: len(wanted & {w.lower() for w in _WORD.findall(s)}), default="")


class ContractLLM(ScriptedLLM):
    def __init__(self, winner: str = "5 million") -> None:
        super().__init__(winner=winner)

    def _classification(self, text: str, _: RecordedRequest) -> str:
        groups: list[list[tuple[str, str]]] = []
        for number, passage in PASSAGE.findall(text):
            if not groups or passage.startswith("#"):
                groups.append([])
            groups[-1].append((number, passage))
        topics = [{"context": group[0][1].lstrip("# ")[:80],
                   "keywords": sorted(set(_NAME.findall(" ".join(p for _, p in group))))[:6] or ["text"]}
                  for group in groups]
        labels = [i for i, group in enumerate(groups) for _ in group]
        return json.dumps({"topics": topics, "labels": labels})

    def _structure(self, text: str, _: RecordedRequest) -> str:
        batch = batched(text, _keep_all)
        content = text.split("<<<", 1)[-1].rsplit(">>>", 1)[0]
        return batch or json.dumps({"summary": " ".join(content.split())})

    def _analysis(self, text: str, _: RecordedRequest) -> str:
        batch = batched_analysis(text, _judge_all)
        if batch is not None:
            return batch
        new_block, _, cand_block = text.partition("Candidates")
        return json.dumps({"relationships": _judge_all(_nodes(new_block)[0][1], _nodes(cand_block))})

    def _integration(self, text: str, request: RecordedRequest) -> str:
        reply = json.loads(super()._integration(text, request))
        reply["neighbor_updates"][INVENTED_ID] = {"context": "a node nobody asked about", "keywords": []}
        return json.dumps(reply)

    def _planning(self, text: str, _: RecordedRequest) -> str:
        goal = text.split("Task goal:", 1)[-1].split("\n", 1)[0].strip()
        conflict = re.search(r"conflict_id ([0-9a-f]{12})", text.split("Pending conflicts:", 1)[-1])
        image = _IMAGE.search(text.split("Images waiting for recognition:", 1)[-1])
        if conflict:
            task = {"type": "CROSS_VALIDATE", "description": "validate the conflict", "conflict_id": conflict[1]}
        elif image:
            task = {"type": "IMAGE_RECOGNITION", "description": "describe the image", "image_id": image[1]}
        elif "(none yet)" in text.split("Answer so far:", 1)[-1]:
            task = {"type": "NORMAL", "description": f"answer: {goal}"}
        else:
            task = None
        return json.dumps({"reasoning": "one step at a time", "pending_tasks": [task] if task else []})

    def _react(self, text: str, request: RecordedRequest) -> str:
        memory_ids = re.findall(r"\[node:([0-9a-f]{12})\]", request.text())
        observed = len(request.messages) > 2  # system + first user message, then assistant/tool turns
        first = _content(request.messages[1])  # the task: later turns end with an observation instead
        if "([CROSS_VALIDATE])" in first:
            if not observed:
                return '<tool_call>{"name": "search", "arguments": {"query": "project budget"}}</tool_call>'
            return f"<answer>The sources support {self.winner}.</answer>"
        if not memory_ids:
            return "<answer>Memory holds nothing on this.</answer>"
        if not observed:
            return (f'<tool_call>{{"name": "deep_retrieval", "arguments": {{"node_id": "{memory_ids[0]}"}}}}'
                    "</tool_call>")
        goal = first.split("Goal:", 1)[-1].split("\n", 1)[0]
        found = _best_sentence(text, goal) or "Memory holds this."
        return f"<answer>{found} [node:{memory_ids[0]}]</answer>"


def _content(message: dict[str, object]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else json.dumps(content)
