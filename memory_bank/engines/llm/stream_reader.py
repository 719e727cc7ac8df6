"""Reading a streamed chat completion, chunk by chunk, into a `Completion`.

Duck-typed on the SDK's chunk objects (like `cached.py`), so it needs no SDK: `openai_client` opens the stream and
maps its errors, this reads it. The reply accumulates in a `TextBuffer` (about a byte a character) and each new
piece is handed on once, with its offset: linear in the reply. Two listeners may hear it: `on_text` (the text,
for a free-text answer written as it comes; it may end the reading early) and `on_tokens` (how many reply tokens
have arrived, for the Run page's call in progress: llama.cpp and OpenAI send one token a chunk).
"""

from __future__ import annotations

from typing import Any

from ...errors import LLMUnavailable
from ...text.buffer import TextBuffer
from ...text.tokens import estimate_tokens
from .cached import cached_tokens, server_speeds
from .client import Completion, Message, StopReply, TextListener, TokenListener
from .prompt_size import estimate_message_tokens


def read_stream(stream: Any, messages: list[Message], where: str, on_text: TextListener | None = None,
                on_tokens: TokenListener | None = None) -> Completion:
    """Usage from the last chunk (llama.cpp's `timings` beside it). Reading stops when `on_text` has what it
    needs. `where` names the endpoint, model and agent in the error of a body that is not a completion stream."""
    buffer = TextBuffer()
    finish, model, usage, chunks, enough, cached, pieces = "", "", None, 0, False, 0, 0
    speeds = (0.0, 0.0)
    for chunk in stream:
        model = getattr(chunk, "model", "") or model
        usage = getattr(chunk, "usage", None) or usage
        cached = cached_tokens(chunk, usage) or cached
        speeds = server_speeds(chunk) if getattr(chunk, "timings", None) is not None else speeds
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
    return Completion(text, estimate_message_tokens(messages), estimate_tokens(text), model, finish, cached, *speeds)
