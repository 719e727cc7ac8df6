"""Reading a long-term memory export (the other side of `LongTermMemory.export`).

An export may come from anywhere, so it is validated whole before anything changes, and nothing in it is taken as
the user's own words: a record that says the user typed it becomes `imported`, so what it asks of an assistant is
screened as strictly as document text (`vetting.record_withheld`). Its provenance label is kept as information.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..errors import ImportFormatError
from .models import IndexFile, Source


def parse_export(data: Any, user_id: str) -> tuple[IndexFile, dict[str, str | None]]:
    """The export's index (as `user_id`'s) and its reflections' Markdown by memory id; `ImportFormatError`
    names the first thing wrong."""
    if not isinstance(data, dict):
        raise ImportFormatError("a long-term memory export is a JSON object")
    reflections = data.get("reflections") or {}
    try:
        incoming = IndexFile.model_validate({**{k: v for k, v in data.items() if k != "reflections"},
                                             "user_id": user_id})
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise ImportFormatError(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    if not isinstance(reflections, dict) or not all(isinstance(v, str | None) for v in reflections.values()):
        raise ImportFormatError("reflections: an object of memory id -> Markdown text")
    for record in incoming.records:
        if record.source is Source.USER_INPUT:
            record.source = Source.IMPORTED
    return incoming, reflections
