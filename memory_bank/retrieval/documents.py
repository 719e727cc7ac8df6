"""Page text of attached documents for deep retrieval, parsed once per task (deep retrieval reads it often)."""

from __future__ import annotations

import threading

from ..errors import InputError
from ..loaders import Document, load_file


class DocumentPages:
    def __init__(self, max_bytes: int, max_image_pixels: int) -> None:
        self._max_bytes = max_bytes
        self._max_image_pixels = max_image_pixels
        self._documents: dict[str, Document] = {}
        self._lock = threading.Lock()

    def read(self, path: str, page_start: int | None, page_end: int | None) -> str:
        """The text of pages `page_start..page_end` (all pages without a range); a file that cannot be read
        raises `ValueError`, which deep retrieval shows as an unreadable attachment."""
        with self._lock:
            doc = self._documents.get(path)
        if doc is None:
            try:
                doc = load_file(path, max_bytes=self._max_bytes, max_image_pixels=self._max_image_pixels)
            except InputError as exc:
                raise ValueError(str(exc)) from exc
            with self._lock:
                self._documents[path] = doc
        pages = [p for p in doc.pages if page_start is None or p.number is None
                 or page_start <= p.number <= (page_end or page_start)]
        return "\n\n".join(p.text for p in pages)

    def clear(self) -> None:
        with self._lock:
            self._documents.clear()
