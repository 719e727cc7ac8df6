"""The document-QA dev set (`bench/data/doc_qa_dev.json`) stays what `bench/doc_qa.py` assumes it is: every kind
of question the issue names, enough near-miss unanswerable ones, and evidence strings that really are on the
pages they name (a typo there would read as a retrieval miss in the bench). The held-out sets written blind
(`bench/data/doc_qa_blind.json`, then `doc_qa_blind2.json` to `doc_qa_blind9.json`, `doc_qa_blind10.json` written
after dev2, and `doc_qa_blind11.json` written after dev3) and the second development set (`bench/data/doc_qa_dev2.json`,
reader's-words lists, steps, counts and comparisons), the third (`bench/data/doc_qa_dev3.json`, plain professional
phrasing, mostly NIST SP 800-207, written after blind10), the fourth (`bench/data/doc_qa_dev4.json`, written blind
after blind11, mostly NIST SP 800-207 with counts of what it enumerates), the fifth (`bench/data/doc_qa_dev5.json`,
written blind after dev4, counts and lists only, mostly NIST SP 800-207), the sixth (`bench/data/doc_qa_dev6.json`,
written blind, the two 10-K filings only: lists, comparisons and steps) and the seventh (`bench/data/doc_qa_dev7.json`,
written blind after dev6, all three documents, every kind, half of it NIST SP 800-207) are held to the same fields and
evidence rules, and repeat no question of the sets written before them."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from doc_qa_set import FIELDS, KINDS, PDF_DIR, carries, holds, load, normalise, page_texts  # noqa: E402

ABOUT, QUESTIONS = load()
DATA = Path(__file__).resolve().parents[1] / "bench" / "data"
BLIND_ABOUT, BLIND = load(DATA / "doc_qa_blind.json")
BLIND2_ABOUT, BLIND2 = load(DATA / "doc_qa_blind2.json")
BLIND3_ABOUT, BLIND3 = load(DATA / "doc_qa_blind3.json")
BLIND4_ABOUT, BLIND4 = load(DATA / "doc_qa_blind4.json")
BLIND5_ABOUT, BLIND5 = load(DATA / "doc_qa_blind5.json")
BLIND6_ABOUT, BLIND6 = load(DATA / "doc_qa_blind6.json")
BLIND7_ABOUT, BLIND7 = load(DATA / "doc_qa_blind7.json")
BLIND8_ABOUT, BLIND8 = load(DATA / "doc_qa_blind8.json")
BLIND9_ABOUT, BLIND9 = load(DATA / "doc_qa_blind9.json")
BLIND10_ABOUT, BLIND10 = load(DATA / "doc_qa_blind10.json")
DEV2_ABOUT, DEV2 = load(DATA / "doc_qa_dev2.json")
DEV3_ABOUT, DEV3 = load(DATA / "doc_qa_dev3.json")
BLIND11_ABOUT, BLIND11 = load(DATA / "doc_qa_blind11.json")
DEV4_ABOUT, DEV4 = load(DATA / "doc_qa_dev4.json")
DEV5_ABOUT, DEV5 = load(DATA / "doc_qa_dev5.json")
DEV6_ABOUT, DEV6 = load(DATA / "doc_qa_dev6.json")
DEV7_ABOUT, DEV7 = load(DATA / "doc_qa_dev7.json")
DOCS = sorted({q["doc"] for q in QUESTIONS})
TEN_K_DOCS = {doc for doc in DOCS if "10K" in doc}  # dev6 is written on the 10-K filings only
MINIMUM = {"list": 2, "how_many": 2, "compare": 2, "yes_no": 2, "unanswerable": 3}


@pytest.mark.parametrize(
    ("questions", "least"),
    [(QUESTIONS, 54), (BLIND, 30), (BLIND2, 26), (BLIND3, 24), (BLIND4, 26), (BLIND5, 28), (BLIND6, 34),
     (BLIND7, 36), (BLIND8, 38), (BLIND9, 36), (DEV2, 40), (BLIND10, 36), (DEV3, 44), (BLIND11, 36), (DEV4, 40),
     (DEV5, 36), (DEV6, 28), (DEV7, 36)],
    ids=["dev", "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "dev2",
         "blind10", "dev3", "blind11", "dev4", "dev5", "dev6", "dev7"],
)
def test_every_question_has_the_fields_and_a_known_kind(questions: list[dict], least: int) -> None:
    assert len(questions) >= least
    assert len({q["id"] for q in questions}) == len(questions)
    for q in questions:
        assert set(FIELDS) <= q.keys(), q["id"]
        assert q["kind"] in KINDS, q["id"]
        assert q["answerable"] == (q["kind"] != "unanswerable"), q["id"]
        assert q["evidence_pages"] and all(isinstance(p, int) and p >= 1 for p in q["evidence_pages"]), q["id"]
        if q["answerable"]:
            assert q["key_terms"] and q["evidence"], q["id"]
        else:
            assert not q["key_terms"] and not q["evidence"] and q.get("note"), q["id"]  # the near miss, said
        assert (q["kind"] == "yes_no") == (q.get("verdict") in ("yes", "no")), q["id"]


def test_kinds_cover_what_the_issue_asks_per_document() -> None:
    assert set(KINDS) == {q["kind"] for q in QUESTIONS}
    assert sum(not q["answerable"] for q in QUESTIONS) >= 8
    assert set(ABOUT["term_fraction"]) == set(KINDS) - {"unanswerable"}
    for doc in DOCS:
        counts = Counter(q["kind"] for q in QUESTIONS if q["doc"] == doc)
        assert all(counts[kind] >= n for kind, n in MINIMUM.items()), (doc, counts)
        assert counts["steps"] >= 1, doc
        if "10K" in doc:
            assert counts["figure"] >= 3, doc


def test_matching_rules() -> None:
    fractions = ABOUT["term_fraction"]
    figure = {"kind": "figure", "key_terms": ["10,708", "2022"]}
    assert carries("Payments for PP&E were $10708 million in 2022.", figure, fractions)
    assert not carries("Payments were $10,708 million.", figure, fractions)
    assert carries("There are seven tenets.", {"kind": "how_many", "key_terms": ["7"]}, fractions)
    assert not carries("There are 17 tenets.", {"kind": "how_many", "key_terms": ["7"]}, fractions)
    yes_no = {"kind": "yes_no", "key_terms": ["does not imply trust"], "verdict": "no"}
    assert not carries("Network location alone does not imply trust.", yes_no, fractions)
    assert carries("No: network location alone does not imply trust.", yes_no, fractions)
    rows = normalise("Capital expenditures (8,695 ) (4,511 ) (2,135 ) Net cash used 7,910")
    assert holds(rows, "Capital expenditures => 4,511")
    assert not holds(rows, "Capital expenditures => 7,910")  # the next row's number is not this row's


@pytest.mark.skipif(not all((PDF_DIR / doc).is_file() for doc in DOCS), reason=f"the PDFs are not in {PDF_DIR}")
def test_evidence_is_on_the_pages_it_names() -> None:
    for doc in DOCS:
        pages = [normalise(text) for text in page_texts(PDF_DIR / doc)]
        for q in (q for q in QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7
                  + BLIND8 + BLIND9 + DEV2 + BLIND10 + DEV3 + BLIND11 + DEV4 + DEV5 + DEV6 + DEV7 if q["doc"] == doc):
            assert max(q["evidence_pages"]) <= len(pages), q["id"]
            for entry in q["evidence"]:
                assert any(holds(pages[p - 1], entry) for p in q["evidence_pages"]), (q["id"], entry)


def test_the_blind_set_is_scored_as_the_dev_set_and_repeats_none_of_its_questions() -> None:
    assert BLIND_ABOUT["term_fraction"] == ABOUT["term_fraction"]
    assert not {normalise(q["question"]) for q in BLIND} & {normalise(q["question"]) for q in QUESTIONS}
    assert not {q["id"] for q in BLIND} & {q["id"] for q in QUESTIONS}
    assert {q["doc"] for q in BLIND} == set(DOCS)


@pytest.mark.parametrize(
    ("about", "questions", "earlier"),
    [(BLIND2_ABOUT, BLIND2, QUESTIONS + BLIND), (BLIND3_ABOUT, BLIND3, QUESTIONS + BLIND + BLIND2),
     (BLIND4_ABOUT, BLIND4, QUESTIONS + BLIND + BLIND2 + BLIND3),
     (BLIND5_ABOUT, BLIND5, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4),
     (BLIND6_ABOUT, BLIND6, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5),
     (BLIND7_ABOUT, BLIND7, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6),
     (BLIND8_ABOUT, BLIND8, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7),
     (BLIND9_ABOUT, BLIND9, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8),
     (DEV2_ABOUT, DEV2, QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9),
     (BLIND10_ABOUT, BLIND10,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2),
     (DEV3_ABOUT, DEV3,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10),
     (BLIND11_ABOUT, BLIND11,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10
      + DEV3),
     (DEV4_ABOUT, DEV4,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10
      + DEV3 + BLIND11),
     (DEV5_ABOUT, DEV5,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10
      + DEV3 + BLIND11 + DEV4),
     (DEV6_ABOUT, DEV6,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10
      + DEV3 + BLIND11 + DEV4 + DEV5),
     (DEV7_ABOUT, DEV7,
      QUESTIONS + BLIND + BLIND2 + BLIND3 + BLIND4 + BLIND5 + BLIND6 + BLIND7 + BLIND8 + BLIND9 + DEV2 + BLIND10
      + DEV3 + BLIND11 + DEV4 + DEV5 + DEV6)],
    ids=["blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "dev2", "blind10", "dev3",
         "blind11", "dev4", "dev5", "dev6", "dev7"],
)
def test_a_later_blind_set_is_scored_the_same_and_repeats_no_earlier_question(
    about: dict, questions: list[dict], earlier: list[dict]
) -> None:
    assert about["term_fraction"] == ABOUT["term_fraction"]
    assert not {normalise(q["question"]) for q in questions} & {normalise(q["question"]) for q in earlier}
    assert not {q["id"] for q in questions} & {q["id"] for q in earlier}
    assert {q["doc"] for q in questions} == (TEN_K_DOCS if questions is DEV6 else set(DOCS))
    assert sum(not q["answerable"] for q in questions) >= 4
