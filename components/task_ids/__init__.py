"""A zero-height component that keeps the ids of the tasks this browser created in its local storage.

Shared mode (`MEMORY_BANK_SHARED=1`) lists only those on the Tasks page: the server never hands one browser the
list of everybody's tasks, and a task not in the list opens only through its link.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import streamlit.components.v1 as components

FRONTEND = Path(__file__).resolve().parent / "frontend"


@functools.cache
def _component() -> Any:
    return components.declare_component("task_ids", path=str(FRONTEND))


def browser_task_ids(*, add: Sequence[str] = (), forget: Sequence[str] = (), known: Sequence[str] | None = None,
                     report: bool = True, key: str = "task-ids") -> list[str] | None:
    """The ids this browser remembers after adding `add` and dropping `forget`. The browser answers (with a full
    rerun) only when `report` is set and its list differs from `known`, the copy the caller already holds; until it
    has answered once this returns None.

    Why not always: a rerun the user did not cause, starting just as they pick a file on that page, loses the
    upload (Streamlit drops the upload URLs it was about to send), so pages that do not show the list ask for
    nothing."""
    value = _component()(add=list(add), forget=list(forget), known=None if known is None else list(known),
                         report=report, key=key, default=None)
    return [str(v) for v in value] if isinstance(value, list) else None
