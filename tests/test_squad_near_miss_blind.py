"""The blind near-miss sets (`bench/data/squad_near_miss_blind2.json`, then `squad_near_miss_blind3.json` and
`squad_near_miss_blind4.json`) stay what their "about" says: the shape of the first set, on paragraphs no earlier set
uses (of the held set only titles and paragraph numbers are read), a tempting span really in its paragraph, and a
note naming its SQuAD 2.0 kind of unanswerability in about the mix of real use. A wrong paragraph number or a
mistyped span would make a question test something other than written."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
SQUAD = ROOT.parent / "shared" / "data" / "squad" / "squad_dev_visible.json"
EARLIER = ("squad_near_miss.json", "squad_near_miss_more.json", "squad_near_miss_held.json")
# each must avoid the ones before it
BLIND = ("squad_near_miss_blind2.json", "squad_near_miss_blind3.json", "squad_near_miss_blind4.json")
NEGATIVES = ("entity swap", "antonym", "negation", "mutual exclusion", "impossible condition", "attribute not given")


def _questions(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))["questions"]


@pytest.mark.parametrize("name", BLIND)
def test_the_shape_is_the_first_sets_and_every_note_names_a_kind(name: str) -> None:
    first, blind = _questions("squad_near_miss.json"), _questions(name)
    assert len(blind) == 50 and len({q["question"] for q in blind}) == 50
    assert all(set(q) == set(first[0]) for q in blind)
    assert {q["kind"] for q in blind} <= {q["kind"] for q in first}
    kinds = Counter(q["note"].split(":")[0] for q in blind)
    assert set(kinds) == set(NEGATIVES), kinds
    assert all(4 <= kinds[k] <= 13 for k in NEGATIVES), kinds  # a spread, not one kind


@pytest.mark.parametrize("position", range(len(BLIND)), ids=BLIND)
def test_no_paragraph_an_earlier_set_uses(position: int) -> None:
    used = {(q["title"], q["paragraph"]) for name in EARLIER + BLIND[:position] for q in _questions(name)}
    assert not used & {(q["title"], q["paragraph"]) for q in _questions(BLIND[position])}


@pytest.mark.skipif(not SQUAD.is_file(), reason=f"the SQuAD articles are not at {SQUAD}")
@pytest.mark.parametrize("name", BLIND)
def test_the_tempting_span_is_in_its_paragraph(name: str) -> None:
    articles = {a["title"]: a["paragraphs"] for a in json.loads(SQUAD.read_text(encoding="utf-8"))["data"]}
    blind = _questions(name)
    assert {q["title"] for q in blind} == set(articles)
    for q in blind:
        assert q["tempting"] in articles[q["title"]][q["paragraph"]]["context"], q["question"]
