"""Offline image recognition: Tesseract OCR when the binary is installed, the image's metadata otherwise.

Without a vision model the engine can only read text in an image. When OCR finds none, or Tesseract is not
installed, the image is still stored with what is known about it, and the description says plainly that
describing its content needs a vision LLM, so the UI can show it.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from ...errors import InputError
from ...text.tokens import tokenize
from ..models import ImageDescription, ImageInput
from .nlp import Idf, keyphrases

NEEDS_VISION = "Describing what the image shows needs a vision LLM (configure the LLM engine with a vision model)."


@dataclass(frozen=True)
class OcrConfig:
    """`min_chars`: OCR output shorter than this (after cleaning) is noise, not text; `language`: Tesseract's."""

    min_chars: int = 12
    language: str = "eng"
    max_chars: int = 20_000


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


class OfflineRecognizer:
    name = "recognizer"

    def __init__(self, config: OcrConfig | None = None, use_ocr: bool | None = None) -> None:
        self.config = config or OcrConfig()
        self.use_ocr = tesseract_available() if use_ocr is None else use_ocr

    def run(self, inp: ImageInput) -> ImageDescription:
        path = Path(inp.path)
        try:
            with Image.open(path) as img:
                img.load()
                meta = f"{img.format or 'image'} {img.width}x{img.height} {img.mode}"
                text = self._ocr(img) if self.use_ocr else ""
        except OSError as exc:
            raise InputError(f"cannot read image {inp.name}: {exc}") from exc
        if text:
            keywords = keyphrases(text, Idf([tokenize(text)]), 8)
            return ImageDescription(description=f"Text in image {inp.name} ({meta}), read by OCR: {text}",
                                    keywords=keywords, method="ocr")
        why = "OCR found no text. " if self.use_ocr else "Tesseract OCR is not installed. "
        return ImageDescription(description=f"Image {inp.name} ({meta}). {why}{NEEDS_VISION}",
                                keywords=[w for w in tokenize(path.stem)][:5], method="metadata")

    def _ocr(self, img: Image.Image) -> str:
        import pytesseract

        try:
            raw = pytesseract.image_to_string(img.convert("RGB"), lang=self.config.language)
        except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError) as exc:
            raise InputError(f"Tesseract OCR failed: {exc}") from exc
        text = " ".join(raw.split())[: self.config.max_chars]
        letters = sum(c.isalnum() for c in text)
        return text if letters >= self.config.min_chars else ""
