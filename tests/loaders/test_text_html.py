from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from memory_bank.errors import InputError
from memory_bank.loaders import load_file

LIMITS = {"max_bytes": 1_000_000, "max_image_pixels": 1_000_000}
TEXT = "Café crème à la française.\n\nSecond paragraph: naïve résumé."


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
        (TEXT.encode("utf-16"), "utf-16"),  # with BOM
        (TEXT.encode("utf-16-be"), "utf-16-be"),  # without BOM
        (TEXT.encode("latin-1"), "cp1252"),  # the Windows superset of Latin-1 reads it identically
    ],
)
def test_text_encodings_are_detected(tmp_path: Path, data: bytes, encoding: str) -> None:
    doc = load_file(write(tmp_path, "notes.txt", data), **LIMITS)
    assert doc.kind == "text"
    assert doc.pages[0].number is None
    assert doc.pages[0].text == TEXT
    assert doc.metadata["encoding"] == encoding


def test_bytes_undefined_in_windows_1252_fall_back_to_latin_1(tmp_path: Path) -> None:
    doc = load_file(write(tmp_path, "old.txt", "price: 10 ¤\x81".encode("latin-1")), **LIMITS)
    assert doc.metadata["encoding"] == "latin-1"
    assert doc.pages[0].text.startswith("price: 10 ¤")


def test_windows_smart_quotes_are_read_as_cp1252(tmp_path: Path) -> None:
    doc = load_file(write(tmp_path, "win.txt", "“quoted” – dash".encode("cp1252")), **LIMITS)
    assert doc.pages[0].text == "“quoted” – dash"


def test_text_newlines_and_blank_runs_are_normalised(tmp_path: Path) -> None:
    doc = load_file(write(tmp_path, "crlf.txt", b"one  \r\ntwo\r\n\r\n\r\n\r\nthree\r\n"), **LIMITS)
    assert doc.pages[0].text == "one\ntwo\n\nthree"


def test_markdown_headings_become_their_own_paragraphs(tmp_path: Path) -> None:
    source = "# Title\nIntro line.\n## Section\nBody.\n```\n# not a heading\n```\n"
    doc = load_file(write(tmp_path, "readme.md", source.encode()), **LIMITS)
    assert doc.kind == "markdown"
    assert doc.metadata["title"] == "Title"
    assert doc.pages[0].text == "# Title\n\nIntro line.\n\n## Section\n\nBody.\n```\n# not a heading\n```"


def test_binary_content_with_a_text_suffix_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"blob\.txt: looks like a binary file"):
        load_file(write(tmp_path, "blob.txt", bytes(range(256)) * 4), **LIMITS)


def test_whitespace_only_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"blank\.txt: contains no text"):
        load_file(write(tmp_path, "blank.txt", b" \n\n\t \r\n"), **LIMITS)


HTML = """<!DOCTYPE html>
<html><head><meta charset="windows-1252"><title>Reactor   notes</title>
<style>p { color: red }</style><script>document.write("tracking code")</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Cooling loop</h1>
<p>The primary loop carries
   heat away from the <b>core</b>.</p>
<!-- an editor's comment -->
<p>Pumps run at 300 rpm.<br>Valves are checked daily.</p>
<ul><li>Pump A</li><li>Pump B</li></ul>
<script>var secret = "do not index";</script>
<p>Café</p>
<footer>Copyright 2024 ACME</footer>
</body></html>
""".encode("cp1252")  # the page's own meta charset says how to decode it


def test_html_keeps_headings_and_paragraphs_and_drops_scripts(tmp_path: Path) -> None:
    doc = load_file(write(tmp_path, "page.html", HTML), **LIMITS)
    assert doc.kind == "html"
    assert doc.metadata["title"] == "Reactor notes"
    assert doc.pages == [doc.pages[0]] and doc.pages[0].number is None
    assert doc.pages[0].text == (
        "Cooling loop\n\nThe primary loop carries heat away from the core.\n\n"
        "Pumps run at 300 rpm.\nValves are checked daily.\n\nPump A\n\nPump B\n\nCafé"
    )


def test_html_is_sniffed_without_a_suffix(tmp_path: Path) -> None:
    doc = load_file(write(tmp_path, "download", b"  <!doctype html><p>Hello there</p>"), **LIMITS)
    assert doc.kind == "html"
    assert doc.pages[0].text == "Hello there"


def test_html_without_readable_text_is_refused(tmp_path: Path) -> None:
    page = b"<html><body><script>render()</script><div id='app'></div></body></html>"
    with pytest.raises(InputError, match=r"app\.html: contains no readable text"):
        load_file(write(tmp_path, "app.html", page), **LIMITS)
