"""The answer of a ReAct reply while it streams, cut at the longest answer a run keeps.

A reply arrives a few characters at a time. Re-reading the whole reply at every piece (as `answer_so_far` does)
is quadratic in its length: a model that streams megabytes would take hours and, with every snapshot kept,
gigabytes. `AnswerStream` reads each piece once: before `<answer>` opens it looks only at the short tail where a
tag can be completing (and re-reads the reply once, when an opening tag arrives, to check it is not inside a
`<think>` block or after a tool call); once the answer is open it hands on the new text, holding back only a
possible closing tag or trailing space. The answer is capped on the way: past `limit` characters it is cut with
the same marker `cap_answer` (`answer_cap`) puts on the finished answer, and nothing more is handed on.
"""

from __future__ import annotations

from collections.abc import Callable

from ...text.buffer import TextBuffer
from .answer_cap import cut_marker
from .react_format import ANSWER_CLOSE, ANSWER_OPEN, answer_so_far

HOLD = 64  # the longest tail held back: a tag being written, or spaces that may end the answer


class AnswerStream:
    """Hears a reply piece by piece (`hear(piece, offset)`, the `TextListener` of the LLM client) and reports
    the answer's new text with its offset in the answer. A reply started again (offset 0 after text) starts the
    answer again: `report("", 0)` clears what a reader had. `opened`: the whole reply is the answer (a reply
    written without tags, as the one-call answer is); a closing tag still ends it."""

    def __init__(self, report: Callable[[str, int], None], limit: int, *, opened: bool = False) -> None:
        self._report, self._limit, self._opened = report, limit, opened
        self._restart()

    @property
    def done(self) -> bool:
        """The answer ended (its closing tag) or reached the limit: nothing more will be handed on."""
        return self._done

    def _restart(self) -> None:
        self._reply = TextBuffer()  # the reply until the answer opens
        self._tail = ""  # its last HOLD characters
        self._open, self._done = self._opened, False
        self._pending = ""  # answer text not handed on yet
        self._sent = 0

    def hear(self, piece: str, offset: int) -> bool:
        """True once the answer is complete (closed, or cut at the limit): the rest of the reply is not read (an
        answer that opened first wins over anything written after it, and nothing past the limit is kept)."""
        if offset == 0 and (self._sent or len(self._reply) or self._open):
            if self._sent:
                self._report("", 0)
            self._restart()
        if not self._done:
            self._hear(piece)
        return self._done

    def _hear(self, piece: str) -> None:
        if self._open:
            self._answer(piece)
            return
        seen = self._tail + piece
        self._reply.write(piece)
        self._tail = seen[-HOLD:]
        if ">" not in piece:
            return  # no tag was completed: the answer cannot have opened
        opened = list(ANSWER_OPEN.finditer(seen))[-1:]  # the last opening tag in view
        if not opened or opened[0].end() <= len(seen) - len(piece):
            return
        if answer_so_far(self._reply.getvalue()) is None:
            return  # inside <think>, or after a tool call: not the answer
        self._open, self._reply = True, TextBuffer()
        self._answer(seen[opened[0].end():])

    def _answer(self, piece: str) -> None:
        text = self._pending + piece
        closed = ANSWER_CLOSE.search(text)
        if closed is not None:
            self._pending, self._done = "", True
            self._send(text[:closed.start()].rstrip())
            return
        lt = text.rfind("<", max(0, len(text) - HOLD))
        keep = lt if lt != -1 and ">" not in text[lt:] else len(text)  # a tag still being written
        body = text[:keep].rstrip()
        if keep - len(body) <= HOLD:
            keep = len(body)  # trailing spaces wait: the answer may end after them
        self._pending = text[keep:]
        self._send(text[:keep])

    def _send(self, text: str) -> None:
        if not self._sent:
            text = text.lstrip()
        if not text:
            return
        room = self._limit - self._sent
        if len(text) > room:
            text, self._done = text[:room] + cut_marker(self._limit), True
        self._report(text, self._sent)
        self._sent += len(text)
