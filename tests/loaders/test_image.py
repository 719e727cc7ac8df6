from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from memory_bank.errors import InputError
from memory_bank.loaders import load_file


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb_png(width: int, height: int) -> bytes:
    """A few hundred bytes declaring a gigantic 1-bit image whose rows are all zero."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (1 + (width + 7) // 8) * 16, 9)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", rows) + png_chunk(b"IEND", b"")


def test_image_metadata(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    Image.new("RGB", (320, 200), color=(10, 120, 200)).save(path, format="JPEG")
    doc = load_file(path, max_bytes=1_000_000, max_image_pixels=1_000_000)
    assert doc.kind == "image"
    assert doc.pages == []
    assert doc.metadata == {
        "width": 320, "height": 200, "format": "JPEG", "mode": "RGB", "mime": "image/jpeg", "frames": 1,
    }


def test_a_large_blank_image_over_the_pixel_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "blank.png"
    Image.new("1", (4000, 3000)).save(path, optimize=True)
    assert path.stat().st_size < 100_000  # tiny on disk, 12 million pixels decoded
    with pytest.raises(InputError, match=r"blank\.png: is too large to decode safely: 4000×3000"):
        load_file(path, max_bytes=1_000_000, max_image_pixels=1_000_000)


def test_a_decompression_bomb_is_refused_without_touching_pillows_global_limit(tmp_path: Path) -> None:
    before = Image.MAX_IMAGE_PIXELS
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb_png(100_000, 100_000))
    with pytest.raises(InputError, match=r"bomb\.png: is too large to decode safely"):
        load_file(path, max_bytes=1_000_000, max_image_pixels=40_000_000)
    assert Image.MAX_IMAGE_PIXELS == before


def test_a_bomb_under_pillows_limit_is_refused_by_ours(tmp_path: Path) -> None:
    path = tmp_path / "wide.png"
    path.write_bytes(bomb_png(20_000, 2_000))  # 40 M pixels: Pillow alone would accept it
    with pytest.raises(InputError, match=r"20000×2000 = 40,000,000 pixels \(the limit is 1,000,000\)"):
        load_file(path, max_bytes=1_000_000, max_image_pixels=1_000_000)


def test_a_damaged_png_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.png"
    Image.new("RGB", (50, 50), color=(255, 0, 0)).save(good)
    data = bytearray(good.read_bytes())
    data[45] ^= 0xFF  # inside the IDAT data (IDAT starts at byte 33): its checksum no longer matches
    broken = tmp_path / "broken.png"
    broken.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"broken\.png: is a damaged image"):
        load_file(broken, max_bytes=1_000_000, max_image_pixels=1_000_000)


def test_text_with_an_image_suffix_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fake.png"
    path.write_text("not an image")
    with pytest.raises(InputError, match=r"fake\.png: is not a readable image"):
        load_file(path, max_bytes=1_000_000, max_image_pixels=1_000_000)
