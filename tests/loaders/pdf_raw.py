"""PDFs written byte by byte, for what reportlab will not make: outlines that loop, point outside the document or
run to thousands of entries, and text whose font, size and position are known exactly.

Text is set in the standard 14 fonts (no embedding): pdfium reports their names ("Helvetica-Bold"), which is
what the loader reads boldness from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

FONTS = {"R": "Helvetica", "B": "Helvetica-Bold", "I": "Helvetica-Oblique", "BI": "Helvetica-BoldOblique"}
PAGE_HEIGHT = 792


@dataclass
class Text:
    text: str
    y: float
    font: str = "R"  # a key of FONTS
    size: float = 11
    x: float = 72


@dataclass
class Item:
    """One outline item; links are indexes into the item list (None: none), `dest` a page index or raw PDF."""

    title: str
    dest: int | str | None = None
    y: float = 750
    parent: int | None = None  # None: the outline root
    first: int | None = None
    last: int | None = None
    next: int | None = None
    prev: int | None = None
    goto_action: bool = False  # the destination inside a /GoTo action instead of /Dest


@dataclass
class _Objects:
    bodies: list[bytes] = field(default_factory=list)

    def reserve(self) -> int:
        self.bodies.append(b"")
        return len(self.bodies)

    def set(self, number: int, body: str | bytes) -> None:
        self.bodies[number - 1] = body.encode("latin-1") if isinstance(body, str) else body


def _string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def tree(entries: list[tuple[str, int, int, float]]) -> list[Item]:
    """Outline items from (title, level, page index, y) in reading order, linked as a well-formed tree."""
    items = [Item(title, page, y) for title, _, page, y in entries]
    levels = [level for _, level, _, _ in entries]
    stack: list[int] = []
    last_child: dict[int | None, int] = {}
    for index, level in enumerate(levels):
        while stack and levels[stack[-1]] >= level:
            stack.pop()
        parent = stack[-1] if stack else None
        items[index].parent = parent
        previous = last_child.get(parent)
        if previous is None:
            if parent is not None:
                items[parent].first = index
        else:
            items[previous].next = index
            items[index].prev = previous
        last_child[parent] = index
        if parent is not None:
            items[parent].last = index
        stack.append(index)
    return items


def write_raw_pdf(path: Path, pages: list[list[Text]], outline: list[Item] = ()) -> Path:
    objects = _Objects()
    catalog, page_tree = objects.reserve(), objects.reserve()
    fonts = {}
    for key, name in FONTS.items():
        fonts[key] = objects.reserve()
        objects.set(fonts[key], f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>")
    resources = " ".join(f"/F{key} {number} 0 R" for key, number in fonts.items())
    page_numbers = []
    for texts in pages:
        page, content = objects.reserve(), objects.reserve()
        page_numbers.append(page)
        stream = "".join(f"BT /F{t.font} {t.size} Tf {t.x} {t.y} Td {_string(t.text)} Tj ET\n" for t in texts)
        objects.set(content, f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}endstream")
        objects.set(page, f"<< /Type /Page /Parent {page_tree} 0 R /MediaBox [0 0 612 {PAGE_HEIGHT}] "
                          f"/Resources << /Font << {resources} >> >> /Contents {content} 0 R >>")
    kids = " ".join(f"{number} 0 R" for number in page_numbers)
    objects.set(page_tree, f"<< /Type /Pages /Kids [{kids}] /Count {len(page_numbers)} >>")
    outlines = ""
    if outline:
        root = objects.reserve()
        numbers = [objects.reserve() for _ in outline]
        ref = {None: f"{root} 0 R", **{i: f"{n} 0 R" for i, n in enumerate(numbers)}}
        for item, number in zip(outline, numbers):
            objects.set(number, _item(item, ref, page_numbers))
        top = [i for i, item in enumerate(outline) if item.parent is None]
        objects.set(root, f"<< /Type /Outlines /First {ref[top[0]]} /Last {ref[top[-1]]} /Count {len(top)} >>")
        outlines = f" /Outlines {root} 0 R /PageMode /UseOutlines"
    objects.set(catalog, f"<< /Type /Catalog /Pages {page_tree} 0 R{outlines} >>")
    path.write_bytes(_file(objects.bodies))
    return path


def _item(item: Item, ref: dict, page_numbers: list[int]) -> str:
    title = "<FEFF" + item.title.encode("utf-16-be").hex().upper() + ">"  # any text, as PDF text strings allow
    parts = [f"/Title {title}", f"/Parent {ref[item.parent]}"]
    for key, link in (("First", item.first), ("Last", item.last), ("Next", item.next), ("Prev", item.prev)):
        if link is not None:
            parts.append(f"/{key} {ref[link]}")
    if item.first is not None:
        parts.append("/Count 1")
    if isinstance(item.dest, int):
        dest = f"[{page_numbers[item.dest]} 0 R /XYZ 0 {item.y} 0]"
    else:
        dest = item.dest
    if dest is not None:
        parts.append(f"/A << /S /GoTo /D {dest} >>" if item.goto_action else f"/Dest {dest}")
    return "<< " + " ".join(parts) + " >>"


def _file(bodies: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def body_lines(first_y: float, lines: list[str], leading: float = 14) -> list[Text]:
    return [Text(line, first_y - i * leading) for i, line in enumerate(lines)]
