"""Aligning two texts word by word to find what one says differently from the other.

A contradiction an offline engine can see reliably is a *local edit*: the same words around a slot, a different
number, date or name inside it ("built in 1875, it is one of" / "built in 1920, it is one of"). Two texts about
different things of the same name differ in many slots at once (year, country and director of two films called
"Cry, the Beloved Country"), so a conflict needs few distinct substitutions inside a long shared context, while
a duplicate needs a long shared context and no substitution of a value at all.

The alignment is bounded work whatever the text: `SequenceMatcher` without its heuristic junk is quadratic in the
pairs of equal words, and a repetitive text (60 kB of one repeated word) took minutes that nothing could cancel.
So each side is cut to `MAX_ALIGN_TOKENS`, and when the pairs of equal words exceed `MAX_PAIRS` the texts are
aligned on their unique shared shingles instead (`word_opcodes`). Ordinary prose stays far below both bounds and
aligns exactly as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import NamedTuple

from ...text.tokens import STOPWORDS
from .nlp import MONTHS, sentence_spans

_ALIGN_TOKEN = re.compile(r"\d[\d,.]*\d|\d|[^\W\d_]+")
_MONTHS = frozenset(MONTHS)
MAX_ALIGN_TOKENS = 10_000
MAX_PAIRS = 300_000


class Token(NamedTuple):
    """A word of an aligned text (a tuple: analysis reads every new node's text into a few hundred of them)."""

    text: str
    sentence_start: bool

    @property
    def key(self) -> str:
        return self.text.lower()

    def is_value(self) -> bool:
        """A number, a month, or a capitalised word that is not just capitalised for starting a sentence."""
        t = self.text
        if any(c.isdigit() for c in t) or t.lower() in _MONTHS:
            return True
        return t[:1].isupper() and not (self.sentence_start and t.lower() in STOPWORDS)


@dataclass(frozen=True)
class Substitution:
    ours: str
    theirs: str
    before: str = ""  # the shared words just before the slot, to show where the texts disagree
    their_before: str = ""  # the same stretch of the other text: where it differs, the values measure two things
    after: str = ""  # the words just after the slot ("Notes" after "2042": the value is part of a name)

    def describe(self) -> str:
        where = f" after \"…{self.before}\"" if self.before else ""
        return f"\"{self.ours}\" vs \"{self.theirs}\"{where}"


@dataclass(frozen=True)
class Alignment:
    """How two texts line up: the share of the shorter text inside long shared runs (`coverage`) and the local
    value substitutions found between those runs."""

    coverage: float
    substitutions: tuple[Substitution, ...]
    shared_tokens: int
    other_slots: int = 0  # bounded differences that are not value substitutions (wording, added or cut words)
    other_value_slots: int = 0  # of those, the ones where a number, date or name differs (too long to be one edit)

    @property
    def distinct(self) -> list[Substitution]:
        seen: dict[tuple[str, str], Substitution] = {}
        for sub in self.substitutions:
            seen.setdefault((sub.ours.lower(), sub.theirs.lower()), sub)
        return list(seen.values())


def align_tokens(text: str) -> list[Token]:
    tokens: list[Token] = []
    for span in sentence_spans(unicodedata.normalize("NFKC", text)):
        words = _ALIGN_TOKEN.findall(span.text)
        tokens.extend(Token(word, i == 0) for i, word in enumerate(words))
    return tokens


def shingles(tokens: list[Token], size: int = 4) -> set[tuple[str, ...]]:
    keys = [t.key for t in tokens]
    return {tuple(keys[i:i + size]) for i in range(len(keys) - size + 1)}


def align(a: list[Token], b: list[Token], *, context: int = 3, max_slot: int = 6,
          copy_coverage: float = 0.85) -> Alignment:
    """Word alignment of `a` against `b`.

    A slot is a stretch where the texts differ, bounded by at least `context` shared words on each side. A slot
    counts as a substitution when it changes a value; in an edited copy (coverage ≥ `copy_coverage`) a change
    of plain content words counts too ("purple" to "green"), since nothing else in the text moved.
    """
    a, b = a[:MAX_ALIGN_TOKENS], b[:MAX_ALIGN_TOKENS]
    ops = word_opcodes([t.key for t in a], [t.key for t in b])
    shared = sum(i2 - i1 for op, i1, i2, _, _ in ops if op == "equal" and i2 - i1 >= context)
    coverage = shared / max(1, min(len(a), len(b)))
    subs: list[Substitution] = []
    other = other_values = 0
    for i1, i2, j1, j2, bounded in _slots(ops, context):
        if not bounded:
            continue
        sub = None
        if i2 - i1 <= max_slot and j2 - j1 <= max_slot and i1 < i2 and j1 < j2:
            sub = _substitution(a[i1:i2], b[j1:j2], _words(a[max(0, i1 - 5):i1]), plain_words=coverage >= copy_coverage)
            if sub is not None:
                sub = replace(sub, their_before=_words(b[max(0, j1 - 5):j1]), after=_words(a[i2:i2 + 3]))
        if sub is not None:
            subs.append(sub)
        else:
            other += 1
            other_values += _values_differ(a[i1:i2], b[j1:j2])
    return Alignment(coverage=coverage, substitutions=tuple(subs), shared_tokens=shared, other_slots=other,
                     other_value_slots=other_values)


Opcode = tuple[str, int, int, int, int]


def word_opcodes(a: list[str], b: list[str], max_pairs: int = MAX_PAIRS) -> list[Opcode]:
    """`SequenceMatcher` opcodes of two word lists, in bounded work: when the pairs of equal words exceed
    `max_pairs` (a repetitive text), the texts are aligned on their shared 4-word shingles that occur once in
    each instead (patience-style, O(n log n)), which keeps the long shared runs an edited copy has."""
    count_b = Counter(b)
    if sum(count_b[k] for k in a) <= max_pairs:
        return list[Opcode](SequenceMatcher(None, a, b, autojunk=False).get_opcodes())
    return _opcodes(_anchored_blocks(a, b), len(a), len(b))


def _anchored_blocks(a: list[str], b: list[str], k: int = 4) -> list[tuple[int, int, int]]:
    """Matching blocks (i, j, size) grown from shingles unique to both sides, in increasing order of both."""
    def unique(seq: list[str]) -> dict[tuple[str, ...], int]:
        seen: dict[tuple[str, ...], int] = {}
        for i in range(len(seq) - k + 1):
            key = tuple(seq[i:i + k])
            seen[key] = -1 if key in seen else i
        return {key: i for key, i in seen.items() if i >= 0}

    ua, ub = unique(a), unique(b)
    anchors = sorted((ua[key], ub[key]) for key in ua.keys() & ub.keys())
    blocks: list[tuple[int, int, int]] = []
    for i, j in _increasing_chain(anchors):
        if blocks:
            bi, bj, size = blocks[-1]
            if i < bi + size or j < bj + size:
                if i - j == bi - bj:  # the same diagonal: the block grows
                    blocks[-1] = (bi, bj, max(size, i + k - bi))
                continue
        blocks.append((i, j, k))
    grown: list[tuple[int, int, int]] = []
    for n, (i, j, size) in enumerate(blocks):
        end_a, end_b = (blocks[n + 1][0], blocks[n + 1][1]) if n + 1 < len(blocks) else (len(a), len(b))
        while i + size < end_a and j + size < end_b and a[i + size] == b[j + size]:
            size += 1
        start_a, start_b = (grown[-1][0] + grown[-1][2], grown[-1][1] + grown[-1][2]) if grown else (0, 0)
        while i > start_a and j > start_b and a[i - 1] == b[j - 1]:
            i, j, size = i - 1, j - 1, size + 1
        if grown and grown[-1][0] + grown[-1][2] == i and grown[-1][1] + grown[-1][2] == j:
            gi, gj, gsize = grown.pop()
            i, j, size = gi, gj, gsize + size
        grown.append((i, j, size))
    return grown


def _increasing_chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of pairs increasing in both coordinates (pairs sorted by the first), O(n log n)."""
    from bisect import bisect_left

    tails: list[int] = []  # tails[length - 1]: the smallest second coordinate ending a chain of that length
    tail_index: list[int] = []
    parent = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        pos = bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_index.append(n)
        else:
            tails[pos], tail_index[pos] = j, n
        parent[n] = tail_index[pos - 1] if pos else -1
    chain: list[tuple[int, int]] = []
    n = tail_index[-1] if tail_index else -1
    while n >= 0:
        chain.append(pairs[n])
        n = parent[n]
    return chain[::-1]


def _opcodes(blocks: list[tuple[int, int, int]], len_a: int, len_b: int) -> list[Opcode]:
    ops: list[Opcode] = []
    i = j = 0
    for bi, bj, size in [*blocks, (len_a, len_b, 0)]:
        if i < bi and j < bj:
            ops.append(("replace", i, bi, j, bj))
        elif i < bi:
            ops.append(("delete", i, bi, j, j))
        elif j < bj:
            ops.append(("insert", i, i, j, bj))
        if size:
            ops.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return ops


def _slots(ops: list[tuple[str, int, int, int, int]], context: int) -> list[tuple[int, int, int, int, bool]]:
    """Differing ops separated by shared runs shorter than `context` form one slot; `bounded` says a shared run
    of at least `context` words lies on both sides (a text edge is no bound: the slot could go on unseen)."""
    slots: list[tuple[int, int, int, int, bool]] = []
    k = 0
    while k < len(ops):
        if ops[k][0] == "equal":
            k += 1
            continue
        start = k
        while k + 1 < len(ops) and (ops[k + 1][0] != "equal" or (ops[k + 1][2] - ops[k + 1][1] < context
                                                                  and k + 2 < len(ops))):
            k += 1
        first, last = ops[start], ops[k]
        bounded = _run(ops, start - 1) >= context and _run(ops, k + 1) >= context
        slots.append((first[1], last[2], first[3], last[4], bounded))
        k += 1
    return slots


def _run(ops: list[tuple[str, int, int, int, int]], k: int) -> int:
    if 0 <= k < len(ops) and ops[k][0] == "equal":
        return ops[k][2] - ops[k][1]
    return 0


def _substitution(ours: list[Token], theirs: list[Token], before: str, *, plain_words: bool) -> Substitution | None:
    """The slot holds a value on at least one side (or plain words, in an edited copy) and the two fillers
    really differ: not a spelling variant such as 'km²'/'km 2', not one filler merely elaborating the other."""
    has_value = any(t.is_value() for t in ours) or any(t.is_value() for t in theirs)
    if not has_value and not plain_words:
        return None
    flat_a = "".join(t.key for t in ours).replace(",", "")
    flat_b = "".join(t.key for t in theirs).replace(",", "")
    if flat_a == flat_b or flat_a in flat_b or flat_b in flat_a:
        return None
    content_a = {t.key for t in ours if t.key not in STOPWORDS}
    content_b = {t.key for t in theirs if t.key not in STOPWORDS}
    if not content_a or not content_b or content_a <= content_b or content_b <= content_a:
        return None
    return Substitution(_words(ours), _words(theirs), before)


def _words(tokens: list[Token]) -> str:
    return " ".join(t.text for t in tokens)


def _values_differ(ours: list[Token], theirs: list[Token]) -> bool:
    """Both sides hold values and they are not the same values (a second fact that changed, not a rewording)."""
    va = {t.key for t in ours if t.is_value()}
    vb = {t.key for t in theirs if t.is_value()}
    return bool(va) and bool(vb) and va != vb
