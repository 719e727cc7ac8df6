"""The long-term memory's records (seed 004 §3-4, §8): typed, versioned, bounded.

L2 records are the decision layer: routing, ranking, injection and learning read only their fields. L3
reflections are Markdown files a person can read; each is named by the L2 record that references it and never
decides anything by itself. Everything here is validated on load, because `memory.json` is a file a person may
edit and an import may come from anywhere.
"""

from __future__ import annotations

import re
import time
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

FORMAT = "agentic-memory-bank-long-term"
VERSION = 2  # 2: records carry their provenance and source task (a version 1 file reads as it was, see below)
MEMORY_ID = re.compile(r"^mem_[0-9]{8}_[0-9a-f]{8}$")
TASK_REF = r"^[A-Za-z0-9_-]{1,64}$"
MAX_CONTENT = 2_000
MAX_TAGS = 32
MAX_TAG = 80
MAX_METADATA_CHARS = 20_000


class Category(StrEnum):
    WORK = "work"
    LIFE = "life"
    PREFERENCE = "preference"
    EMOTION = "emotion"
    STRATEGY = "strategy"


class Source(StrEnum):
    USER_FEEDBACK = "user_feedback"
    TASK_RESULT = "task_result"
    USER_INPUT = "user_input"
    REFLECTION = "reflection"
    IMPORTED = "imported"


class Provenance(StrEnum):
    """Who vouches for a record's text. Only the user's own words may tell the assistant what to do; the rest is
    quoted to a model as data from its source task (DESIGN §9)."""

    USER_CONFIRMED = "user_confirmed"  # the user wrote it, or confirmed the answer it comes from
    DOCUMENT_SUPPORTED = "document_supported"  # distilled, and its words are in the passages the task cited
    MODEL_DISTILLED = "model_distilled"  # distilled by the engine (rules or a model), vouched for by nobody


_USER_SOURCES = frozenset({Source.USER_INPUT, Source.USER_FEEDBACK})


def provenance_of(source: Source) -> Provenance:
    """What a record written before provenance existed is taken to be: the user's when the user made it."""
    return Provenance.USER_CONFIRMED if source in _USER_SOURCES else Provenance.MODEL_DISTILLED


ERROR_RECOVERY = "error_recovery"
GOAL = "{task_goal}"  # a fix pattern's stand-in for the task goal: each task fills in its own
REFLECTION = "reflection"


def new_memory_id(now: float | None = None) -> str:
    day = datetime.fromtimestamp(now if now is not None else time.time(), UTC).strftime("%Y%m%d")
    return f"mem_{day}_{uuid.uuid4().hex[:8]}"


def reflection_ref(memory_id: str) -> str:
    return f"reflections/{memory_id}.md"


def _clean_tags(tags: list[str]) -> list[str]:
    seen: list[str] = []
    for tag in tags:
        tag = " ".join(str(tag).split())[:MAX_TAG]
        if tag and tag not in seen:
            seen.append(tag)
    return seen[:MAX_TAGS]


class MemoryRecord(BaseModel):
    """One L2 record, with the seed's fields (plus `last_used_at`, which time decay reads)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    memory_id: str = Field(pattern=MEMORY_ID.pattern)
    layer: Literal["L2"] = "L2"
    category: Category
    subcategory: str = Field(default="", max_length=64)
    tags: list[str] = Field(default_factory=list)
    content: str = Field(min_length=1, max_length=MAX_CONTENT)
    confidence: float = Field(default=0.6, ge=0.0, le=1.0)
    reward: float = Field(default=0.0, ge=-1.0, le=1.0)
    source: Source = Source.TASK_RESULT
    provenance: Provenance = Provenance.MODEL_DISTILLED
    source_task: str | None = Field(default=None, pattern=TASK_REF, description="the task it was learnt from")
    created_at: float = Field(ge=0)
    updated_at: float = Field(ge=0)
    last_used_at: float | None = Field(default=None, ge=0)
    access_count: int = Field(default=0, ge=0)
    summary_md_ref: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    needs_revision: bool = False

    _tags = field_validator("tags")(classmethod(lambda cls, v: _clean_tags(v)))

    @model_validator(mode="before")
    @classmethod
    def _provenance_from_source(cls, data: Any) -> Any:
        """A version 1 record has no provenance: it is the user's only when the user made it."""
        if isinstance(data, dict) and "provenance" not in data and "source" in data:
            try:
                return {**data, "provenance": provenance_of(Source(data["source"]))}
            except ValueError:
                return data  # the field's own validation says what is wrong with the source
        return data

    @property
    def own_words(self) -> bool:
        """The user typed this text (not an answer they liked, not an import): it may state a preference."""
        return self.provenance is Provenance.USER_CONFIRMED and self.source is Source.USER_INPUT

    @field_validator("summary_md_ref")
    @classmethod
    def _ref_is_own_reflection(cls, value: str | None, info: Any) -> str | None:
        """A reference names this record's own file and nothing else: an edited index cannot point at a path."""
        if value is None:
            return None
        memory_id = info.data.get("memory_id", "")
        if value != reflection_ref(memory_id):
            raise ValueError(f"summary_md_ref must be {reflection_ref(memory_id)!r}")
        return value

    @field_validator("metadata")
    @classmethod
    def _bounded(cls, value: dict[str, Any]) -> dict[str, Any]:
        import json

        if len(json.dumps(value, ensure_ascii=False, default=str)) > MAX_METADATA_CHARS:
            raise ValueError(f"metadata is larger than {MAX_METADATA_CHARS} characters")
        return value

    @property
    def last_touched(self) -> float:
        """What time decay counts from: the last use, else the last change."""
        return max(self.updated_at, self.last_used_at or 0.0)


