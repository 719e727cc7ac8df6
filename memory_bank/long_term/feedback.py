"""Feedback that learns (seed 004 §6): a rating moves the reward and confidence of the records an answer used.

👍 is 5 and 👎 is 1 on the 1-5 scale; 3 changes nothing. Negative feedback lowers more than positive raises (one
bad answer outweighs one good one) and marks the records `needs_revision` until a person edits them. Rated answers
to the same question become preference pairs (chosen / rejected) for DPO-style training.
"""

from __future__ import annotations

import json
from typing import Literal

from .models import AnswerUse, MemoryRecord

Rating = int | bool | Literal["up", "down"]
RAISE_REWARD, LOWER_REWARD = 0.2, 0.35
RAISE_CONFIDENCE, LOWER_CONFIDENCE = 0.1, 0.25


def as_stars(rating: Rating) -> int:
    """👍 / 👎 (True / False, "up" / "down") or 1-5 -> 1-5."""
    if rating is True or rating == "up":
        return 5
    if rating is False or rating == "down":
        return 1
    if isinstance(rating, int) and 1 <= rating <= 5:
        return rating
    raise ValueError("a rating is 👍 / 👎 ('up' / 'down') or 1 to 5")


def apply_rating(record: MemoryRecord, stars: int, now: float) -> None:
    strength = (stars - 3) / 2  # -1 .. 1
    if strength > 0:
        record.reward = min(1.0, record.reward + RAISE_REWARD * strength)
        record.confidence = min(1.0, record.confidence + RAISE_CONFIDENCE * strength * (1 - record.confidence))
    elif strength < 0:
        record.reward = max(-1.0, record.reward + LOWER_REWARD * strength)
        record.confidence = max(0.0, record.confidence * (1 + LOWER_CONFIDENCE * strength))
        record.needs_revision = True
    record.updated_at = now


def preference_pairs(answers: list[AnswerUse]) -> list[dict[str, str]]:
    """For each question with a liked (4-5) and a disliked (1-2) answer: one pair per liked x disliked."""
    by_question: dict[str, list[AnswerUse]] = {}
    for a in answers:
        if a.rating is not None:
            by_question.setdefault(" ".join(a.question.split()).lower(), []).append(a)
    pairs = []
    for group in by_question.values():
        liked = [a for a in group if a.rating is not None and a.rating >= 4]
        disliked = [a for a in group if a.rating is not None and a.rating <= 2]
        for good in liked:
            for bad in disliked:
                pairs.append({"prompt": good.question, "chosen": good.answer, "rejected": bad.answer,
                              "chosen_id": good.answer_id, "rejected_id": bad.answer_id,
                              "rejected_reason": bad.reason})
    return pairs


def pairs_jsonl(pairs: list[dict[str, str]]) -> str:
    return "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs)
