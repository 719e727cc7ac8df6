"""Reading a streamed chat completion, chunk by chunk, into a `Completion`.

Duck-typed on the SDK's chunk objects (like `cached.py`), so it needs no SDK: `openai_client` opens the stream and
maps its errors, this reads it. The reply accumulates in a `TextBuffer` (about a byte a character) and each new
piece is handed on once, with its offset: linear in the reply. Two listeners may hear it: `on_text` (the text,
for a free-text answer written as it comes; it may end the reading early) and `on_tokens` (how many reply tokens
have arrived, for the Run page's call in progress: llama.cpp and OpenAI send one token a chunk).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from ...errors import LLMUnavailable
from ...text.buffer import TextBuffer
from ...text.tokens import estimate_tokens
from .cached import cached_tokens, server_speeds
from .client import Completion, Message, StopReply, TextListener, TokenListener
from .prompt_size import estimate_message_tokens


def read_stream(stream: Any, messages: list[Message], where: str, on_text: TextListener | None = None,
                on_tokens: TokenListener | None = None) -> Completion:
    """Usage from the last chunk (llama.cpp's `timings` beside it), or from the last timings llama.cpp sent when
    reading stopped before that chunk. Reading stops when `on_text` has what it needs. `where` names the endpoint,
    model and agent in the error of a body that is not a completion stream."""
    buffer = TextBuffer()
    finish, model, usage, chunks, enough, cached, pieces = "", "", None, 0, False, 0, 0
    speeds, timings = (0.0, 0.0), None
    for chunk in stream:
        model = getattr(chunk, "model", "") or model
        usage = getattr(chunk, "usage", None) or usage
        cached = cached_tokens(chunk, usage) or cached
        if getattr(chunk, "timings", None) is not None:
            speeds, timings = server_speeds(chunk), chunk.timings
        chunks += 1
        for choice in getattr(chunk, "choices", None) or []:
            piece = getattr(choice.delta, "content", None) if choice.delta is not None else None
            if piece:
                if on_text is not None:
                    try:
                        enough = bool(on_text(piece, len(buffer))) or enough
                    except StopReply:  # the listener heard enough and says why: the reply ends "stopped"
                        finish, enough = "stopped", True
                buffer.write(piece)
                pieces += 1
                if on_tokens is not None:
                    on_tokens(pieces)
            if finish == "stopped":
                break
            finish = choice.finish_reason or finish
        if enough:  # the listener has what it reads: the rest of the reply is not waited for (the stream
            break  # is closed on the way out, so the server stops generating)
    text = buffer.getvalue()
    if not chunks or not (text or finish):  # no completion chunk at all: not an OpenAI-compatible stream
        raise LLMUnavailable(f"{where} returned a non-completion body to a streamed request. "
                             "Is the base URL an OpenAI-compatible API (often ending in /v1)?")
    if usage is not None and usage.prompt_tokens is not None:
        return Completion(text, usage.prompt_tokens, usage.completion_tokens or 0, model, finish, cached, *speeds)
    if (counted := _counted_so_far(timings)) is not None:  # closed early: llama.cpp's per-chunk timings
        return Completion(text, counted[0] + counted[1], pieces, model, finish, counted[1], *speeds)
    return Completion(text, estimate_message_tokens(messages), estimate_tokens(text), model, finish, cached, *speeds)


def _counted_so_far(timings: Any) -> tuple[int, int] | None:
    """(prompt tokens processed, prompt tokens served from the cache) from llama.cpp's timings, which it sends
    with every chunk when asked (`timings_per_token`): the usage of a reply whose stream was closed before its
    last chunk. None when the server said nothing usable."""
    if not isinstance(timings, dict):
        return None
    processed, cached = timings.get("prompt_n"), timings.get("cache_n", 0)
    if not _count(processed) or not _count(cached):
        return None
    return processed, cached


def _count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
