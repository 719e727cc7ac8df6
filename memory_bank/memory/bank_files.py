"""The bank's own file storage, the only place an attachment may point into.

An attachment names its file by a path relative to the bank's folder (`storage/<id>/<name>`), never an absolute
path: an imported export is untrusted, and a path it names must not make deep retrieval read `/etc/passwd`,
`/proc/self/environ` or a FIFO and hand it to the UI and the LLM. So every read goes through `open_path`, which
accepts only a relative path under `storage/`, with no `..`, resolving inside the folder (no symlink out), to a
regular file (no FIFO, device or socket) within a size cap; the read itself is capped in bytes and never blocks.
Files the bank uses are copied in: an ingested document when it is ingested, an imported export's files from a
folder the caller trusts. The store removes only what it created.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import threading
from pathlib import Path, PurePosixPath

from ..text.escape import safe_name

STORAGE = "storage"
MAX_FILE_BYTES = 200 * 1024 * 1024  # an attachment is a file the bank copied in, under the upload limit
_SAFE_PART = re.compile(r"^[\w][\w.\- ]{0,119}$")


class FileRejected(ValueError):
    """A path the bank will not read: outside its storage, not a regular file, or too large."""


def relative_parts(path: str) -> tuple[str, ...]:
    """The components of a storage path, or `FileRejected` when it could name anything outside the storage."""
    if not isinstance(path, str) or not path or "\\" in path or "\x00" in path or len(path) > 400:
        raise FileRejected("not a path inside the bank's storage")
    parts = PurePosixPath(path).parts
    if PurePosixPath(path).is_absolute() or len(parts) < 2 or parts[0] != STORAGE:
        raise FileRejected("not a path inside the bank's storage")
    if not all(_SAFE_PART.fullmatch(p) and p not in (".", "..") for p in parts[1:]):
        raise FileRejected("not a path inside the bank's storage")
    return parts


def checked_file(root: Path, path: str, max_bytes: int = MAX_FILE_BYTES) -> Path:
    """The file `path` names under `root`, after every check; `FileRejected` otherwise."""
    full = root.joinpath(*relative_parts(path))
    base = (root / STORAGE).resolve()
    try:
        info = os.lstat(full)
        real = full.resolve(strict=True)
    except OSError as exc:
        raise FileRejected(f"not in this bank's storage ({exc.strerror or exc})") from exc
    if not real.is_relative_to(base):
        raise FileRejected("resolves outside the bank's storage")
    if not stat.S_ISREG(info.st_mode):
        raise FileRejected("is not a regular file")
    if info.st_size > max_bytes:
        raise FileRejected(f"is larger than {max_bytes // (1024 * 1024)} MB")
    return full


def read_capped(path: Path, max_bytes: int) -> bytes:
    """At most `max_bytes` of a regular file, opened without following a symlink and without blocking."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRejected("is not a regular file")
        chunks, left = [], max_bytes
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


class BankFiles:
    """The files of one bank under `root/storage`; remembers what it created so `clear()` removes only that."""

    def __init__(self, root: Path, owned: bool = False) -> None:
        """`owned`: the bank made `root` itself (a fresh temp folder, a stored task's folder), so `clear()`
        removes it too."""
        self.root = root
        self._created: list[Path] = [root] if owned else []
        self._lock = threading.Lock()

    def mkdirs(self, folder: Path) -> None:
        missing = [p for p in (folder, *folder.parents) if not p.exists()]
        folder.mkdir(parents=True, exist_ok=True)
        with self._lock:
            self._created.extend(reversed(missing))

    def adopt(self, source: Path, file_id: str, name: str) -> str:
        """Copy `source` into the storage; returns the relative path an attachment names."""
        relative = f"{STORAGE}/{file_id}/{safe_name(name)}"
        target = self.root.joinpath(*relative_parts(relative))
        self.mkdirs(target.parent)
        try:  # a stored task's input is already in the store: a hard link keeps one copy on disk
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)
        self.track(target)
        return relative

    def copy_from(self, other_root: Path, path: str) -> bool:
        """Copy the file `path` names from another bank's folder into this one under the same path (an import
        from a folder the caller trusts); False when it is not there or fails a check."""
        try:
            source = checked_file(other_root, path)
        except FileRejected:
            return False
        target = self.root.joinpath(*relative_parts(path))
        if target.exists():
            return True
        self.mkdirs(target.parent)
        target.write_bytes(read_capped(source, MAX_FILE_BYTES))
        self.track(target)
        return True

    def track(self, path: Path) -> None:
        with self._lock:
            self._created.append(path)

    def path_of(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> Path:
        return checked_file(self.root, path, max_bytes)

    def read(self, path: str, max_bytes: int) -> bytes:
        return read_capped(self.path_of(path), max_bytes)

    def clear(self) -> None:
        """Remove what this store created (files, then its folders when empty), nothing else."""
        with self._lock:
            created, self._created = self._created, []
        for path in reversed(created):
            if not path.is_dir() or path.is_symlink():
                path.unlink(missing_ok=True)
            elif not any(path.iterdir()):  # a folder holding files the bank did not create stays, with them
                path.rmdir()
