"""L3 reflections over L2 records (seed 004 §4.2, §6.3, §8.4): a category's summary, and the record that names it.

Only records that would be shown to a model are summarised (a withheld one stays out of its category's summary
too), and a summary vouches for no more than its weakest source: its provenance is theirs at the lowest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .markdown import category_reflection, front_matter, strategy_reflection
from .models import ERROR_RECOVERY, REFLECTION, Category, MemoryRecord, Provenance, Source
from .vetting import record_withheld

if TYPE_CHECKING:
    from .memory import LongTermMemory

MAX_DIGEST = 2_000


def reflect(ltm: LongTermMemory, category: Category | str) -> MemoryRecord | None:
    """Write (or rewrite) the category's L3 summary and the L2 record that references it; None when the category
    holds nothing to reflect on. Strategies get the seed's error-recovery experience summary."""
    category = Category(category)
    records = ltm.records(category)
    sources = [r for r in records if r.subcategory != REFLECTION and record_withheld(r) is None]
    if category is Category.STRATEGY:
        sources = [r for r in sources if r.subcategory == ERROR_RECOVERY]
    if not sources:
        return None
    weakest = max((r.provenance for r in sources), key=list(Provenance).index)
    body, digest = (strategy_reflection(sources) if category is Category.STRATEGY
                    else category_reflection(category, sources))
    existing = next((r for r in records if r.subcategory == REFLECTION), None)
    if existing is None:
        record = ltm.add(digest[:MAX_DIGEST], category, subcategory=REFLECTION, tags=[REFLECTION], confidence=0.7,
                         source=Source.REFLECTION, provenance=weakest, title="reflection")
    else:
        record = existing.model_copy(update={"content": digest[:MAX_DIGEST], "updated_at": ltm.clock(),
                                             "provenance": weakest})
    ltm.replace(record, front_matter(record) + body)
    return ltm.get(record.memory_id)
