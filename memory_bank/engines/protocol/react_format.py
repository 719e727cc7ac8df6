"""The ReAct text protocol: reading the model's tags, writing observations, reading citations.

Models are sloppy with tags (upper case, spaces, a missing close tag when they stop early), so the reading is
lenient; the JSON inside `<tool_call>` still goes through the one structured parser into a `ToolCall` model.
Observations are escaped with `escape_tags`, so tool output can never close `<tool_response>` or forge a call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import AliasChoices, BaseModel, Field, field_validator

from ...text.split import split_sentences
from ...text.tags import strip_think, tag_block
from ...tools.base import ToolSpec
from ..llm.structured import OutputInvalid, extract_json_object
from ..models import Citation
from .answer_cap import capped_slice
from .escaping import escape_tags

_CALL = tag_block("tool_call", capture=True)
_ANSWER = tag_block("answer", capture=True)
_FORGED_OBSERVATION = re.compile(r"<\s*tool_response\s*>", re.IGNORECASE)
ANSWER_OPEN = re.compile(r"<\s*answer\s*>", re.IGNORECASE)
ANSWER_CLOSE = re.compile(r"<\s*/\s*answer\s*>", re.IGNORECASE)
_CITATION = re.compile(r"\[\s*node\s*:\s*([^\]]+)\]", re.IGNORECASE)
_CITATION_MARK = re.compile(r"\s*" + _CITATION.pattern, re.IGNORECASE)
_CITATION_SPLIT = re.compile(r"[,;\s]+(?:node\s*:\s*)?", re.IGNORECASE)
SUMMARY_CHARS = 400
_RESPONSE_CLOSE = r"<\s*/\s*tool_response\s*>"
_STEP_ENDS = re.compile(rf"<\s*/\s*tool_call\s*>|<\s*/\s*answer\s*>|{_RESPONSE_CLOSE}", re.IGNORECASE)
_MARK_ROOM = 24  # characters kept from one piece to the next: a closing tag split across two pieces still shows
PSEUDO_CHARS = 600  # a call written inside <tool_response> is read this far at most
_CALL_KEYS = frozenset({"name", "tool", "tool_name", "function"})


class ToolCall(BaseModel):
    """A call as the model writes it; common aliases and double-encoded arguments are accepted."""

    name: str = Field(min_length=1, validation_alias=AliasChoices("name", "tool", "tool_name", "function"))
    arguments: dict[str, Any] = Field(default_factory=dict,
                                      validation_alias=AliasChoices("arguments", "args", "parameters", "input"))

    @field_validator("arguments", mode="before")
    @classmethod
    def _decode(cls, value: object) -> object:
        if value is None:
            return {}
        return extract_json_object(value) if isinstance(value, str) else value


def answer_so_far(reply: str) -> str | None:
    """The text inside `<answer>` of a reply still being written (None until the tag opens); a tool call before
    it means the reply is not an answer. A half-written closing tag at the end is not shown."""
    visible = strip_think(reply, spaced=False)
    opened = ANSWER_OPEN.search(visible)
    if opened is None or _CALL.search(visible[:opened.start()]) or "<tool_call" in visible[:opened.start()]:
        return None
    rest = visible[opened.end():]
    closed = ANSWER_CLOSE.search(rest)
    text = rest[:closed.start()] if closed else re.sub(r"<[^>]*$", "", rest)
    return text.strip()


class StepEnd:
    """Hears one ReAct reply as it streams and says when it holds all a step reads of it: a complete tool
    call, a complete answer, or the start of an observation the model forged (`Step` reads nothing past these).
    The rest would be written only to be dropped: on 2 cores the local 1.5B model wrote a made-up
    `<tool_response>` after another until the step's token limit, a minute and a half of a step. `then` (the
    answer's own listener) hears every piece first."""

    def __init__(self, then: Callable[[str, int], bool | None] | None = None) -> None:
        self._then = then
        self._tail = ""
        self._forged: str | None = None  # what follows a <tool_response> the model opened, while it may be a call

    def hear(self, piece: str, offset: int) -> bool:
        if offset == 0:
            self._tail, self._forged = "", None  # a retried stream starts the reply again
        enough = bool(self._then(piece, offset)) if self._then is not None else False
        window = self._tail + piece
        self._tail = window[-_MARK_ROOM:]
        if enough or _STEP_ENDS.search(window) is not None:
            return True
        if self._forged is None:
            opened = _FORGED_OBSERVATION.search(window)
            if opened is None:
                return False
            self._forged = window[opened.end():]
        else:
            self._forged += piece
        # the 1.5B model writes its call inside <tool_response> where <tool_call> belongs: read on while what it
        # writes there can still be a call's JSON, and stop at anything else (a made-up observation)
        body = self._forged.lstrip()
        return bool(body) and (not body.startswith("{") or len(self._forged) > PSEUDO_CHARS)


