"""An answer's claims and the node ids each cites, read from a model's free-text reply, and the answer written
back with numbered citations.

A small model cites sloppily: `[node:ID]` after the full stop instead of before it, several ids in one bracket,
the bare id without `node:`, ids it never saw. So the reply is read line by line (a list item is a line), each
line sentence by sentence, and every citation marker is taken out of the text and kept beside its sentence: an
id shown in the block is a citation, any other id is set aside (`invented`) and never reaches the answer. What is
done with a sentence that cites nothing is the caller's choice (`engines/one_call.py` traces it or drops it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text.split import split_sentences

# [node:ID], [node:A, node:B], [Node: A; B]; or a bare [ID] (a citation when ID is in the block, invented when a number)
_NODE_MARK = re.compile(r"\[\s*node\s*:\s*([^\]\n]{0,400})\]", re.IGNORECASE)
_BARE_MARK = re.compile(r"\[\s*([0-9A-Za-z_-]{1,64})\s*\]")
_ID_SPLIT = re.compile(r"[,;\s]+(?:node\s*:\s*)?", re.IGNORECASE)
_MARKS = rf"(?:\s*(?:{_NODE_MARK.pattern}|{_BARE_MARK.pattern}))+"
_AFTER_STOP = re.compile(rf"([.!?:])({_MARKS})", re.IGNORECASE)  # "… access. [node:x]" -> "… access [node:x]."
_BULLET = re.compile(r"^\s*(?:(?:[-*•]|\d{1,2}[.)])\s+)+")  # "- • Policy engine": a bullet the model copied too
# a place the model copied from the block: "(NIST.SP.800-207.pdf, §3.3, p. 19 (PDF p. 28))" (its "p. 19" would
# also cut the sentence in two)
_PLACE = re.compile(r"\s*\((?:[^()\n]|\([^()\n]*\))*?(?:\.pdf\b|\bPDF pp?\.|\bpp?\. \d)(?:[^()\n]|\([^()\n]*\))*\)",
                    re.IGNORECASE)
_END = re.compile(r"[\s]*([.!?:;,]*)$")


@dataclass
class Claim:
    """One sentence of the answer, without its markers, and the ids it cites: `cited` those in the block (in the
    order written), `invented` the others."""

    text: str
    cited: list[str] = field(default_factory=list)
    invented: list[str] = field(default_factory=list)


@dataclass
class Line:
    """A line of the answer: a list item (`item`) or a line of prose, as its claims."""

    claims: list[Claim]
    item: bool = False


def read_claims(reply: str, known: set[str]) -> list[Line]:
    """The reply's lines and their claims; `known`: the node ids shown to the model."""
    lines: list[Line] = []
    last: Claim | None = None
    for raw in reply.splitlines():
        if not raw.strip():
            continue
        item = _BULLET.match(raw) is not None
        body = _BULLET.sub("", raw, count=1) if item else raw.strip()
        body = _AFTER_STOP.sub(lambda m: f"{m.group(2)}{m.group(1)}", _PLACE.sub("", body))
        claims: list[Claim] = []
        for sentence in split_sentences(body):
            claim = _claim(sentence, known)
            if claim.text:
                claims.append(claim)
                last = claim
            elif last is not None:  # markers alone cite for the sentence before them
                last.cited += [i for i in claim.cited if i not in last.cited]
                last.invented += claim.invented
        if claims:
            lines.append(Line(claims, item))
    return lines


def _claim(sentence: str, known: set[str]) -> Claim:
    cited: list[str] = []
    invented: list[str] = []

    def take(ids: list[str]) -> None:
        for node_id in ids:
            if node_id in known:
                if node_id not in cited:
                    cited.append(node_id)
            elif node_id:
                invented.append(node_id)

    def node_mark(match: re.Match[str]) -> str:
        take([raw.strip().strip("'\"`") for raw in _ID_SPLIT.split(match.group(1))])
        return ""

    def bare_mark(match: re.Match[str]) -> str:
        node_id = match.group(1)
        if node_id not in known and not node_id.isdigit():
            return match.group(0)  # "[sic]": not a citation, left in the text
        take([node_id])  # "[2]" would read as one of the answer's own numbered citations: set aside
        return ""

    text = _BARE_MARK.sub(bare_mark, _NODE_MARK.sub(node_mark, sentence))
    text = re.sub(r"\s+([.!?:;,])", r"\1", " ".join(text.split()))
    return Claim(text.strip(), cited, invented)


def write_answer(lines: list[Line], numbers: dict[str, int]) -> str:
    """The answer as a reader sees it: each claim followed by the numbers of its citations ("… access [1]."),
    list items as "- " lines. `numbers`: node id -> its place in the answer's citation list (from 1)."""
    out: list[str] = []
    for line in lines:
        text = " ".join(_numbered(c, numbers) for c in line.claims)
        out.append(f"- {text}" if line.item else text)
    return "\n".join(out)


def _numbered(claim: Claim, numbers: dict[str, int]) -> str:
    marks = "".join(f"[{numbers[i]}]" for i in claim.cited if i in numbers)
    if not marks:
        return claim.text
    ending = _END.search(claim.text)
    stop = ending.group(1) if ending else ""
    body = claim.text[: len(claim.text) - len(stop)].rstrip() if stop else claim.text
    return f"{body} {marks}{stop}"
