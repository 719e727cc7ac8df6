from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.errors import InputError
from memory_bank.loaders import load_file, sniff, supported_suffixes

LIMITS = {"max_bytes": 1_000, "max_image_pixels": 1_000_000}


def test_supported_suffixes() -> None:
    assert {".pdf", ".txt", ".md", ".markdown", ".html", ".htm", ".png", ".jpg", ".jpeg"} <= supported_suffixes()


def test_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(InputError, match=r"^empty\.pdf: is empty \(0 bytes\)$") as caught:
        load_file(path, **LIMITS)
    assert caught.value.source == "empty.pdf"


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 1_001)
    with pytest.raises(InputError, match=r"big\.txt: is too large \(1\.0 kB; the limit is 1\.0 kB\)"):
        load_file(path, **LIMITS)


def test_file_at_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "exact.txt"
    path.write_bytes(b"x" * 1_000)
    assert load_file(path, **LIMITS).pages[0].text == "x" * 1_000


def test_unknown_type_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.xlsx"
    path.write_bytes(b"PK\x03\x04 zipped spreadsheet")
    with pytest.raises(InputError, match=r"table\.xlsx: has an unsupported file type \(supported: .*\.pdf"):
        load_file(path, **LIMITS)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nowhere\.pdf: file not found"):
        load_file(tmp_path / "nowhere.pdf", **LIMITS)


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"folder\.txt: is not a regular file"):
        load_file((tmp_path / "folder.txt").mkdir() or tmp_path / "folder.txt", **LIMITS)


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"%PDF-1.7\n", "pdf"),
        (b"\xef\xbb\xbfjunk before %PDF-1.4", "pdf"),
        (b"\x89PNG\r\n\x1a\n....", "image"),
        (b"\xff\xd8\xff\xe0", "image"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image"),
        (b"\n <!DOCTYPE HTML>", "html"),
        (b"BM plain text that starts like a bitmap", None),
        (b"just words", None),
    ],
)
def test_sniff(head: bytes, kind: str | None) -> None:
    assert sniff(head) == kind
