"""ReAct executor (LLM): think, call tools, observe, answer (DESIGN §4).

Bounded twice: at most `react_max_calls` LLM calls and about `react_max_context_tokens` of conversation. Before
the last call, or when the conversation nears the token cap, the model is told to answer now. A failing tool
never ends the run: its error becomes the observation, and the model can try something else. Only the run's
own stop signals (cancellation, budget) pass through a tool. An LLM failure ends the run with what was gathered
so far (`termination="error"`, the error in `summary`), so tool output already fetched is not lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import STOPS_THE_RUN, LLMError, ToolError
from ...settings import Settings
from ...text.tokens import chars_for_tokens, estimate_tokens
from ...tools.base import ToolBox, ToolResult
from ..models import ExecutionEnd, ExecutionInput, ExecutionResult, ToolCallRecord
from ..protocol.answer_cap import cap_answer
from ..protocol.answer_stream import AnswerStream
from ..protocol.react_format import (
    Step,
    StepEnd,
    ToolCall,
    citations,
    describe_tools,
    observation,
    summarise,
    truncate,
)
from .client import LLMClient, Message
from .prompt_loader import load_prompt
from .structured import OutputInvalid, parse_model

ANSWER_NOW = ("Stop using tools now. Write your final answer inside <answer>...</answer>, based on what you "
              "have; say plainly what is still unknown.")
NUDGE = ("Your reply had neither a <tool_call> nor an <answer>. Continue: call one tool inside "
         "<tool_call>...</tool_call>, or give the final answer inside <answer>...</answer>.")
NO_MORE_TOOLS = "Error: no more tool calls are allowed. " + ANSWER_NOW
MIN_OBSERVATION_CHARS = 1_000


@dataclass
class _Run:
    messages: list[Message]
    goal: str = ""
    calls: list[ToolCallRecord] = field(default_factory=list)
    llm_calls: int = 0
    told_to_answer: bool = False
    stopped_by_tokens: bool = False

    def tokens(self) -> int:
        return sum(estimate_tokens(str(m.get("content", ""))) for m in self.messages)

    def add(self, role: str, content: str) -> None:
        """Append a message; a second user message in a row joins the first, because many chat templates
        (Mistral, Gemma, some llama.cpp builds) reject a conversation whose roles do not alternate."""
        last = self.messages[-1] if self.messages else None
        if last is not None and role == "user" and last["role"] == "user" and isinstance(last["content"], str):
            last["content"] = f"{last['content']}\n\n{content}"
        else:
            self.messages.append({"role": role, "content": content or "(empty reply)"})


class ReactAgent:
    name = "react"

    def __init__(self, client: LLMClient, settings: Settings, toolbox: ToolBox,
                 on_tool_call: Callable[[ToolCallRecord], None] | None = None,
                 on_answer_text: Callable[[str, int], None] | None = None) -> None:
        """`on_tool_call` hears of every call as it returns, so the UI can show a long task's work live;
        `on_answer_text` hears the answer as it is written, token by token: each new piece of the text inside
        <answer> with its offset in the answer (`AnswerStream`)."""
        self._client = client
        self._on_tool_call = on_tool_call
        self._on_answer_text = on_answer_text
        self._settings = settings
        self._toolbox = toolbox
        self._prompt = load_prompt("react")
        self._cap = settings.react_max_context_tokens
        self._reserve = max(settings.react_max_context_tokens // 8, 500)

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        state = _Run(self._prompt.render(
            tools=describe_tools(self._toolbox.specs()), max_calls=self._settings.react_max_calls,
            prompt=inp.prompt, task_type=inp.task.type.value, task_description=inp.task.description),
            goal=inp.task_goal)
        try:
            answer = self._loop(state)
            # cut before citations and summary read it: they cost in proportion to what they are given
            answer = cap_answer(answer, self._settings.max_answer_chars) if answer is not None else None
        except STOPS_THE_RUN:
            raise
        except LLMError as exc:
            return self._result(state, inp, None, "error", f"The LLM failed after {state.llm_calls} calls: {exc}")
        if answer is not None:
            return self._result(state, inp, answer, "answer", summarise(answer))
        termination: ExecutionEnd = "max_tokens" if state.stopped_by_tokens else "max_calls"
        used = ", ".join(c.name for c in state.calls) or "none"
        note = (f"No answer within the {termination.replace('_', ' ')} cap "
                f"({state.llm_calls} LLM calls; tools: {used}).")
        return self._result(state, inp, None, termination, note)

    def _loop(self, state: _Run) -> str | None:
        max_calls = self._settings.react_max_calls
        while state.llm_calls < max_calls:
            if state.tokens() >= self._cap:
                state.stopped_by_tokens = True
                return None
            near_cap = state.tokens() >= self._cap - self._reserve
            if (near_cap or state.llm_calls == max_calls - 1) and not state.told_to_answer:
                state.add("user", ANSWER_NOW)
                state.told_to_answer = True
                state.stopped_by_tokens = near_cap
            step = self._step(state)
            if step.answer is not None:
                return step.answer
            if step.call_body is None:
                if state.told_to_answer and step.plain:
                    return step.plain  # told to answer, it answered without the tags
                state.add("user", NUDGE)
                continue
            result = NO_MORE_TOOLS if state.told_to_answer else self._act(step.call_body, state)
            state.add("user", observation(result))
        return None

    def _step(self, state: _Run) -> Step:
        sampling = self._settings.sampling_for(self.name)
        # per step: the reply's pieces in, the answer's new text out (nothing before <answer> opens), capped; the
        # reply is read only up to its tool call or answer (`StepEnd`), so the model is not left writing on
        answer = (AnswerStream(self._on_answer_text, self._settings.max_answer_chars).hear
                  if self._on_answer_text is not None else None)
        on_text = StepEnd(answer).hear
        completion = self._client.complete(state.messages, agent=self.name, temperature=sampling.temperature,
                                           top_p=sampling.top_p, max_tokens=self._settings.react_reply_tokens,
                                           on_text=on_text)
        state.llm_calls += 1
        step = Step(completion.text, self._settings.max_answer_chars)
        # an answer ends the loop, so its reply is never sent again: the transcript keeps the answer itself
        # (the same string) in its place, not a second copy of a reply that can be a megabyte long
        state.add("assistant", step.answer if step.answer is not None else step.kept_text)
        return step

    def _act(self, body: str, state: _Run) -> str:
        """Run one tool call; returns the observation text (an `Error: ...` line when anything failed)."""
        try:
            call = parse_model(body, ToolCall)
        except OutputInvalid as exc:
            state.calls.append(ToolCallRecord(name="(unparsed)", ok=False, response=str(exc)))
            return (f"Error: the tool call could not be read: {exc}. Write it as "
                    '{"name": "tool name", "arguments": {...}} inside <tool_call>...</tool_call>.')
        try:
            output = self._toolbox.call(call.name, call.arguments, goal=state.goal)
        except STOPS_THE_RUN:
            raise
        except ToolError as exc:
            return self._record(state, call, False, ToolResult(f"Error: {exc}"))
        except Exception as exc:  # noqa: BLE001 - any tool bug becomes an observation, as DESIGN §4 requires
            error = f"Error: {call.name} failed: {type(exc).__name__}: {exc}"
            return self._record(state, call, False, ToolResult(error))
        return self._record(state, call, True, output)

    def _record(self, state: _Run, call: ToolCall, ok: bool, output: ToolResult) -> str:
        """The record keeps the whole output and its pages; only the observation is cut to fit the context."""
        record = ToolCallRecord(name=call.name, arguments=call.arguments, ok=ok, response=output.text,
                                pages=list(output.pages))
        state.calls.append(record)
        if self._on_tool_call is not None:
            self._on_tool_call(record)
        room = chars_for_tokens(self._cap - self._reserve - state.tokens())
        return truncate(output.text, max(room, MIN_OBSERVATION_CHARS))

    def _result(self, state: _Run, inp: ExecutionInput, answer: str | None, termination: ExecutionEnd,
                summary: str) -> ExecutionResult:
        known = "\n".join(str(m.get("content", "")) for m in state.messages if m["role"] != "assistant")
        return ExecutionResult(
            answer=answer, messages=state.messages, tool_calls=state.calls, termination=termination,
            calls_reported=self._on_tool_call is not None,
            citations=citations(answer, known, inp.memory_node_ids) if answer else [],
            success=answer is not None, summary=summary)