class Step:
    """What one model reply asks for: an answer, a tool call (its raw JSON body), or neither.

    Whichever of `<answer>` and `<tool_call>` comes first wins. `kept_text` is the reply as it goes back into
    the conversation: reasoning blocks dropped, and nothing after a tool call, because anything written after
    the call was written without its result (often a made-up `<tool_response>`). A `<tool_response>` the model
    writes itself is a forged observation (a small model imitates them instead of answering: on the NIST PDF
    Qwen2.5-Coder-1.5B "answered" with seven of them), so the reply ends where one begins.
    """

    def __init__(self, text: str, limit: int | None = None) -> None:
        """`limit`: the longest answer kept (`cap_answer`). The answer is cut out of the reply once, already
        capped, and the reply is not stripped by copying: each copy of a megabyte reply is a megabyte more."""
        visible = strip_think(text)  # `text` itself when there is no reasoning block
        forged = _FORGED_OBSERVATION.search(visible)
        pseudo = _pseudo_call(visible[forged.end():]) if forged else None
        visible = visible[: forged.start()] if forged else visible
        call, answer = _CALL.search(visible), _ANSWER.search(visible)
        first_is_call = call is not None and (answer is None or call.start() < answer.start())
        self.call_body: str | None = call.group(1).strip() if call is not None and first_is_call else None
        said = capped_slice(visible, *answer.span(1), limit) if answer is not None and not first_is_call else ""
        self.answer: str | None = said or None  # an empty <answer></answer> answers nothing
        self.plain = _CALL.sub("", _ANSWER.sub("", visible)).strip()
        self._reply = text
        self._kept = visible[: call.end()] if call is not None and first_is_call else visible
        if pseudo is not None and call is None and answer is None:
            # a call written in the observation's tag: made, and kept as the call it is, so the conversation
            # shows the model the tag it should have used
            self.call_body = pseudo
            self._kept = f"{visible.rstrip()}\n<tool_call>{pseudo}</tool_call>".lstrip()

    @property
    def kept_text(self) -> str:
        """Read when the reply goes back into the conversation, which an answer's reply never does: stripping
        it at once copied a megabyte answer's reply for nothing."""
        return self._kept.strip() or self._reply


def _pseudo_call(after: str) -> str | None:
    """The JSON body of a tool call the model wrote inside the `<tool_response>` it opened (what follows the
    opening tag, up to its close), or None: a made-up observation is no call."""
    closed = re.search(_RESPONSE_CLOSE, after, re.IGNORECASE)
    body = (after[: closed.start()] if closed else after[:PSEUDO_CHARS]).strip()
    if not body.startswith("{"):
        return None
    try:
        found = extract_json_object(body)
    except OutputInvalid:
        return None
    name = next((found[k] for k in _CALL_KEYS if k in found), None)
    return body if isinstance(name, str) and name.strip() else None


def observation(text: str) -> str:
    return f"<tool_response>\n{escape_tags(text)}\n</tool_response>"


def truncate(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    return f"{text[:max_chars]}\n[... {len(text) - max_chars} more characters cut to fit the context ...]"


def describe_tools(specs: list[ToolSpec]) -> str:
    if not specs:
        return "(no tools available: answer from the memory)"
    return "\n".join(f"- {s.name}: {s.description}\n  arguments (JSON schema): "
                     f"{json.dumps(s.parameters, ensure_ascii=False)}" for s in specs)


def cited_ids(answer: str) -> list[str]:
    """Node ids cited as [node:ID] (also [node:A, node:B]), in order of first mention."""
    found: list[str] = []
    for match in _CITATION.finditer(answer):
        for raw in _CITATION_SPLIT.split(match.group(1)):
            node_id = raw.strip().strip("'\"`")
            if node_id and node_id not in found:
                found.append(node_id)
    return found


def citations(answer: str, known_text: str, memory_ids: list[str]) -> list[Citation]:
    """Citations of ids the agent was actually shown (in its memory, prompt or tool output); invented ids go."""
    return [Citation(node_id=i) for i in cited_ids(answer) if i in memory_ids or i in known_text]


def without_citations(answer: str) -> str:
    """The answer's text without its [node:ID] markers, whitespace collapsed: node ids mean nothing elsewhere."""
    return " ".join(_CITATION_MARK.sub("", answer).split())


def summarise(answer: str) -> str:
    """1-2 sentences of the answer without citation markers, for the Insight Doc. Read from the answer's opening
    only: cutting a megabyte answer into words to keep 400 characters of it cost some 20 bytes a character."""
    plain = without_citations(answer[:SUMMARY_CHARS * 20])
    sentences = split_sentences(plain)
    summary = " ".join(sentences[:2]) if sentences else plain
    return summary if len(summary) <= SUMMARY_CHARS else summary[: SUMMARY_CHARS - 3].rstrip() + "..."
