"""Record vectors kept on disk beside the index, so opening a large long-term memory does not embed it again.

A cache, not part of the seed's layout: `{user}/.vectors/{model}-{dim}.f32` (rows of float32) and `.keys` (one
sha1 of the embedded text per row), both append-only and written under the store's lock. Anything inconsistent
(a crash between the two appends, another model) costs a recomputation, never a wrong vector: rows beyond the
keys are ignored and a file of the wrong size is dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

import numpy as np


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class VectorFile:
    def __init__(self, folder: Path, model: str, dim: int) -> None:
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", model)[:60] or "model"
        folder.mkdir(parents=True, exist_ok=True)
        self.rows = folder / f"{name}-{dim}.f32"
        self.keys = folder / f"{name}-{dim}.keys"
        self.dim = dim

    def load(self) -> dict[str, np.ndarray]:
        if not self.rows.is_file() or not self.keys.is_file():
            return {}
        keys = self.keys.read_text(encoding="ascii", errors="replace").split("\n")
        complete = [k for k in keys if len(k) == 40]
        data = np.fromfile(self.rows, dtype=np.float32)
        if data.size % self.dim:
            self.clear()
            return {}
        matrix = data.reshape(-1, self.dim)
        n = min(len(complete), len(matrix))
        return dict(zip(complete[:n], matrix[:n]))

    def append(self, keys: list[str], vectors: np.ndarray) -> None:
        """Rows first, then their keys: a crash in between leaves rows without keys, which `load` ignores."""
        have = len(self.load_keys())
        size = self.rows.stat().st_size if self.rows.exists() else 0
        if size > have * 4 * self.dim:  # rows without keys from an earlier crash: cut them off
            os.truncate(self.rows, have * 4 * self.dim)
        elif size < have * 4 * self.dim:  # keys without rows cannot be written in this order: start again
            self.clear()
        with open(self.rows, "ab") as handle:
            handle.write(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
        with open(self.keys, "a", encoding="ascii") as handle:
            handle.write("".join(f"{k}\n" for k in keys))

    def load_keys(self) -> list[str]:
        if not self.keys.is_file():
            return []
        return [k for k in self.keys.read_text(encoding="ascii", errors="replace").split("\n") if len(k) == 40]

    def clear(self) -> None:
        for path in (self.rows, self.keys):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
