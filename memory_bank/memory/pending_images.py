"""Images uploaded to a task that wait for an IMAGE_RECOGNITION task to describe them (DESIGN §4).

An uploaded image waits in the bank folder's `temp/` until it is described; then it moves to the bank's storage
(`BankFiles`, the files the bank keeps) and becomes an interaction entry with an image attachment, which names it
by its path inside the storage (see `bank_files`). The images guard themselves: the UI thread adds one while a
run's worker takes another.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from .bank_files import STORAGE, BankFiles
from .interaction_tree import new_id


@dataclass(frozen=True)
class TempImage:
    image_id: str
    name: str
    path: Path
    metadata: dict


class PendingImages:
    def __init__(self, files: BankFiles) -> None:
        """`files`: the bank's files, where a described image is kept and which remove every image file when the
        task ends."""
        self.files = files
        self.temp = files.root / "temp"
        self.storage = files.root / STORAGE
        self._pending: dict[str, TempImage] = {}
        self._lock = threading.Lock()

    def add_image(self, source: Path, name: str, metadata: dict) -> TempImage:
        self.files.mkdirs(self.temp)
        image_id = new_id()
        target = self.temp / f"{image_id}{source.suffix.lower()}"
        shutil.copyfile(source, target)
        self.files.track(target)
        image = TempImage(image_id, name, target, dict(metadata))
        with self._lock:
            self._pending[image_id] = image
        return image

    def pending(self) -> list[TempImage]:
        with self._lock:
            return list(self._pending.values())

    def get(self, image_id: str) -> TempImage:
        with self._lock:
            image = self._pending.get(image_id)
        if image is None:
            raise KeyError(f"no pending image {image_id!r}")
        return image

    def promote(self, image_id: str) -> str:
        """Move a described image from temp to storage; returns the storage path its attachment names."""
        with self._lock:
            image = self._pending.pop(image_id)
        relative = f"{STORAGE}/{image.path.name}"
        self.files.mkdirs(self.storage)
        target = self.storage / image.path.name
        shutil.move(str(image.path), target)
        self.files.track(target)
        return relative

    def discard(self, image_id: str) -> None:
        with self._lock:
            image = self._pending.pop(image_id, None)
        if image is not None:
            image.path.unlink(missing_ok=True)

    def clear(self) -> None:
        """None waits any more (the task ended; its files are removed with the bank's files)."""
        with self._lock:
            self._pending.clear()
