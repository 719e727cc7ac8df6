"""Acronyms read from the documents' own definitions, and a question's long forms put in the documents' words."""

from __future__ import annotations

from memory_bank.text.acronyms import defined_acronyms, shorten

TEXT = ("Agencies follow the NIST Risk Management Framework (RMF). The policy enforcement point (PEP) enables "
        "connections. Trusted Internet Connections (TIC) 3.0 is a federal initiative. The trust algorithm (TA) is "
        "the process used by the policy engine. Some systems (see below) and the year (2020) are no acronyms.")


def test_an_acronym_is_defined_by_the_initials_of_the_words_before_it() -> None:
    assert defined_acronyms(TEXT) == {"RMF": "Risk Management Framework", "PEP": "policy enforcement point",
                                      "TIC": "Trusted Internet Connections", "TA": "trust algorithm"}


def test_a_long_form_in_a_question_becomes_the_acronym_the_documents_use() -> None:
    acronyms = defined_acronyms(TEXT)
    assert shorten("Does the overall Risk Management Framework process change?", acronyms) == \
        "Does the overall RMF process change?"
    assert shorten("How does a criteria-based trust algorithm differ?", acronyms) == \
        "How does a criteria-based TA differ?"
    assert shorten("What does the policy engine decide?", acronyms) == "What does the policy engine decide?"
