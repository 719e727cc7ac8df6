"""`LongTermMemory`: one user's memory across tasks (seed 004), beside the task memory bank.

Every change is a read-modify-write of `memory.json` under the store's lock, re-reading the file first when
another process wrote it, so two processes sharing a user never lose each other's records. The search index lives
in memory and follows the records.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import MemoryBankError
from ..limits import LOCAL_USER
from ..retrieval.embedding import Embedder
from ..settings import Settings
from . import feedback as fb
from .exchange import parse_export
from .index import Scored, SearchIndex, decay
from .injection import build_injection
from .markdown import record_markdown, split_front_matter
from .models import (
    REFLECTION,
    AnswerUse,
    Category,
    IndexFile,
    Injection,
    MemoryRecord,
    Provenance,
    Source,
    new_memory_id,
    provenance_of,
    reflection_ref,
)
from .routing import analyse_query
from .store import FileStore
from .vectors import VectorFile
from .vetting import ScreenedRecords, confirmed_text

DEFAULT_USER = LOCAL_USER
MAX_ANSWERS = 2_000
_INDEXED = ("content", "category", "subcategory", "tags")  # what the search index reads besides the numbers
EDITABLE = frozenset({"content", "category", "subcategory", "tags", "confidence", "reward", "needs_revision"})


class LongTermMemory:
    def __init__(self, storage_path: str | Path, user_id: str = DEFAULT_USER, *, embedder: Embedder | None = None,
                 half_life_days: float = 30.0, min_confidence: float = 0.2, budget_tokens: int = 400,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = FileStore(storage_path, user_id)
        self.user_id = self.store.user_id
        self.half_life_days = half_life_days
        self.min_confidence = min_confidence
        self.budget_tokens = budget_tokens
        self.clock = clock
        self._lock = threading.RLock()
        vectors = VectorFile(self.store.root / ".vectors", embedder.name, embedder.dim) if embedder else None
        self._index = SearchIndex(embedder, half_life_days, vectors)
        self._screened = ScreenedRecords()
        with self.store.locked():
            self._reload()

    @classmethod
    def from_settings(cls, settings: Settings, user_id: str = DEFAULT_USER,
                      embedder: Embedder | None = None) -> LongTermMemory:
        """The default place: `data_dir/long_term/`."""
        return cls(Path(settings.data_dir) / "long_term", user_id, embedder=embedder,
                   half_life_days=settings.long_term_half_life_days,
                   min_confidence=settings.long_term_min_confidence, budget_tokens=settings.long_term_budget_tokens)

    # -- reading ------------------------------------------------------------------------------------------

    def records(self, category: Category | str | None = None, tags: Iterable[str] = ()) -> list[MemoryRecord]:
        """Copies, newest first; `tags` must all be present."""
        self._sync()
        wanted = set(tags)
        with self._lock:
            found = [r.model_copy(deep=True) for r in self._data.records
                     if (category is None or r.category == category) and wanted <= set(r.tags)]
        return sorted(found, key=lambda r: -r.created_at)

    def get(self, memory_id: str) -> MemoryRecord:
        self._sync()
        with self._lock:
            return self._find(self._data, memory_id).model_copy(deep=True)

    def reflection(self, memory_id: str) -> str | None:
        """The L3 Markdown of a record (front matter included), if it has one."""
        return self.store.read_reflection(memory_id)

    def decay_of(self, record: MemoryRecord) -> float:
        return decay(self.clock() - record.last_touched, self.half_life_days)

    def answers(self) -> list[AnswerUse]:
        self._sync()
        with self._lock:
            return [a.model_copy() for a in self._data.answers]

    # -- search and injection -----------------------------------------------------------------------------

    def ranked(self, query: str, k: int = 20) -> list[Scored]:
        """The routed L2 subset for `query`, best first (scores as `search` ranks them)."""
        self._sync()
        analysis = analyse_query(query)
        with self._lock:
            return self._index.search(query, analysis.categories, self.clock(), k)

    def search(self, query: str, budget_tokens: int | None = None) -> Injection:
        """The <long_term> block for `query` within `budget_tokens`, and what it holds and why. No side effects:
        `mark_used` records that an injection was really used."""
        self._sync()
        analysis = analyse_query(query)
        with self._lock:
            hits = self._index.search(query, analysis.categories, self.clock())
            summaries = self._summaries
        return build_injection(query, analysis, hits, summaries, budget_tokens or self.budget_tokens, self._screened)

    def mark_used(self, memory_ids: Iterable[str]) -> None:
        ids = set(memory_ids)
        if not ids:
            return
        now = self.clock()

        def use(data: IndexFile) -> None:
            for r in data.records:
                if r.memory_id in ids:
                    r.access_count += 1
                    r.last_used_at = now

        self._mutate(use, mode="numbers")

    # -- writing ------------------------------------------------------------------------------------------

    def add(self, content: str, category: Category | str, *, source: Source | str, subcategory: str = "",
            tags: Iterable[str] = (), confidence: float = 0.6, reward: float = 0.0,
            provenance: Provenance | str | None = None, source_task: str | None = None,
            metadata: dict[str, Any] | None = None, markdown: str | None = None,
            title: str | None = None) -> MemoryRecord:
        """A new L2 record; with `markdown` (the body) or `title`, its L3 reflection beside it. `source` has no
        default: a record of unknown origin taken as the user's own words would be trusted as an instruction, so
        every caller says where its text comes from. `provenance` defaults to what `source` implies: the user's
        for what the user added, model-distilled otherwise."""
        now = self.clock()
        memory_id = new_memory_id(now)
        source = Source(source)
        record = MemoryRecord(memory_id=memory_id, category=Category(category), subcategory=subcategory,
                              tags=list(tags), content=" ".join(content.split()), confidence=confidence,
                              reward=reward, source=source, created_at=now, updated_at=now,
                              provenance=Provenance(provenance) if provenance else provenance_of(source),
                              source_task=source_task, metadata=metadata or {},
                              summary_md_ref=reflection_ref(memory_id) if markdown or title else None)
        if markdown is not None:
            self.store.write_reflection(memory_id, markdown)
        elif title is not None:
            self.store.write_reflection(memory_id, record_markdown(record, title))
        self._mutate(lambda data: data.records.append(record), mode="append")
        return record.model_copy(deep=True)

    def update(self, memory_id: str, **changes: Any) -> MemoryRecord:
        """Edit the fields a person may edit; an edit settles `needs_revision` unless it says otherwise. New
        content is the person's own words: the record becomes theirs (user-confirmed, typed by the user)."""
        unknown = set(changes) - EDITABLE
        if unknown:
            raise MemoryBankError(f"cannot edit {sorted(unknown)}; editable: {sorted(EDITABLE)}")

        def edit(data: IndexFile) -> MemoryRecord:
            record = self._find(data, memory_id)
            changes.setdefault("needs_revision", False)
            if "content" in changes and " ".join(str(changes["content"]).split()) != record.content:
                record.source, record.provenance = Source.USER_INPUT, Provenance.USER_CONFIRMED
            for key, value in changes.items():
                setattr(record, key, Category(value) if key == "category" else value)
            record.updated_at = self.clock()
            return record.model_copy(deep=True)

        return self._mutate(edit)

    def replace(self, record: MemoryRecord, markdown: str | None = None) -> None:
        """Store a changed copy of an existing record (and its reflection) as one write."""
        if markdown is not None:
            self.store.write_reflection(record.memory_id, markdown)

        def put(data: IndexFile) -> None:
            for i, r in enumerate(data.records):
                if r.memory_id == record.memory_id:
                    data.records[i] = record.model_copy(deep=True)
                    return
            raise MemoryBankError(f"no long-term record {record.memory_id}")

        current = self.get(record.memory_id)
        same_text = all(getattr(current, f) == getattr(record, f) for f in _INDEXED)
        self._mutate(put, mode="numbers" if same_text else "full")

    def delete(self, memory_id: str) -> None:
        def drop(data: IndexFile) -> None:
            data.records.remove(self._find(data, memory_id))

        self._mutate(drop)
        self.store.delete_reflection(memory_id)

    def cleanup(self) -> list[str]:
        """Forget strategies whose confidence, decayed since their last use, fell below the minimum."""
        now = self.clock()
        self._sync()
        if not any(self._forgettable(r, now) for r in self._data.records):
            return []

        def sweep(data: IndexFile) -> list[str]:
            gone = [r.memory_id for r in data.records if self._forgettable(r, now)]
            data.records = [r for r in data.records if r.memory_id not in gone]
            return gone

        removed = self._mutate(sweep)
        for memory_id in removed:
            self.store.delete_reflection(memory_id)
        return removed

    def _forgettable(self, record: MemoryRecord, now: float) -> bool:
        return (record.category is Category.STRATEGY and record.subcategory != REFLECTION
                and record.confidence * decay(now - record.last_touched, self.half_life_days) < self.min_confidence)

    # -- answers and feedback -----------------------------------------------------------------------------

    def record_answer(self, question: str, answer: str, memory_ids: Iterable[str], task_id: str | None = None) -> str:
        answer_id = f"ans_{uuid.uuid4().hex[:16]}"
        use = AnswerUse(answer_id=answer_id, question=question[:4_000], answer=answer[:20_000],
                        memory_ids=list(dict.fromkeys(memory_ids)), created_at=self.clock(), task_id=task_id)

        def keep(data: IndexFile) -> None:
            data.answers.append(use)
            del data.answers[: max(0, len(data.answers) - MAX_ANSWERS)]

        self._mutate(keep, mode="numbers")
        return answer_id

    def feedback(self, answer_id: str, rating: fb.Rating, reason: str = "") -> list[MemoryRecord]:
        """Rate an answer (👍/👎 or 1-5, with an optional reason); the records it used learn from it. A liked
        answer is a fact the user confirmed: it becomes a record of its own, less any sentence of it that reads as
        an instruction (`vetting.confirmed_text`). Returns the records changed."""
        stars = fb.as_stars(rating)
        now = self.clock()

        def rate(data: IndexFile) -> tuple[list[MemoryRecord], AnswerUse, bool]:
            use = next((a for a in data.answers if a.answer_id == answer_id), None)
            if use is None:
                raise MemoryBankError(f"no answer {answer_id} in long-term memory")
            newly_liked = stars >= 4 and (use.rating is None or use.rating < 4)
            use.rating, use.reason = stars, reason[:2_000]
            changed = []
            for r in data.records:
                if r.memory_id in use.memory_ids:
                    fb.apply_rating(r, stars, now)
                    changed.append(r.model_copy(deep=True))
            return changed, use.model_copy(), newly_liked

        changed, use, newly_liked = self._mutate(rate, mode="numbers")
        confirmed = confirmed_text(use.question, use.answer) if newly_liked else None
        if confirmed:
            self.add(confirmed, Category.WORK, subcategory="confirmed_fact", tags=["confirmed"], confidence=0.8,
                     reward=0.5, source=Source.USER_FEEDBACK, provenance=Provenance.USER_CONFIRMED,
                     source_task=use.task_id, title="Fact the user confirmed")
        return changed

    def feedback_pairs(self) -> list[dict[str, str]]:
        return fb.preference_pairs(self.answers())

    def feedback_jsonl(self) -> str:
        """Preference pairs as JSONL (`prompt`, `chosen`, `rejected`), for DPO-style training."""
        return fb.pairs_jsonl(self.feedback_pairs())

    # -- L3 reflections -----------------------------------------------------------------------------------

    def reflect(self, category: Category | str) -> MemoryRecord | None:
        """Write (or rewrite) the category's L3 summary (see `reflect.py`); None when it has nothing to summarise."""
        from .reflect import reflect

        return reflect(self, category)

    # -- export / import ----------------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The index and every reflection's Markdown, as one JSON-ready document."""
        self._sync()
        with self._lock:
            data = self._data.model_dump(mode="json")
        data["reflections"] = {r["memory_id"]: self.reflection(r["memory_id"]) for r in data["records"]
                               if r.get("summary_md_ref")}
        return data

    def import_data(self, data: dict[str, Any]) -> int:
        """Add an export's records (and reflections) that are not here yet; returns how many. The export is
        validated whole first: a bad one changes nothing (`exchange.py`)."""
        incoming, reflections = parse_export(data, self.user_id)

        def merge(index: IndexFile) -> list[MemoryRecord]:
            have = {r.memory_id for r in index.records}
            new = [r for r in incoming.records if r.memory_id not in have]
            index.records.extend(new)
            known = {a.answer_id for a in index.answers}
            index.answers.extend(a for a in incoming.answers if a.answer_id not in known)
            return new

        new = self._mutate(merge, mode="append")
        for r in new:
            text = reflections.get(r.memory_id)
            if r.summary_md_ref and isinstance(text, str):
                self.store.write_reflection(r.memory_id, text)
        return len(new)

    # -- internals ----------------------------------------------------------------------------------------

    @staticmethod
    def _find(data: IndexFile, memory_id: str) -> MemoryRecord:
        for r in data.records:
            if r.memory_id == memory_id:
                return r
        raise MemoryBankError(f"no long-term record {memory_id}")

    def _sync(self) -> None:
        """Pick up another process's writes."""
        if self.store.changed_on_disk():
            with self._lock, self.store.locked():
                self._reload()

    def _reload(self) -> None:
        self._data = self.store.load()
        self._index.rebuild(self._data.records)
        self._summaries = _summaries(self._data)

    def _mutate(self, change: Callable[[IndexFile], Any], mode: str = "full") -> Any:
        """Apply `change` to the records and save them, under the lock. `mode` says what the index must redo:
        "append" (records were only added at the end), "numbers" (only weights and counts changed) or "full".
        The file on disk is the truth: a change that cannot be saved is undone by reading it back."""
        with self._lock, self.store.locked():
            if self.store.changed_on_disk():
                self._reload()
            before = len(self._data.records)
            try:
                result = change(self._data)
                self.store.save(self._data)
            except BaseException:
                self._reload()
                raise
            if mode == "append" and all(r.subcategory != REFLECTION for r in self._data.records[before:]):
                self._index.append(self._data.records[before:])
            elif mode == "numbers":
                self._index.refresh(self._data.records)
            else:
                self._index.rebuild(self._data.records)
            self._summaries = _summaries(self._data)
        return result


def _summaries(data: IndexFile) -> dict[Category, MemoryRecord]:
    """Each category's reflection record: what stands in for its records over budget."""
    return {r.category: r for r in data.records if r.subcategory == REFLECTION}


def reflection_body(markdown: str) -> str:
    """The Markdown without its front matter (what the app renders)."""
    return split_front_matter(markdown)[1]
