"""What a run returns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from ..engines.models import Citation
from ..errors import RunError, unique_errors
from ..long_term.models import LongTermUse
from ..memory.insight_doc import InsightDoc
from ..text.follow_up import FollowUp

# done: planning left nothing pending; max_rounds: the loop was cut at the cap on rounds (the answer, if any, was
# written from what memory held then); budget / endpoint_down: an error stopped it (`stop_reason`); cancelled.
Termination = Literal["done", "max_rounds", "budget", "cancelled", "endpoint_down"]


class RunResult(BaseModel):
    question: str
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    insight_doc: InsightDoc
    termination: Termination = "done"
    rounds: int = 0
    seconds: float = 0.0
    errors: list[RunError] = Field(default_factory=list)
    stop_reason: str = ""  # when the run ended early on an error (budget, endpoint down): that error's message
    new_node_ids: list[str] = Field(default_factory=list)
    long_term: LongTermUse | None = Field(default=None, description="what long-term memory gave and learned")
    follow_up: FollowUp | None = Field(default=None, description="how a question leaning on the task's previous "
                                       "one was read (its answer says so first); None when it was read as asked")

    def read_question(self) -> str:
        """The question as it was read (a follow-up against the previous one), what the run answered."""
        return self.follow_up.question if self.follow_up is not None else self.question

    @field_validator("errors", mode="before")
    @classmethod
    def _typed_errors(cls, value: object) -> object:
        return [RunError.coerce(e) for e in value] if isinstance(value, list) else value

    @field_validator("errors")
    @classmethod
    def _said_once(cls, value: list[RunError]) -> list[RunError]:
        return unique_errors(value)

    def add_errors(self, errors: Iterable[RunError], *, first: bool = False) -> None:
        """Record more errors (before the run's own with `first`: what happened while reading the inputs); one
        already recorded is not repeated."""
        new = list(errors)
        self.errors = unique_errors([*new, *self.errors] if first else [*self.errors, *new])
