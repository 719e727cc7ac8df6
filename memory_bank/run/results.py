"""What a run returns."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..engines.models import Citation
from ..long_term.models import LongTermUse
from ..memory.insight_doc import InsightDoc


class RunResult(BaseModel):
    question: str
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    insight_doc: InsightDoc
    termination: str = "done"  # done | max_rounds | budget | cancelled | endpoint_down
    rounds: int = 0
    seconds: float = 0.0
    errors: list[str] = Field(default_factory=list)
    stop_reason: str = ""  # when the run ended early on an error (budget, endpoint down): that error's message
    new_node_ids: list[str] = Field(default_factory=list)
    long_term: LongTermUse | None = Field(default=None, description="what long-term memory gave and learned")
