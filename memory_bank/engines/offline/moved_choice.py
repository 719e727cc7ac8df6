"""Which of several things moved one way: "Which of Apple's reportable segments had lower net sales in 2022 than in
2021, and why?".

A filing's discussion gives one sentence per member of a kind, written to one template: "Americas net sales
increased during 2022 compared to 2021 due primarily to …", "Japan net sales decreased during 2022 compared to
2021 due to the weakness of the yen …". The question asks which of them moved the asked way, so the answer is the
sentences of that template that say the asked figure, state a change with its cause, and move in the asked
direction; each names the member and why. A sentence of another kind written to the same template ("iPad net
sales decreased …", a product category, not a segment) is not one: the member's sentence is read where the
document discusses that kind (its section's titles say the kind) or says the kind itself.
"""

from __future__ import annotations

import re

from ...text.asks import item_noun
from ...text.tokens import STOPWORDS, bare_stem, bare_stems, stems
from ...text.trends import FALLING, RISING, states_change
from .answering import Answer
from .evidence import Evidence

_WHICH = re.compile(r"^\s*which\b", re.IGNORECASE)
_LOWER = re.compile(r"\b(?:lower|less|smaller|fewer|decrease[ds]?|declined?|fell|dropped)\b", re.IGNORECASE)
_HIGHER = re.compile(r"\b(?:higher|more|greater|larger|increase[ds]?|grew|rose)\b", re.IGNORECASE)
_TWO_TIMES = re.compile(r"\bthan\b|\b(?:19|20)\d\d\b[^?]*\b(?:19|20)\d\d\b", re.IGNORECASE)
_MOVED = re.compile(rf"\b(?:{'|'.join(RISING + FALLING)})\w*", re.IGNORECASE)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_ASKING = frozenset(bare_stems("which why what how had have has did was were"))
MAX_SUBJECT_WORDS = 6  # a member's name before the figure's words ("Rest of Asia Pacific")
MAX_CHOSEN = 6  # sentences shown


def asked_direction(question: str) -> int | None:
    """-1 for "which … lower … than …", +1 for "which … higher …", None for any other question (or both ways)."""
    if not (_WHICH.match(question) and _TWO_TIMES.search(question)):
        return None
    lower, higher = bool(_LOWER.search(question)), bool(_HIGHER.search(question))
    return -1 if lower and not higher else 1 if higher and not lower else None


def _direction(text: str) -> int:
    """The way the sentence's first verb of change goes (+1 up, -1 down, 0 none)."""
    moved = _MOVED.search(text)
    if moved is None:
        return 0
    return 1 if moved.group(0).lower().startswith(RISING) else -1


def _kind_words(question: str) -> tuple[set[str], set[str]]:
    """(the kind of thing chosen among, the words that name it): "Which of Apple's reportable segments …" ->
    {segment}, {apple, reportabl, segment}: the question's words up to the kind's noun."""
    noun = item_noun(question) or ""
    kind = bare_stems(noun)
    at = question.lower().find(noun.lower()) if noun else -1
    return kind, (bare_stems(question[: at + len(noun)]) if at >= 0 else kind)


def _subject(text: str, measure: list[str]) -> str | None:
    """The member a sentence is about: its words before the figure's ("Japan" of "Japan net sales decreased …")."""
    words = text.split()
    said = [bare_stem(stems(w)[0]) if stems(w) else "" for w in words]
    for i in range(1, min(len(words), MAX_SUBJECT_WORDS + 1)):
        if said[i: i + len(measure)] == measure:
            return " ".join(words[:i]).strip(" ,;:")
    return None


def moved_choice(question: str, evidence: list[Evidence]) -> Answer | None:
    """The sentences naming each member of the asked kind that moved the asked way, with why; None when the
    question asks no such choice or no sentence of the kind says one."""
    direction = asked_direction(question)
    if direction is None:
        return None
    kind, naming = _kind_words(question)
    if not kind:
        return None
    lowered = _LOWER.pattern if direction < 0 else _HIGHER.pattern
    asked = [bare_stem(s) for s in stems(re.sub(lowered, " ", question, flags=re.IGNORECASE))]
    measure = [s for s in asked if s not in naming and s not in _ASKING and not _YEAR.match(s)
               and s not in STOPWORDS]
    if not measure:
        return None
    chosen: list[Evidence] = []
    for ev in evidence:
        place = bare_stems(" ".join(ev.section))
        if (ev.row or not states_change(ev.text) or _direction(ev.text) != direction
                or not (kind <= place or kind <= bare_stems(ev.text))):
            continue
        if _subject(ev.text, measure) and ev.text not in {c.text for c in chosen}:
            chosen.append(ev)
    if not chosen:
        return None
    return Answer(" ".join(ev.text for ev in chosen[:MAX_CHOSEN]), chosen[:MAX_CHOSEN], 1.0)
