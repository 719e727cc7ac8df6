"""The local model's answer in one grounded call (issue 22 §3).

On 2 cores the ReAct loop cost the small local model 115-165 s an answer and it was right less often than the
offline answer: the tools do not pay there. So under *Local model for answers* (`Settings.answers_in_one_call`)
the answer is one streamed completion over the evidence the offline answer reads (the adapter's typed selection,
`ExecutionInput.selection`, narrowed to a budget the model reads in seconds), and the model must cite the node
ids of that block.

What comes back is checked, not trusted: a citation of an id the block did not show is removed; a sentence that
cites nothing is traced to the block's nodes (`trace`, the run's grounding) and dropped when nothing there says
it; a refusal, or a reply with no claim left standing, is the offline engine's "not found". The reply streams to
the reader as it is written (`on_answer_text`); one that writes for longer than `writing_seconds` or past
`max_chars` (a model that streams for ever) is stopped and its whole sentences kept. The executor's other tasks
(cross-validating a conflict, which the NIST PDF alone raises) go to `others`, the offline executor: through the
ReAct loop one cross-validation took the local model many minutes on 2 busy cores.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..memory.insight_doc import TaskType
from ..memory.query_graph import Node
from ..retrieval.view import MemoryView
from ..settings import Settings
from ..text.buffer import TextBuffer
from ..text.coverage import coverage, idf_weights
from ..text.tags import strip_think
from ..text.tokens import stems
from .base import Agent
from .llm.client import LLMClient, StopReply
from .llm.prompt_loader import load_prompt
from .models import Citation, ExecutionInput, ExecutionResult, ToolCallRecord
from .protocol.answer_stream import AnswerStream
from .protocol.claims import Claim, Line, read_claims, write_answer
from .protocol.escaping import escape_tags
from .protocol.memory_block import MemoryBlockBuilder, Selected, Selection
from .protocol.not_found import NOT_FOUND
from .protocol.react_format import ANSWER_CLOSE, ANSWER_OPEN, summarise

# (claim, the nodes shown) -> the citations of the nodes whose sentences hold it (run/grounding.py)
Tracer = Callable[[str, list[Node]], list[Citation]]

AGENT = "answer"  # the name its calls are metered and logged under
MIN_WORDS = 4  # a sentence with fewer distinct content words ("The components are:") claims nothing to check
_REFUSAL = re.compile(r"^\W*(?:not\s+found|no\s+answer)\b", re.IGNORECASE)
_SAYS_NOTHING = re.compile(
    r"\b(?:not\s+found|(?:does|do)\s+not\s+(?:say|mention|contain|provide|specify|state|describe|include)|"
    r"no\s+(?:information|mention)|(?:is|are)\s+not\s+(?:mentioned|provided|specified|stated|given)|"
    r"cannot\s+(?:be\s+)?(?:found|answered|determined))\b", re.IGNORECASE)
_MARK = re.compile(r"\s*\[\s*node\s*:[^\]\n]*\]", re.IGNORECASE)
MARK_HOLD = 120  # characters of a "[node:..." held back until its "]" shows whether it is a marker


@dataclass(frozen=True)
class OneCallConfig:
    """`block_tokens`: the evidence block (with the prompt about 700 tokens: the local model reads ~60 tokens/s
    on 2 quiet cores, so the first token comes within ~15 s); `max_tokens`: the reply (~12 tokens/s: ~20 s);
    `writing_seconds`: counted from the first token (on a busy machine reading the prompt alone can take minutes,
    bounded by the client's timeout), past it the reply is stopped and its whole sentences kept; `max_chars`: the
    same for a reply that ignores max_tokens. Low temperature: the answer is read off the evidence, not invented."""

    block_tokens: int = 450
    max_tokens: int = 256
    max_words: int = 150
    writing_seconds: float = 120.0
    max_chars: int = 4_000
    question_chars: int = 1_000
    temperature: float = 0.2
    top_p: float = 0.9


class _Heard:
    """The listener of the streamed reply: keeps the text, hands the answer on to the reader without its
    `[node:ID]` markers (ids mean nothing to a reader; the finished answer numbers its citations), and stops the
    reply (`StopReply`) once it is past its time or size."""

    def __init__(self, report: Callable[[str, int], None] | None, config: OneCallConfig, limit: int,
                 clock: Callable[[], float]) -> None:
        self.text = TextBuffer()
        self.stopped = False
        self._stream = AnswerStream(report, limit, opened=True) if report is not None else None
        self._config, self._clock = config, clock
        self._deadline: float | None = None  # set at the first piece: reading the prompt is the client's timeout
        self._held, self._shown = "", 0  # a marker still being written; characters handed on

    def hear(self, piece: str, offset: int) -> None:
        if self.stopped:
            return
        if offset == 0 and len(self.text):
            self.text, self._held, self._shown = TextBuffer(), "", 0  # a retried stream starts again
        self.text.write(piece)
        self._show(piece)
        now = self._clock()
        if self._deadline is None:
            self._deadline = now + self._config.writing_seconds
        if now > self._deadline or len(self.text) > self._config.max_chars:
            self.stopped = True
            raise StopReply

    def _show(self, piece: str) -> None:
        if self._stream is None:
            return
        text = self._held + piece
        opened = text.rfind("[")
        keep = opened if opened != -1 and "]" not in text[opened:] and len(text) - opened <= MARK_HOLD else len(text)
        text, self._held = _MARK.sub("", text[:keep]), text[keep:]
        if text:
            self._stream.hear(text, self._shown)
            self._shown += len(text)


class OneCallAnswerer:
    """The executor slot under *Local model for answers*: NORMAL tasks in one call, the rest through `others`."""

    name = "react"

    def __init__(self, client: LLMClient, settings: Settings, view: MemoryView, trace: Tracer,
                 others: Agent[ExecutionInput, ExecutionResult],
                 on_answer_text: Callable[[str, int], None] | None = None, config: OneCallConfig | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._client, self._settings, self._trace, self._others = client, settings, trace, others
        self._blocks = MemoryBlockBuilder(view)
        self._on_answer_text = on_answer_text
        self._config = config or OneCallConfig()
        self._clock = clock
        self._prompt = load_prompt("answer")

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        if inp.task.type is not TaskType.NORMAL:
            return self._others.run(inp)
        question = inp.task_goal.strip() or inp.task.description
        selection = (self._blocks.narrowed(inp.selection, self._config.block_tokens) if inp.selection is not None
                     else self._blocks.select(question, self._config.block_tokens))
        calls = [ToolCallRecord(name="memory_block", arguments={"query": question[:300]},
                                response=", ".join(f"node {c.node.id}" for c in selection.nodes) or "no node")]
        if not selection.nodes:
            return _not_found(calls, "The memory holds nothing on the question; the model was not asked.")
        messages = self._prompt.render(memory=self._blocks.evidence(selection), max_words=self._config.max_words,
                                       question=escape_tags(question[: self._config.question_chars]))
        heard = _Heard(self._on_answer_text, self._config, self._settings.max_answer_chars, self._clock)
        try:  # an LLMError goes up: the composed engine answers offline instead and says so
            completion = self._client.complete(messages, agent=AGENT, temperature=self._config.temperature,
                                               top_p=self._config.top_p, max_tokens=self._config.max_tokens,
                                               on_text=heard.hear)
            reply, finish = completion.text, completion.finish_reason
        except StopReply:  # a client that cannot stop a stream raised it on: what was heard is the reply
            reply, finish = heard.text.getvalue(), "stopped"
        return self._checked(reply, finish, selection, calls)

    def _checked(self, reply: str, finish: str, selection: Selection,
                 calls: list[ToolCallRecord]) -> ExecutionResult:
        text = ANSWER_CLOSE.sub("", ANSWER_OPEN.sub("", strip_think(reply))).strip()
        stopped = " (stopped at its time or length limit)" if finish in ("stopped", "length") else ""
        if refuses(text):
            return _not_found(calls, f"The local model found no answer in the memory block{stopped}.")
        shown = {c.node.id: c for c in selection.nodes}
        lines = read_claims(text, set(shown))
        if stopped and lines:
            _drop_last(lines)  # cut at its limit: the last line may end mid-item ("(CDM)" of "(CDM) system: ...")
        quotes: dict[str, Citation] = {}
        dropped, said = 0, set()
        for n, line in enumerate(lines):
            kept = []
            for claim in line.claims:
                if claim.text in said:
                    continue  # a small model that loops says the same sentence again and again
                said.add(claim.text)
                if claim.text.startswith("…") or claim.text.rstrip(".").endswith("…"):
                    dropped += 1  # a line the block showed cut, copied: never a fragment
                elif not claim.cited and _SAYS_NOTHING.search(claim.text):
                    dropped += 1  # "The documents do not say ...": its words would trace to what they do say
                elif claim.cited or self._supported(claim, [c.node for c in shown.values()], quotes):
                    kept.append(claim)
                elif _lead_in(claim, first=n == 0 and not kept):
                    kept.append(claim)  # "The core components are:": nothing to check
                else:
                    dropped += 1  # unsupported, or a stray piece ("NOT FOUND" after an answer, a page number)
            line.claims = kept
        lines = [line for line in lines if line.claims]
        cited = list(dict.fromkeys(i for line in lines for c in line.claims for i in c.cited))
        if not cited:
            return _not_found(calls, "No sentence of the local model's reply is supported by the memory block"
                                     f"{stopped}; {dropped} dropped.")
        citations = [quotes.get(i) or _citation(shown[i], lines) for i in cited]
        answer = write_answer(lines, {c.node_id: k for k, c in enumerate(citations, 1)})
        invented = sorted({i for line in lines for c in line.claims for i in c.invented})
        note = "".join([f" {dropped} unsupported sentence(s) dropped." if dropped else "",
                        f" Citations of ids not in the block removed: {', '.join(invented)[:200]}." if invented else "",
                        " The reply was stopped at its time or length limit." if stopped else ""])
        return ExecutionResult(answer=answer, tool_calls=calls, citations=citations, success=True,
                               summary=(summarise(answer) + note)[:600])

    def _supported(self, claim: Claim, nodes: list[Node], quotes: dict[str, Citation]) -> bool:
        """Trace an uncited claim to the block's nodes; it cites them when one of their sentences holds it."""
        found = [c for c in self._trace(claim.text, nodes) if c.node_id in {n.id for n in nodes}]
        for c in found:
            quotes.setdefault(c.node_id, c)
        claim.cited = [c.node_id for c in found]
        return bool(found)


def refuses(text: str) -> bool:
    """The reply opens by saying the evidence does not answer ("NOT FOUND", as asked). A sentence that says so
    in other words ("The documents do not mention a budget.") is dropped where it stands, and a reply left with
    no cited claim is "not found" as well."""
    return not text.strip() or _REFUSAL.search(text) is not None


def _lead_in(claim: Claim, first: bool) -> bool:
    """A short sentence that claims nothing to check and reads as a lead-in: the answer's first, or one that
    opens a list (ends with ":")."""
    return len(set(stems(claim.text))) < MIN_WORDS and (first or claim.text.endswith(":")) \
        and not refuses(claim.text)


def _drop_last(lines: list[Line]) -> None:
    lines[-1].claims.pop()
    if not lines[-1].claims:
        lines.pop()


def _citation(chosen: Selected, lines: list[Line]) -> Citation:
    """A cited node's citation: its shown sentence closest to what the answer says with it (quote and place)."""
    said = " ".join(c.text for line in lines for c in line.claims if chosen.node.id in c.cited)
    shown = chosen.shown or chosen.sentences
    sets = [frozenset(stems(s.text)) for s in shown]
    weights = idf_weights(stems(said), [[s] for s in sets])
    best = max(range(len(shown)), key=lambda k: (coverage(weights, sets[k]), -k)) if shown else None
    if best is None:
        node = chosen.node
        return Citation(node_id=node.id, pages=node.pages(), printed_pages=node.printed_pages(),
                        section=list(node.section()))
    s = shown[best]
    return Citation(node_id=chosen.node.id, source=s.source, pages=list(s.pages), quote=s.text,
                    printed_pages=dict(s.printed), section=list(s.section))


def _not_found(calls: list[ToolCallRecord], why: str) -> ExecutionResult:
    return ExecutionResult(answer=NOT_FOUND, tool_calls=calls, success=True, summary=why)
