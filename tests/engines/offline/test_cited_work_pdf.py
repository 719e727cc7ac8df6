"""Who stands behind a work the answer cites by a key, on real pages of NIST SP 800-207: "TIC 3.0 has been updated
… [M-19-26]." answered "Who issued the memo …?" without the Office of Management and Budget, which only the
reference list's entry for [M-19-26] names."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.cited_work import asks_source, cited_keys
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


def test_a_question_asking_who_made_a_work_or_which_it_is() -> None:
    assert asks_source("Who issued the memo under which TIC 3.0 was updated?")
    assert asks_source("Which publication describes the identity assurance levels administrators must satisfy?")
    assert not asks_source("What has TIC 3.0 been updated to accommodate?")
    assert not asks_source("Who is responsible for the policy decision?")


def test_keys_in_brackets_are_the_works_a_sentence_cites() -> None:
    assert cited_keys("TIC 3.0 has been updated to accommodate cloud services and mobile devices [M-19-26].") == [
        "M-19-26"]
    assert cited_keys("as outlined in NIST SP 800-63A [SP800-63A] and [NISTIR 7987].") == ["SP800-63A", "NISTIR 7987"]
    assert cited_keys("The value [12] and a list [a, b]") == []  # a number, or words with a comma: no key


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 42 (§6.4 on TIC 3.0, "[M-19-26]") and pages 51-54 (Appendix A's references)
    return bank_of_pages("NIST.SP.800-207.pdf", [41, 50, 51, 52, 53], tmp_path_factory.mktemp("cited"),
                         embedder=embedder)


def test_who_issued_a_cited_memo_is_read_from_its_reference_entry(nist: MemoryBank) -> None:
    result = nist.run("Who issued the memo under which TIC 3.0 was updated to accommodate cloud services and mobile "
                      "devices?")
    assert "[M-19-26]" in result.answer and "Office of Management and Budget" in result.answer, result.answer
    # the section it is said in, then the reference list (this bank's pages 2-5) where the entry is
    assert [c.pages[:1] for c in result.citations] == [[1], [2]], result.citations
    assert result.citations[1].section[-1] == "References", result.citations


def test_a_question_not_asking_for_the_source_gets_no_reference_entry(nist: MemoryBank) -> None:
    answer = nist.run("What has TIC 3.0 been updated to accommodate?").answer
    assert "cloud services and mobile devices" in answer and "Office of Management" not in answer, answer
