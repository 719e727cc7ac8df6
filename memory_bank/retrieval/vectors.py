"""What every embedding runtime shares: the vector size, token vectors, normalising, and file checksums."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DIM = 384


@dataclass(frozen=True)
class TokenVectors:
    """A text's word pieces (lower-cased, no special tokens) and one L2-normalised contextual vector each."""

    pieces: tuple[str, ...]
    vectors: np.ndarray  # (len(pieces), dim) float32


def normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
