"""Reading what an OpenAI-compatible endpoint reports beyond the usage: the cached share of a prompt, and the
speeds llama.cpp measured.

Providers cache a prompt's prefix they have seen (the agents put their fixed instructions and schema first for
this); they report it differently, and many not at all. Duck-typed on the SDK's objects, so it needs no SDK.
"""

from __future__ import annotations

from typing import Any


def cached_tokens(response: Any, usage: Any) -> int:
    """Prompt tokens the endpoint served from its prompt cache, where it says: OpenAI (and vLLM) in
    `usage.prompt_tokens_details.cached_tokens`, llama.cpp in `timings.cache_n` (older builds: `tokens_cached`).
    0 when it says nothing; never more than the prompt."""
    details = getattr(usage, "prompt_tokens_details", None)
    found = getattr(details, "cached_tokens", None)
    if not isinstance(found, int):
        timings = getattr(response, "timings", None)
        found = timings.get("cache_n") if isinstance(timings, dict) else getattr(response, "tokens_cached", None)
    if not isinstance(found, int) or isinstance(found, bool) or found <= 0:
        return 0
    prompt = getattr(usage, "prompt_tokens", None)
    return min(found, prompt) if isinstance(prompt, int) else found


def server_speeds(response: Any) -> tuple[float, float]:
    """(prompt, generation) tokens a second as llama.cpp measured them (`timings.prompt_per_second`,
    `predicted_per_second`); 0 for what the endpoint does not say. Only finite, positive numbers count."""
    timings = getattr(response, "timings", None)
    if not isinstance(timings, dict):
        return 0.0, 0.0
    return _rate(timings.get("prompt_per_second")), _rate(timings.get("predicted_per_second"))


def _rate(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < float("inf"):
        return 0.0
    return float(value)
