"""Secrets out of text that leaves the process: LLM completions, tool output, error messages.

A key can come back inside what a remote service returns (an endpoint that echoes the request, an error page
quoting the Authorization header); once in a prompt, the run log or an export it is as good as published.
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_SECRET_CHARS = 4  # shorter "secrets" would blank out ordinary words
REDACTED = "***"


def redact(text: str, secrets: Sequence[str | None]) -> str:
    """`text` with every secret of a usable length replaced by `***`."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_CHARS and secret in text:
            text = text.replace(secret, REDACTED)
    return text
