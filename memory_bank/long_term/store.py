"""The long-term memory on disk, laid out as seed 004 §8.1 shows it:

    {storage}/{user_id}/memory.json                   the L2 index
    {storage}/{user_id}/reflections/{memory_id}.md    the L3 reflections

Every write is atomic (a temp file in the same folder, fsync, `os.replace`) and made under an exclusive
`fcntl.flock` on `{user_id}/.lock`, so two processes (two app tabs, the CLI) never interleave and a crash leaves
either the old file or the new one. A temp file a crash left behind is ignored and removed. An index that cannot
be read is never overwritten: it is copied aside and the error says where, so nothing a person wrote is lost.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from ..errors import LongTermStoreError
from ..limits import USER_ID_PATTERN
from .models import MEMORY_ID, VERSION, IndexFile

USER_ID = re.compile(USER_ID_PATTERN)
INDEX = "memory.json"
REFLECTIONS = "reflections"
TMP_PREFIX = ".tmp-"
MAX_INDEX_BYTES = 64 * 1024 * 1024
MAX_REFLECTION_BYTES = 256 * 1024


def check_user_id(user_id: str) -> str:
    """A user id names a folder: letters, digits, '_' and '-' only, never a path."""
    if not isinstance(user_id, str) or not USER_ID.fullmatch(user_id):  # in full: "local\n" matched `^…$`
        raise LongTermStoreError("a user id is 1-64 letters, digits, '_' or '-', starting with a letter or digit")
    return user_id


def _check_memory_id(memory_id: str) -> str:
    if not isinstance(memory_id, str) or not MEMORY_ID.fullmatch(memory_id):
        raise LongTermStoreError(f"not a memory id: {memory_id[:40]!r}")
    return memory_id


def atomic_write(path: Path, data: str) -> None:
    """Write `data` to `path` so that a reader sees the old or the new content, never a part."""
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + path.name + ".", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


class FileStore:
    """One user's files. Callers hold `locked()` around a read-modify-write."""

    def __init__(self, storage: str | Path, user_id: str) -> None:
        self.user_id = check_user_id(user_id)
        self.root = Path(storage) / self.user_id
        self.index_path = self.root / INDEX
        self.reflections = self.root / REFLECTIONS
        self.reflections.mkdir(parents=True, exist_ok=True)
        self._thread_lock = threading.RLock()
        self._seen: tuple[int, int] | None = None

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        with self._thread_lock, open(self.root / ".lock", "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def changed_on_disk(self) -> bool:
        """Whether another process wrote the index since this one last read or wrote it."""
        return self._stamp() != self._seen

    def _stamp(self) -> tuple[int, int] | None:
        try:
            stat = self.index_path.stat()
        except FileNotFoundError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def load(self) -> IndexFile:
        self._remove_stale_temps()
        if not self.index_path.exists():
            self._seen = None
            return IndexFile(user_id=self.user_id)
        if self.index_path.stat().st_size > MAX_INDEX_BYTES:
            raise self._corrupt(f"it is larger than {MAX_INDEX_BYTES // (1024 * 1024)} MB")
        try:
            index = IndexFile.model_validate(json.loads(self.index_path.read_text(encoding="utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._corrupt(f"it is not valid JSON ({exc})") from None
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "(top level)"
            raise self._corrupt(f"{where}: {first['msg']}") from None
        if index.user_id != self.user_id:
            raise self._corrupt(f"it belongs to user {index.user_id!r}")
        self._seen = self._stamp()
        return index

    def _corrupt(self, why: str) -> LongTermStoreError:
        backup = self.root / f"{INDEX}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
        if not backup.exists():
            shutil.copy2(self.index_path, backup)
        return LongTermStoreError(f"the long-term memory index {self.index_path} cannot be read: {why}. It was "
                                  f"left as it is and copied to {backup.name}; fix or remove it to go on.")

    def _remove_stale_temps(self) -> None:
        for folder in (self.root, self.reflections):
            for tmp in folder.glob(TMP_PREFIX + "*"):
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()

    def save(self, index: IndexFile) -> None:
        index.version = VERSION  # a version 1 file, once read, is written in this version's form
        atomic_write(self.index_path, index.model_dump_json(indent=1))
        self._seen = self._stamp()

    # -- L3 reflections -----------------------------------------------------------------------------------

    def reflection_path(self, memory_id: str) -> Path:
        return self.reflections / f"{_check_memory_id(memory_id)}.md"

    def write_reflection(self, memory_id: str, text: str) -> None:
        if len(text.encode("utf-8")) > MAX_REFLECTION_BYTES:
            raise LongTermStoreError(f"reflection {memory_id} is larger than {MAX_REFLECTION_BYTES} bytes")
        atomic_write(self.reflection_path(memory_id), text)

    def read_reflection(self, memory_id: str) -> str | None:
        path = self.reflection_path(memory_id)
        if not path.is_file():
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(MAX_REFLECTION_BYTES)

    def delete_reflection(self, memory_id: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.reflection_path(memory_id).unlink()
