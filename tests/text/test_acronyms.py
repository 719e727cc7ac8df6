"""Acronyms read from the documents' own definitions, and a question's long forms put in the documents' words."""

from __future__ import annotations

from memory_bank.text.acronyms import (
    MAX_ACRONYMS,
    defined_acronyms,
    in_document_words,
    shorten,
    shortened_for,
    spelled_out,
    with_acronyms,
)

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


def test_an_acronym_a_filing_never_defines_is_read_as_the_capitalised_words_that_spell_it() -> None:
    ceo = spelled_out("CEO")
    assert ceo is not None and ceo.search("Safra A. Catz, our Chief Executive Officer, leads") is not None
    assert ceo.search("CERTIFICATIONS OF CHIEF EXECUTIVE OFFICER") is not None
    assert ceo.search("the chief executive officer") is None  # lower case: not a name's initials
    fda = spelled_out("FDA")
    assert fda is not None and fda.search("approved by the Food and Drug Administration") is not None
    assert spelled_out("Apple") is None and spelled_out("AV") is None and spelled_out("ABCDEFGH") is None


def test_a_question_is_put_in_the_documents_words_only_where_they_write_the_acronym_out() -> None:
    asked: list[list[str]] = []

    def long_forms(terms: list[str]) -> dict[str, str]:
        asked.append(terms)
        return {"CEO": "Chief Executive Officer"} if "CEO" in terms else {}

    assert in_document_words("Who is Oracle's CEO?", long_forms) == "Who is Oracle's Chief Executive Officer?"
    assert in_document_words("Who is the CEO of Oracle and the CFO?", long_forms) == \
        "Who is the Chief Executive Officer of Oracle and the CFO?"
    assert in_document_words("What does the PEP do?", long_forms) == "What does the PEP do?"
    assert in_document_words("who is the ceo?", long_forms) == "who is the ceo?"


def test_a_pasted_wall_of_capitals_asks_the_documents_about_a_few_acronyms_only() -> None:
    """Each acronym asked is searched for in every passage: 9,000 of them took minutes a question."""
    asked: list[str] = []
    wall = " ".join(f"{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}X" for i in range(9000))
    in_document_words(wall + "?", lambda terms: asked.extend(terms) or {})
    assert len(asked) == MAX_ACRONYMS


def test_a_question_is_asked_again_in_short_forms_only_where_the_sentences_say_those() -> None:
    acronyms = defined_acronyms(TEXT)
    question = "Does the overall Risk Management Framework process change?"
    said_short = ["Agencies follow the NIST Risk Management Framework (RMF).", "The RMF process will not change.",
                  "The RMF is reviewed yearly."]
    assert shortened_for(question, acronyms, said_short) == "Does the overall RMF process change?"
    said_long = ["The Risk Management Framework was revised.", "Agencies follow the Risk Management Framework (RMF)."]
    assert shortened_for(question, acronyms, said_long) is None
    assert shortened_for("What does the policy engine decide?", acronyms, said_short) is None


def test_a_long_form_the_question_says_gets_the_acronym_the_sentences_say() -> None:
    """"What does a continuous diagnostics and mitigation system tell the policy engine …?" missed "An enterprise
    CDM system provides the policy engine with the information about the asset …": the sentence says the acronym."""
    acronyms = {"CDM": "Continuous Diagnostics and Mitigations", "ZT": "Zero trust", "ZTA": "zero trust architecture",
                "PEP": "policy enforcement point", "PEPs": "policy enforcement points", "PE": "Policy engine"}
    assert with_acronyms("What does a continuous diagnostics and mitigation system tell the policy engine?",
                         acronyms) == ("What does a continuous diagnostics and mitigation (CDM) system tell the "
                                       "policy engine (PE)?")  # singular or plural, any case
    # the longest long form where two overlap, each once; an acronym the question says already is left alone
    assert with_acronyms("How does a zero trust architecture differ from zero trust?", acronyms) == \
        "How does a zero trust architecture (ZTA) differ from zero trust (ZT)?"
    assert with_acronyms("What do policy enforcement points do?", acronyms) == \
        "What do policy enforcement points (PEPs) do?"
    assert with_acronyms("Is the PE the policy engine?", acronyms) == "Is the PE the policy engine?"
    # only the acronyms the documents say more than their long forms (and not throughout), when they can tell
    said = with_acronyms("How does a zero trust architecture use a continuous diagnostics and mitigation system?",
                         acronyms, lambda pairs: {a for a, _ in pairs if a == "CDM"})
    assert said == "How does a zero trust architecture use a continuous diagnostics and mitigation (CDM) system?"
