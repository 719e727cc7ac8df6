"""How long a server asks a client to wait before asking again (HTTP `Retry-After`, OpenAI's `retry-after-ms`).

Parsed apart from the client: plain header reading, testable without a server or the SDK.
"""

from __future__ import annotations

import email.utils
import time
from typing import Any


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def parse_retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `Retry-After` as seconds or as an HTTP date; None if absent."""
    millis = _number(headers.get("retry-after-ms") or "")
    if millis is not None:
        return max(0.0, millis / 1000)
    value = headers.get("retry-after") or ""
    seconds = _number(value)
    if seconds is not None or not value:
        return None if seconds is None else max(0.0, seconds)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None  # unparseable: the caller falls back to exponential backoff
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
