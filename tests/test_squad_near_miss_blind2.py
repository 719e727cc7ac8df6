"""The second blind near-miss set (`bench/data/squad_near_miss_blind2.json`) stays what its "about" says: the shape
of the first set, on paragraphs no earlier set uses (of the held set only titles and paragraph numbers are read), a
tempting span really in its paragraph, and a note naming its SQuAD 2.0 kind of unanswerability in about the mix of
real use. A wrong paragraph number or a mistyped span would make a question test something other than written."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
SQUAD = ROOT.parent / "shared" / "data" / "squad" / "squad_dev_visible.json"
EARLIER = ("squad_near_miss.json", "squad_near_miss_more.json", "squad_near_miss_held.json")
NEGATIVES = ("entity swap", "antonym", "negation", "mutual exclusion", "impossible condition", "attribute not given")


def _questions(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))["questions"]


BLIND2 = _questions("squad_near_miss_blind2.json")


def test_the_shape_is_the_first_sets_and_every_note_names_a_kind() -> None:
    first = _questions("squad_near_miss.json")
    assert len(BLIND2) == 50 and len({q["question"] for q in BLIND2}) == 50
    assert all(set(q) == set(first[0]) for q in BLIND2)
    assert {q["kind"] for q in BLIND2} <= {q["kind"] for q in first}
    kinds = Counter(q["note"].split(":")[0] for q in BLIND2)
    assert set(kinds) == set(NEGATIVES), kinds
    assert all(4 <= kinds[k] <= 13 for k in NEGATIVES), kinds  # a spread, not one kind


def test_no_paragraph_an_earlier_set_uses() -> None:
    used = {(q["title"], q["paragraph"]) for name in EARLIER for q in _questions(name)}
    assert not used & {(q["title"], q["paragraph"]) for q in BLIND2}


@pytest.mark.skipif(not SQUAD.is_file(), reason=f"the SQuAD articles are not at {SQUAD}")
def test_the_tempting_span_is_in_its_paragraph() -> None:
    articles = {a["title"]: a["paragraphs"] for a in json.loads(SQUAD.read_text(encoding="utf-8"))["data"]}
    assert {q["title"] for q in BLIND2} == set(articles)
    for q in BLIND2:
        assert q["tempting"] in articles[q["title"]][q["paragraph"]]["context"], q["question"]
