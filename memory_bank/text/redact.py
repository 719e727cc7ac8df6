"""Secrets out of text that leaves the process: LLM completions, tool output, error messages.

A key can come back inside what a remote service returns (an endpoint that echoes the request, an error page
quoting the Authorization header); once in a prompt, the run log or an export it is as good as published.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

MIN_SECRET_CHARS = 4  # shorter "secrets" would blank out ordinary words
REDACTED = "***"


def redact(text: str, secrets: Sequence[str | None]) -> str:
    """`text` with every secret of a usable length replaced by `***`."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_CHARS and secret in text:
            text = text.replace(secret, REDACTED)
    return text


class RedactedStream:
    """Redaction for text that arrives in pieces (a streamed reply), handed on piece by piece with the offset
    of each piece in the redacted text.

    A secret can be split across two pieces, so the last (longest secret - 1) characters are held back until the
    next piece shows they do not start one; `end()` hands on what is held when the reply is complete. Each piece
    is looked at once with that short tail: linear in the reply. A piece at offset 0 starts the reply again (a
    retried stream), and the listener hears offset 0 again."""

    def __init__(self, listener: Callable[[str, int], bool | None], secrets: Sequence[str | None]) -> None:
        self._listener = listener
        self._secrets = tuple(s for s in secrets if s and len(s) >= MIN_SECRET_CHARS)
        self._keep = max((len(s) for s in self._secrets), default=1) - 1
        self._held = ""
        self._sent = 0

    def hear(self, piece: str, offset: int) -> bool:
        """True when the listener needs no more of the reply."""
        if offset == 0:
            self._held, self._sent = "", 0
        text = redact(self._held + piece, self._secrets)
        cut = max(0, len(text) - self._keep)
        self._held = text[cut:]
        return self._send(text[:cut])

    def end(self) -> None:
        held, self._held = self._held, ""
        self._send(held)

    def _send(self, text: str) -> bool:
        if not text:
            return False
        enough = self._listener(text, self._sent)
        self._sent += len(text)
        return bool(enough)
