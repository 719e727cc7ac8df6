"""A common verb's irregular past meets its present in word matching, and a name spelt like one stays a name."""

from __future__ import annotations

from memory_bank.engines.offline.constraints import unmet_terms
from memory_bank.text.tokens import stem


def test_an_irregular_past_meets_its_present() -> None:
    for past, present in [("paid", "pay"), ("sold", "sell"), ("grew", "grow"), ("rose", "rise"), ("bought", "buy")]:
        assert stem(past) == stem(present), past
    # words that are also other words keep their own stem
    for word in ("found", "left", "won", "born"):
        assert stem(word) == word


def test_a_name_spelt_like_an_irregular_past_is_still_met_as_written() -> None:
    # "Rose" stems to "rise", which is no prefix of "Rose": the name is looked for as written
    assert unmet_terms("What did Paul Rose say Luther added?", "Paul Rose argues that Luther did so.", "") == []
    assert unmet_terms("What did Paul Rose say Luther added?", "Ronald Berger argues that Luther did so.", "") \
        == ["Paul Rose"]
