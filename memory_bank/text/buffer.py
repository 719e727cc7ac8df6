"""Text that grows a piece at a time (a streamed reply, an answer's draft), kept in about a byte a character.

Joining at every piece is quadratic, and a list of token-sized strings costs some 60 bytes a token. `io.StringIO`
looks like the answer but, up to Python 3.11, keeps every piece written as its own object until 100,000 of them
have gathered (measured: +6 MB for a 200,000-character answer streamed 4 characters a chunk). Joined blocks of
pieces (the previous way) were compact, but a reply's blocks and a draft's, growing side by side, interleaved in
the heap: freed after the final join they left a reply's worth of holes that only small objects could reuse
(`bench/stream_memory.py`, a 1,000,000-character answer: peak growth 5.7-5.9 MB with blocks, 4.1-4.3 MB with
this). Here the text is one `bytearray` of UTF-8, grown in place (amortised, a contiguous block the allocator
can move or give back whole), and decoded when read: one copy, and UTF-8 keeps mostly-ASCII text at a byte a
character where a `str` with a single wide character takes two or four.
"""

from __future__ import annotations

from ..events import AnswerDelta

_CODEC = ("utf-8", "surrogatepass")  # a lone surrogate a model streamed comes back as it went in


class TextBuffer:
    def __init__(self) -> None:
        self._bytes = bytearray()
        self._size = 0

    def write(self, piece: str) -> None:
        self._bytes += piece.encode(*_CODEC)
        self._size += len(piece)

    def getvalue(self) -> str:
        """A new string each time (the buffer does not keep one beside its bytes: that would be a second copy)."""
        return self._bytes.decode(*_CODEC)

    def __len__(self) -> int:
        return self._size


class AnswerDraft:
    """The answer so far, folded from `AnswerDelta` pieces: what a reader of the stream keeps instead of every
    event. Not thread-safe: its owner guards it."""

    def __init__(self) -> None:
        self._buffer = TextBuffer()
        self.llm_calls = 0
        self.tokens = 0

    def add(self, delta: AnswerDelta) -> None:
        if delta.offset < len(self._buffer):  # a reply started again (offset 0), or taken up from earlier on
            kept = self._buffer.getvalue()[:delta.offset]
            self._buffer = TextBuffer()
            if kept:
                self._buffer.write(kept)
        self._buffer.write(delta.text)
        self.llm_calls, self.tokens = delta.llm_calls, delta.tokens

    @property
    def text(self) -> str:
        return self._buffer.getvalue()

    def __len__(self) -> int:
        return len(self._buffer)
