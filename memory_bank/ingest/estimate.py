"""What reading some files will cost, before the run starts: their pages times the measured tokens a page.

A PDF's pages are counted (not read); any other text counts a page per `CHARS_PER_PAGE` characters of the file,
an image as one page. Only the agents that run on the LLM during ingestion cost anything: with classification
and structure offline, ingestion makes no LLM call and there is nothing to estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from ..engines.llm.cost import estimate_ingestion, prices_from
from ..loaders import detect_kind
from ..loaders.pdf import pdf_page_count
from ..settings import Settings

CHARS_PER_PAGE = 3_000  # a printed page of prose
INGESTION_AGENTS = ("classification", "structure", "analysis")


def page_count(path: Path) -> int:
    kind = detect_kind(path, path.name)
    if kind == "pdf":
        return pdf_page_count(path, path.name)
    if kind == "image":
        return 1
    return max(1, math.ceil(path.stat().st_size / CHARS_PER_PAGE))


def cost_per_page(settings: Settings) -> float | None:
    """What reading one page costs with these settings, or None without prices or LLM ingestion agents."""
    prices = prices_from(settings)
    if prices is None or not any(settings.engine_for(a) == "llm" for a in INGESTION_AGENTS):
        return None
    return estimate_ingestion(1, prices)


def ingestion_estimate(settings: Settings, paths: Sequence[Path]) -> tuple[int, float] | None:
    """(pages, estimated cost) of reading `paths`, or None when reading them costs nothing to estimate."""
    per_page = cost_per_page(settings)
    if per_page is None or not paths:
        return None
    pages = sum(page_count(Path(p)) for p in paths)
    return pages, pages * per_page
