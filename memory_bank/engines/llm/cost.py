"""What LLM tokens cost: prices per million tokens, a run's cost, and an estimate before a run starts.

Prices are the person's (Settings, empty by default: no cost is shown rather than a guessed one); the presets
are editable starting points for a few hosted models, in US dollars per million tokens as their providers list
them. Cached prompt tokens (a prompt prefix the provider has seen) cost `cached` where set, else the full price.
The estimate multiplies pages by the tokens a page took when measured (`bench/llm_ingest.py`, *LLM for
everything* on the NIST PDF against the scripted model, batched): a rough figure, said to be one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...settings import Settings

PER_MILLION = 1_000_000
# (input, cached input, output) per million tokens
PRICE_PRESETS: dict[str, tuple[float, float, float]] = {
    "gpt-4o-mini": (0.15, 0.075, 0.60),
    "gpt-4.1-mini": (0.40, 0.10, 1.60),
    "gpt-4.1": (2.00, 0.50, 8.00),
    "gpt-4o": (2.50, 1.25, 10.00),
}
# measured ingestion tokens per page (prompt, completion), batched agents, NIST SP 800-207 (59 pages):
# `python bench/llm_ingest.py --sample nist` printed 2,776 prompt and 664 completion tokens a page
PROMPT_TOKENS_PER_PAGE = 2_800
COMPLETION_TOKENS_PER_PAGE = 700


@dataclass(frozen=True)
class Prices:
    input: float
    output: float
    cached: float | None = None

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        cached = min(max(cached_tokens, 0), prompt_tokens)
        cached_price = self.input if self.cached is None else self.cached
        return ((prompt_tokens - cached) * self.input + cached * cached_price
                + completion_tokens * self.output) / PER_MILLION


def prices_from(settings: Settings) -> Prices | None:
    """The settings' prices, or None when input or output price is not set (then no cost is shown)."""
    if settings.price_input is None or settings.price_output is None:
        return None
    return Prices(input=settings.price_input, output=settings.price_output, cached=settings.price_cached)


def estimate_ingestion(pages: int, prices: Prices) -> float:
    """The expected cost of reading `pages` pages with every ingestion agent on the LLM."""
    return prices.cost(pages * PROMPT_TOKENS_PER_PAGE, pages * COMPLETION_TOKENS_PER_PAGE)


def money(amount: float) -> str:
    """A cost as people read it: cents kept for small sums, never '0.00' for a cost that is not zero."""
    if amount == 0:
        return "$0"
    if amount < 0.01:
        return f"${amount:.4f}"
    return f"${amount:,.2f}"
