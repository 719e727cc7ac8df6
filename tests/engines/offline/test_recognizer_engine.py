"""Offline image recognition (Tesseract OCR on an image rendered here; metadata without it) and the engine
bundle's identity."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from memory_bank import Settings
from memory_bank.engines.models import ImageInput
from memory_bank.engines.offline.engine import build_offline_engine
from memory_bank.engines.offline.recognizer import NEEDS_VISION, OfflineRecognizer, tesseract_available


def render(path, text: str) -> None:  # noqa: ANN001
    img = Image.new("RGB", (900, 160), "white")
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=40)
    except TypeError:  # Pillow < 10.1 has no sized default font
        font = ImageFont.load_default()
    draw.text((20, 50), text, fill="black", font=font)
    img.save(path)


@pytest.mark.skipif(not tesseract_available(), reason="the tesseract binary is not installed (apt tesseract-ocr)")
def test_ocr_reads_rendered_text(tmp_path) -> None:
    path = tmp_path / "sign.png"
    render(path, "Zero Trust Architecture 2020")
    desc = OfflineRecognizer().run(ImageInput(path=str(path), name="sign.png"))
    assert desc.method == "ocr"
    assert "Zero Trust Architecture" in desc.description and "2020" in desc.description


def test_without_ocr_the_image_is_described_by_metadata(tmp_path) -> None:
    path = tmp_path / "photo.png"
    Image.new("RGB", (64, 48), "navy").save(path)
    desc = OfflineRecognizer(use_ocr=False).run(ImageInput(path=str(path), name="photo.png"))
    assert desc.method == "metadata"
    assert "64x48" in desc.description and NEEDS_VISION in desc.description


def test_engine_is_labelled_offline(embedder) -> None:
    engine = build_offline_engine(Settings(engine="offline"), embedder, view=None)  # type: ignore[arg-type]
    assert engine.name == "offline" and not engine.uses_llm
    assert engine.label == "Offline engine (classical NLP, no LLM)"
