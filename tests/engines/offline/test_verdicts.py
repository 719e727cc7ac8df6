"""Yes/no verdicts read as a reader reads them: a double negation is a yes, a word the other way round ("lease" of
"own") a no, a claim the document calls a misconception or sets aside a no, a denied absolute a no; the sentence
stating the verdict is shown when the best sentence does not; a later part asking more of the verdict's fact is
answered from its passage. On the real PDFs' pages, and on sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.verdict import IMPLIED, SAID, stated, verdict
from tests.support.pdf_pages import bank_of_pages


@pytest.mark.parametrize(("question", "sentence", "expected"), [
    # a negation of what a clause would mean, with a negative inside the clause: a yes
    ("Can the enterprise inspect traffic it is unable to read?", "That does not mean that the enterprise is unable to "
     "inspect encrypted traffic that it sees on the network.", "Yes"),
    ("Is it possible to run the engine in the cloud?", "It is not impossible to run the engine in the cloud.",
     "Yes"),
    ("Can the enterprise inspect encrypted traffic?", "That does not mean that the enterprise can inspect "
     "encrypted traffic.", "No"),
    # a word the other way round
    ("Does Oracle own its principal manufacturing facility?", "We lease our principal manufacturing facility in "
     "Hillsboro, Oregon.", "No"),
    ("Does the company lease its headquarters?", "We own our headquarters in Austin.", "No"),
    ("Does Oracle own its principal manufacturing facility?", "We own our principal manufacturing facility.", "Yes"),
    # a claim called a misconception, or set aside
    ("Is zero trust incompatible with existing cybersecurity policies?", "There is a misconception that ZTA is a "
     "set of solutions that are incompatible with the existing view of cybersecurity.", "No"),
    ("Is it a misconception that zero trust is incompatible with existing cybersecurity?", "There is a "
     "misconception that ZTA is a set of solutions that are incompatible with the existing view of cybersecurity.",
     "Yes"),
    ("Does the architecture focus on network segments?", "The architecture focuses on protecting resources rather "
     "than network segments.", "No"),
    ("Does the architecture focus on protecting resources?", "The architecture focuses on protecting resources "
     "rather than network segments.", "Yes"),
    # an absolute asked, denied in other words
    ("Does replication fully remove the threat?", "This mitigates the risk but does not eliminate it.", "No"),
])
def test_the_verdict_reads_double_negations_turned_words_and_refuted_claims(question: str, sentence: str,
                                                                           expected: str) -> None:
    assert verdict(question, sentence) == expected


def test_how_plainly_a_sentence_states_its_verdict() -> None:
    """A lesser degree implies the "No"; a denied absolute says it; a sentence saying neither states nothing."""
    asked = "Does replication fully remove the threat of DoS attacks?"
    assert stated(asked, "Enterprises can mitigate this threat by replication.") == IMPLIED
    assert stated(asked, "This mitigates the risk but does not eliminate it.") == SAID
    assert stated(asked, "Replication is described in the guidance on cyber resiliency.") == 0
    # a neighbour's negation must bear on two of the question's words: a side remark states nothing
    side = "Replication is not described here."
    assert stated(asked, side) == SAID and stated(asked, side, 2) == 0


@pytest.fixture(scope="module")
def threats(tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    """NIST SP 800-207's section 5 (PDF pages 37-39): denial of service, stolen credentials, visibility."""
    return bank_of_pages("NIST.SP.800-207.pdf", [36, 37, 38], tmp_path_factory.mktemp("threats"))


def test_the_sentence_denying_the_absolute_asked_is_shown_with_the_no(threats: MemoryBank) -> None:
    """"Enterprises can mitigate this threat by … replicated in several locations" implies the "No"; the next
    sentence, which opens another passage node, says it: "This mitigates the risk but does not eliminate it"."""
    answer = threats.run("Does having the policy enforcement replicated in several locations fully remove the "
                         "threat of denial-of-service attacks?").answer
    assert answer.startswith("No. "), answer
    assert "does not eliminate it" in answer, answer


def test_a_double_negation_is_a_yes(threats: MemoryBank) -> None:
    """"That does not mean that the enterprise is unable to analyze encrypted traffic …" answers yes."""
    answer = threats.run("Is an enterprise still able to analyze encrypted traffic that it is unable to read?").answer
    assert answer.startswith("Yes. "), answer
    assert "metadata" in answer, answer


def test_a_claim_the_document_calls_a_misconception_is_a_no(tmp_path: Path) -> None:
    """NIST's appendix B.2.2: "There is a misconception that ZTA is … incompatible with the existing view of
    cybersecurity. Zero trust should instead be viewed as an evolution …"."""
    bank = bank_of_pages("NIST.SP.800-207.pdf", [55], tmp_path)
    answer = bank.run("Does zero trust conflict with the existing federal cybersecurity policies?").answer
    bank.clear()
    assert answer.startswith("No. "), answer
    assert "misconception" in answer, answer


def test_owning_what_the_filing_says_it_leases_is_a_no_and_where_is_said_once(tmp_path: Path) -> None:
    """Oracle's Item 2: "We lease our principal internal manufacturing facility for our hardware products in
    Hillsboro, Oregon." "… and where is it?" says no word of its own: the verdict's sentence names the place, so it
    is not answered again by another sentence naming something."""
    bank = bank_of_pages("ORACLE_2023_10K.pdf", [9, 33], tmp_path)
    answer = bank.run("Does Oracle own the principal facility where it manufactures its hardware, and where is "
                      "it?").answer
    bank.clear()
    assert answer.startswith("- No. "), answer
    assert "Hillsboro, Oregon" in answer and answer.count("\n- ") == 0, answer


def test_what_happened_after_an_event_is_what_its_passage_says_next(tmp_path: Path) -> None:
    """Apple's Item 3: the ruling, then "… issued an injunction. Epic appealed the decision."."""
    bank = bank_of_pages("APPLE_2022_10K.pdf", [19], tmp_path)
    answer = bank.run("Did the court rule for Apple on most counts of the Epic Games lawsuit, and what happened "
                      "after the ruling?").answer
    bank.clear()
    assert "Epic appealed the decision" in answer, answer
