"""Driver and disk errors become one `StoreError` naming the store and what was being done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import SQLAlchemyError

from ..errors import StoreError
from .migrations import _reason


@contextmanager
def guard(where: str, what: str) -> Iterator[None]:
    try:
        yield
    except SQLAlchemyError as exc:
        raise StoreError(f"task store {where}: {what} failed: {_reason(exc)}") from exc
    except OSError as exc:  # the files beside the rows: a full disk, a folder made read-only
        raise StoreError(f"task store {where}: {what} failed: {exc.strerror or exc}") from exc
