"""HTML to paragraphs: the readable text of a page without scripts, styles and navigation.

Used for uploaded HTML files and for pages the `visit` tool fetches. Every block element (heading, paragraph,
list item, table cell, ...) becomes one paragraph, separated by blank lines, because the pipeline chunks on
paragraph boundaries.
"""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup, Tag
from bs4.element import NavigableString, PageElement, PreformattedString

from ..errors import InputError
from .document import Document, Page
from .source import read_bytes

DROPPED_TAGS = ("script", "style", "noscript", "template", "nav", "footer", "svg", "iframe", "head", "form")
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "ol", "p", "pre",
    "section", "summary", "table", "td", "th", "tr", "ul",
})
_BREAK = "\ue000"  # private-use marker for <br>, so it survives whitespace collapsing
_PARAGRAPH = "\ue001"  # private-use marker for a block boundary


def parse(markup: str | bytes, encoding: str | None = None) -> BeautifulSoup:
    """BeautifulSoup with the stdlib parser; bytes are decoded from `encoding` or the page's own charset."""
    return BeautifulSoup(markup, "html.parser", from_encoding=encoding if isinstance(markup, bytes) else None)


def title_of(soup: BeautifulSoup) -> str | None:
    for tag in (soup.title, soup.find("h1")):
        if tag is not None and tag.get_text(strip=True):
            return " ".join(tag.get_text().split())
    return None


def main_text(soup: BeautifulSoup) -> str:
    """The page's readable text, paragraphs separated by blank lines. Mutates `soup` (drops tags)."""
    for tag in soup.find_all(DROPPED_TAGS):
        tag.decompose()
    root = soup.find("main") or soup.find("article") or soup.body or soup
    return _paragraphs(_visible_text(root))


def _visible_text(root: Tag) -> str:
    """Text nodes in document order (comments, the doctype and CDATA are PreformattedStrings and left out), a
    paragraph mark around every block element below `root` and a break for each <br>. One iterative walk: a
    page nested 20,000 deep costs what a flat one does (marking the tree in place was quadratic in the depth)."""
    out: list[str] = []
    stack: list[tuple[PageElement, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            out.append(_PARAGRAPH)
        elif isinstance(node, NavigableString):
            if not isinstance(node, PreformattedString):
                out.append(str(node))
        elif isinstance(node, Tag):
            if node.name == "br" and node is not root:
                out.append(_BREAK)
                continue
            if node.name in BLOCK_TAGS and node is not root:
                out.append(_PARAGRAPH)
                stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.contents))
    return "".join(out)


def _paragraphs(raw: str) -> str:
    paragraphs = []
    for block in raw.split(_PARAGRAPH):
        lines = [" ".join(part.split()) for part in block.split(_BREAK)]
        text = "\n".join(line for line in lines if line)
        if text:
            paragraphs.append(text)
    return "\n\n".join(paragraphs)


def html_to_text(markup: str | bytes, encoding: str | None = None) -> tuple[str | None, str]:
    """(title, main text) of an HTML document."""
    soup = parse(markup, encoding)
    title = title_of(soup)
    return title, main_text(soup)


def load_html(path: Path, name: str) -> Document:
    title, text = html_to_text(read_bytes(path, name))
    if not text:
        raise InputError("contains no readable text (the page may be built by JavaScript)", source=name)
    metadata: dict = {"mime": "text/html"}
    if title:
        metadata["title"] = title
    return Document(name=name, path=str(path), kind="html", pages=[Page(None, text)], metadata=metadata)
