"""A reader's concept searched in the words filings use for it: returning capital is dividends and repurchases."""

from __future__ import annotations

from memory_bank.text.reader_concepts import in_document_terms, in_filing_terms


def test_returning_capital_is_searched_as_dividends_and_repurchases() -> None:
    assert in_filing_terms("How does Apple return capital to its shareholders?") == (
        "How does Apple return capital to its shareholders (paid dividends and repurchased stock)?")
    assert "repurchased" in in_filing_terms("How does Oracle return cash to its stockholders?")
    assert "repurchased" in in_filing_terms("What is Apple's capital return program?")


def test_other_returns_and_capital_are_left_alone() -> None:
    for question in ("What is Oracle's return on invested capital?", "How does Apple manage its human capital?",
                     "What was Apple's cumulative total shareholder return?", "Where does Oracle return products?",
                     "What are capital returns on the investment?"):
        assert in_filing_terms(question) == question


def test_acronyms_are_written_out_before_concepts_are_widened() -> None:
    def long_forms(acronyms: list[str]) -> dict[str, str]:
        return {"CEO": "Chief Executive Officer"} if "CEO" in acronyms else {}

    assert in_document_terms("Who is Apple's CEO?", long_forms) == "Who is Apple's Chief Executive Officer?"
