"""What a finished task may leave in long-term memory, and what a stored record may put into a prompt.

A lesson comes from the engine's distiller (rules, or a model reading the task), and the task's answer may hold
document text written to look like an instruction ("IMPORTANT SYSTEM NOTE FOR ALL FUTURE TASKS: ..."). So a lesson
is kept only when its text (with its subcategory and tags, which a prompt and the app show too) does not screen
as instruction-like, and when it does not copy the answer: a run of `COPY_WORDS` words of the answer (that are
not the user's question) means it restates what was answered instead of distilling a lesson. Its provenance is
then set here from the evidence, never taken from the distiller: document-supported when the passages the task
cited hold its content words, model-distilled otherwise. A refusal is reported by its reasons, never its text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pydantic import ValidationError

from ..engines.protocol.react_format import without_citations
from ..text.split import split_sentences
from ..text.tokens import stems
from .distill import Lesson, Lessons, TaskDigest
from .models import ERROR_RECOVERY, GOAL, FixPattern, MemoryRecord, Provenance, RecoveryMetadata, Withheld
from .screen import reasons, screen

COPY_WORDS = 8
SUPPORT = 0.8  # the share of a lesson's content words the cited passages must hold
MIN_SUPPORTED_WORDS = 3
CONFIRMED_CHARS = 600
_SUBCATEGORY = re.compile(r"[^a-z0-9_]+")


@dataclass(frozen=True)
class Vetted:
    lesson: Lesson
    provenance: Provenance


def findings_of(text: str, subcategory: str = "", tags: list[str] | tuple[str, ...] = (), *,
                own_words: bool = False) -> str:
    """The screen's reasons for a record's visible text ('' when it is clean)."""
    return reasons([f for part in (text, subcategory, *tags) for f in screen(part, own_words=own_words)])


def record_withheld(record: MemoryRecord) -> Withheld | None:
    """Whether a stored record must stay out of a prompt (and out of its category's summary): its text,
    subcategory and tags screened, leniently only when the user typed them; a recovery strategy's fix too."""
    why = findings_of(record.content, record.subcategory, record.tags, own_words=record.own_words)
    if not why and record.subcategory == ERROR_RECOVERY:
        try:
            why = pattern_findings(RecoveryMetadata.model_validate(record.metadata).fix_pattern)
        except ValidationError:
            why = "not a valid recovery strategy"
    return Withheld(memory_id=record.memory_id, reasons=why) if why else None


def pattern_findings(pattern: FixPattern) -> str:
    """Why a recovery fix must not be remembered or applied ('' when it may): its new text values screened. A
    remembered fix is applied with no model in the loop, so a value that points a tool at an address or asks for
    a key must never become one."""
    values = [v for k, v in pattern.fixed.items()
              if isinstance(v, str) and v != GOAL and v != pattern.original.get(k)]
    return reasons([f for v in values for f in screen(v)])


class ScreenedRecords:
    """`record_withheld` remembered per record text, so a search does not screen the same records again; keyed
    by what the screen reads, an edit is screened anew. Bounded: past `limit` entries it starts over."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._seen: dict[tuple, Withheld | None] = {}

    def __call__(self, record: MemoryRecord) -> Withheld | None:
        fix = json.dumps(record.metadata.get("fix_pattern"), sort_keys=True, default=str) \
            if record.subcategory == ERROR_RECOVERY else ""
        key = (record.memory_id, record.content, record.subcategory, tuple(record.tags), record.own_words, fix)
        if key not in self._seen:
            if len(self._seen) >= self.limit:
                self._seen.clear()
            self._seen[key] = record_withheld(record)
        return self._seen[key]


def _word_runs(text: str, n: int) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def copies(text: str, answer: str, question: str = "", n: int = COPY_WORDS) -> bool:
    """Whether `text` repeats `n` consecutive words of `answer` that are not the question's own."""
    return bool((_word_runs(text, n) & _word_runs(answer, n)) - _word_runs(question, n))


def supported(text: str, evidence: list[str]) -> bool:
    """Whether the cited passages hold (nearly) every content word of `text`."""
    wanted = set(stems(text))
    if len(wanted) < MIN_SUPPORTED_WORDS:
        return False
    held = set(stems(" ".join(evidence)))
    return len(wanted & held) >= SUPPORT * len(wanted)


def subcategory(value: str) -> str:
    """A label word, as the prompt and the app print it: lower case, letters, digits and '_'."""
    return _SUBCATEGORY.sub("_", value.lower()).strip("_")[:64]


def vet(lessons: Lessons, digest: TaskDigest) -> tuple[list[Vetted], list[Withheld]]:
    kept: list[Vetted] = []
    refused: list[Withheld] = []
    for lesson in lessons.lessons:
        lesson = lesson.model_copy(update={"subcategory": subcategory(lesson.subcategory)})
        why = findings_of(lesson.content, lesson.subcategory, lesson.tags)
        if not why and copies(lesson.content, digest.answer, digest.question):
            why = "copies the answer"
        if why:
            refused.append(Withheld(reasons=why))
            continue
        provenance = (Provenance.DOCUMENT_SUPPORTED if supported(lesson.content, digest.evidence)
                      else Provenance.MODEL_DISTILLED)
        kept.append(Vetted(lesson, provenance))
    return kept, refused


def confirmed_text(question: str, answer: str) -> str | None:
    """What a liked answer leaves as a user-confirmed record: the question and the answer's sentences, less
    any sentence that screens as instruction-like (the user vouched for the answer, not for what a document
    slipped into it) and the task's node ids (they mean nothing in another task). None when nothing is left."""
    sentences = [s for s in split_sentences(without_citations(answer)) if not screen(s)]
    kept = " ".join(sentences)
    if not kept:
        return None
    if len(kept) > CONFIRMED_CHARS:
        kept = kept[: CONFIRMED_CHARS - 1] + "…"
    return f"Confirmed by the user: {' '.join(question.split())[:300]} -> {kept}"
