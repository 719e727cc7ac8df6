"""The field types an imported export is held to: an export is untrusted input.

Every id has a fixed charset and length (ids reach the agent's prompt and the UI unquoted), every string a length
(its content is escaped wherever it is shown or prompted, as document text is), every number is finite and within
a plausible range (a NaN
timestamp broke the graph panel; a NaN embedding made the next export invalid JSON), pages are whole numbers,
and free-form JSON (entry metadata, the run log, settings) is bounded in depth, size and content. Pydantic
reports a violation with the field's location, which the importer turns into an `ImportFormatError`.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

from ..limits import (
    ID_PATTERN,
    MAX_BODY,
    MAX_ITEMS,
    MAX_JSON_DEPTH,
    MAX_JSON_ITEMS,
    MAX_JSON_KEY,
    MAX_LINE,
    MAX_NAME,
    MAX_PAGE,
    MAX_PRINTED,
    MAX_URL,
)

__all__ = ["MAX_ITEMS", "Body", "Count", "Embedding", "Id", "JsonObject", "Line", "Metadata", "Name", "Page",
           "Printed", "Timestamp", "Url", "bounded_json", "entry_metadata"]

MAX_JSON_STRING = MAX_BODY
MAX_TIMESTAMP = 1e11  # the year 5138: anything later is not a real clock reading
MAX_EMBEDDING_DIM = 8_192
MAX_EMBEDDING_VALUE = 1e3

Id = Annotated[str, StringConstraints(pattern=f"^{ID_PATTERN}$")]  # pydantic's regex: `$` ends the text
Name = Annotated[str, StringConstraints(max_length=MAX_NAME)]
Url = Annotated[str, StringConstraints(max_length=MAX_URL)]
Line = Annotated[str, StringConstraints(max_length=MAX_LINE)]
Body = Annotated[str, StringConstraints(max_length=MAX_BODY)]
Printed = Annotated[str, StringConstraints(max_length=MAX_PRINTED)]
Timestamp = Annotated[float, Field(ge=0, le=MAX_TIMESTAMP, allow_inf_nan=False)]
Page = Annotated[int, Field(strict=True, ge=0, le=MAX_PAGE)]
Count = Annotated[float, Field(ge=0, le=1e15, allow_inf_nan=False)]
EmbeddingValue = Annotated[float, Field(ge=-MAX_EMBEDDING_VALUE, le=MAX_EMBEDDING_VALUE, allow_inf_nan=False)]
Embedding = Annotated[list[EmbeddingValue], Field(min_length=1, max_length=MAX_EMBEDDING_DIM)]


def bounded_json(value: Any, depth: int = 0) -> Any:
    """Plain JSON only, at most MAX_JSON_DEPTH deep, with finite numbers and bounded strings and containers."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > 2**63:
            raise ValueError("holds a number out of range")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("holds a number that is not finite")
        return value
    if isinstance(value, str):
        if len(value) > MAX_JSON_STRING:
            raise ValueError("holds a string that is too long")
        return value
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_JSON_ITEMS:
            raise ValueError("holds a list that is too long")
        return [bounded_json(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if len(value) > MAX_JSON_ITEMS:
            raise ValueError("holds an object with too many keys")
        for key in value:
            if not isinstance(key, (str, int)) or len(str(key)) > MAX_JSON_KEY:  # int keys: JSON makes them strings
                raise ValueError("holds a key that is not a short string")
        return {k: bounded_json(v, depth + 1) for k, v in value.items()}
    raise ValueError(f"holds a {type(value).__name__}, not JSON")


_PAGE_KEYS = ("page_start", "page_end")
_PRINTED_KEYS = ("printed_start", "printed_end")


def entry_metadata(value: dict[str, Any]) -> dict[str, Any]:
    """An entry's metadata: bounded JSON, and the keys the bank reads back typed (pages are read as numbers)."""
    value = bounded_json(value)
    for key in _PAGE_KEYS:
        page = value.get(key)
        if page is not None and (type(page) is not int or not 0 <= page <= MAX_PAGE):
            raise ValueError(f"{key} must be a whole page number or null")
    for key in _PRINTED_KEYS:
        label = value.get(key)
        if label is not None and (not isinstance(label, str) or len(label) > MAX_PRINTED):
            raise ValueError(f"{key} must be a short printed page label or null")
    return value


JsonObject = Annotated[dict[str, Any], AfterValidator(bounded_json)]
Metadata = Annotated[dict[str, Any], AfterValidator(entry_metadata)]
