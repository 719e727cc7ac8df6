"""Aligning two texts word by word to find what one says differently from the other.

A contradiction an offline engine can see reliably is a *local edit*: the same words around a slot, a different
number, date or name inside it ("built in 1875, it is one of" / "built in 1920, it is one of"). Two texts about
different things of the same name differ in many slots at once (year, country and director of two films called
"Cry, the Beloved Country"), so a conflict needs few distinct substitutions inside a long shared context, while
a duplicate needs a long shared context and no substitution of a value at all.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from ...text.tokens import STOPWORDS
from .nlp import MONTHS, sentence_spans

_ALIGN_TOKEN = re.compile(r"\d[\d,.]*\d|\d|[^\W\d_]+")
_MONTHS = frozenset(MONTHS)


@dataclass(frozen=True)
class Token:
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
        for i, match in enumerate(_ALIGN_TOKEN.finditer(span.text)):
            tokens.append(Token(match.group(0), i == 0))
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
    matcher = SequenceMatcher(None, [t.key for t in a], [t.key for t in b], autojunk=False)
    ops = matcher.get_opcodes()
    shared = sum(i2 - i1 for op, i1, i2, _, _ in ops if op == "equal" and i2 - i1 >= context)
    coverage = shared / max(1, min(len(a), len(b)))
    subs: list[Substitution] = []
    other = other_values = 0
    for i1, i2, j1, j2, bounded in _slots(ops, context):
        if not bounded:
            continue
        sub = None
        if i2 - i1 <= max_slot and j2 - j1 <= max_slot and i1 < i2 and j1 < j2:
            before = " ".join(t.text for t in a[max(0, i1 - 5):i1])
            sub = _substitution(a[i1:i2], b[j1:j2], before, plain_words=coverage >= copy_coverage)
        if sub is not None:
            subs.append(sub)
        else:
            other += 1
            other_values += _values_differ(a[i1:i2], b[j1:j2])
    return Alignment(coverage=coverage, substitutions=tuple(subs), shared_tokens=shared, other_slots=other,
                     other_value_slots=other_values)


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
    return Substitution(" ".join(t.text for t in ours), " ".join(t.text for t in theirs), before)


def _values_differ(ours: list[Token], theirs: list[Token]) -> bool:
    """Both sides hold values and they are not the same values (a second fact that changed, not a rewording)."""
    va = {t.key for t in ours if t.is_value()}
    vb = {t.key for t in theirs if t.is_value()}
    return bool(va) and bool(vb) and va != vb