class FixPattern(BaseModel):
    original: dict[str, Any] = Field(default_factory=dict)
    fixed: dict[str, Any] = Field(default_factory=dict)


class RecoveryMetadata(BaseModel):
    """The seed's `metadata` of an error-recovery strategy (§8.1), with the counts learning needs."""

    model_config = ConfigDict(extra="ignore")

    category: Literal["error_recovery"] = ERROR_RECOVERY
    error_type: str = Field(min_length=1, max_length=80)
    tool_name: str = Field(min_length=1, max_length=80)
    error_message: str = Field(default="", max_length=500)
    fix_pattern: FixPattern
    success: bool = True
    uses: int = Field(default=1, ge=0)
    successes: int = Field(default=1, ge=0)


class AnswerUse(BaseModel):
    """One answer and the records that went into it, so feedback on it reaches them."""

    answer_id: str = Field(pattern=r"^ans_[0-9a-f]{16}$")
    question: str = Field(max_length=4_000)
    answer: str = Field(max_length=20_000)
    memory_ids: list[str] = Field(default_factory=list)
    created_at: float
    rating: int | None = Field(default=None, ge=1, le=5)
    reason: str = Field(default="", max_length=2_000)
    task_id: str | None = Field(default=None, pattern=TASK_REF, description="the task the answer belongs to")


class IndexFile(BaseModel):
    """`memory.json`: the L2 index of one user."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["agentic-memory-bank-long-term"] = FORMAT
    version: Literal[1, 2] = VERSION
    user_id: str
    records: list[MemoryRecord] = Field(default_factory=list)
    answers: list[AnswerUse] = Field(default_factory=list)


class Intent(StrEnum):
    ASK = "ask"
    DECIDE = "decide"
    REFLECT = "reflect"


class QueryAnalysis(BaseModel):
    intent: Intent
    categories: list[Category]


class InjectedItem(BaseModel):
    """One record as it went into a prompt, and why."""

    memory_id: str
    category: Category
    tier: int = Field(description="1 preferences and constraints, 2 high-reward strategies, 3 recent experience")
    score: float
    text: str = Field(description="the item's lines in the block: its label and its quotation")
    quote: str = Field(default="", description="the record's text as quoted (escaped, clipped)")
    provenance: Provenance = Provenance.MODEL_DISTILLED
    source_task: str | None = None
    own_words: bool = Field(default=False, description="the user typed it: a preference, not only a quotation")
    as_summary: bool = Field(default=False, description="an L3 summary stood in for records over budget")
    why: str = ""


class Withheld(BaseModel):
    """A record kept out of a prompt, or out of memory, because its text reads as an instruction."""

    memory_id: str | None = Field(default=None, description="None for a lesson that was never stored")
    reasons: str = Field(description="the classes of signal found ('override, network'), never the text")


class Injection(BaseModel):
    """What the <long_term> block of one prompt held: typed, for the run result, the event and the UI."""

    query: str
    analysis: QueryAnalysis
    budget_tokens: int
    tokens: int
    block: str
    items: list[InjectedItem] = Field(default_factory=list)
    dropped: list[str] = Field(default_factory=list, description="ids that ranked but did not fit")
    withheld: list[Withheld] = Field(default_factory=list, description="ranked and within the budget, but "
                                     "instruction-like: not shown")

    @property
    def memory_ids(self) -> list[str]:
        return [i.memory_id for i in self.items]


class LongTermUse(BaseModel):
    """What a run took from, and gave to, long-term memory (on `RunResult.long_term`)."""

    answer_id: str
    injection: Injection | None = None
    strategies_applied: list[str] = Field(default_factory=list)
    distilled: list[str] = Field(default_factory=list, description="ids of the records the task produced")
    refused: list[Withheld] = Field(default_factory=list, description="lessons not kept: instruction-like text, or "
                                    "an answer copied")
