"""Content-addressed file storage: a file's bytes live once, at `root/ab/abcdef…` named by their sha256.

The database says which tasks use which content (`task_files`); the store deletes the bytes when the last task
using them goes. Names never come from the user: the only path component is the hex digest.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

CHUNK = 1 << 20


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


class FileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, sha256: str) -> Path:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise ValueError("not a sha256 hex digest")
        return self.root / sha256[:2] / sha256

    def put(self, source: Path, sha: str) -> int:
        """Copy `source`, whose digest is `sha`, in (once per content); returns its size. The copy lands under a
        temp name and is renamed, so a crash never leaves a half file under a real digest."""
        target = self.path(sha)
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
            os.close(fd)
            try:
                shutil.copyfile(source, tmp)
                os.replace(tmp, target)
            finally:
                Path(tmp).unlink(missing_ok=True)
        return target.stat().st_size

    def delete(self, sha256: str) -> None:
        target = self.path(sha256)
        target.unlink(missing_ok=True)
        try:
            target.parent.rmdir()
        except OSError:
            pass  # other files share the folder

    def stored(self) -> set[str]:
        """Every digest on disk (for checks: nothing orphaned)."""
        if not self.root.is_dir():
            return set()
        return {p.name for p in self.root.glob("??/*") if p.is_file() and not p.name.startswith(".")}
