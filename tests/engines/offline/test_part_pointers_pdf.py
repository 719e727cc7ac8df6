"""A later part of a multi-part question that points back at the part before it ("…, and what is it meant to
establish?", "… when a ZTA is built that way?", "… and where it applies …") is read against that part, on NIST SP
800-207: searched for what it points at, answered by the earlier part's sentence when that one
says both (never "not found" beside it), and a clause the question asks about keeps the question's own words."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.front_matter import asks_about_document
from memory_bank.engines.offline.sides import compared_sides
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.part_pointers import pointed_subject, read_pointers
from memory_bank.text.question_parts import question_parts


@pytest.fixture(scope="module")
def nist(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # the whole publication: its preface says "It is meant to aid understanding of zero trust …", section 5 "In
    # ZTA, the PA is the key component for resource access", each a sentence a part searched alone meets
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path_factory.mktemp("parts"))
    bank.ingest_file(nist_pdf)
    return bank


def test_a_part_answered_by_the_earlier_parts_sentence_is_not_said_unanswered(nist: MemoryBank) -> None:
    """"what is it meant to establish?" alone met the preface ("It is meant to aid …") and was "not found"
    beside the sentence that says both who manages TIC and what it is intended to establish."""
    answer = nist.run("Who manages the Trusted Internet Connections initiative, and what is it meant to "
                      "establish?").answer
    assert NOT_FOUND not in answer, answer
    assert "jointly managed by OMB" in answer and "network security baseline" in answer, answer


def test_that_way_is_read_as_the_earlier_parts_subject(nist: MemoryBank) -> None:
    """"… when a ZTA is built that way?" was answered from section 5 ("the PA is the key component …"): the way
    is the software defined perimeter the first part asked to spell out, whose passage says what the PA does."""
    answer = nist.run("What does SDP stand for, and what does the policy administrator do when a ZTA is built "
                      "that way?").answer
    assert "oftware defined perimeter" in answer, answer
    assert "network controller" in answer, answer


def test_a_part_whose_pointer_is_read_is_answered_only_by_what_it_asks_of_the_subject(nist: MemoryBank) -> None:
    """"who invented it?" read as "who invented software defined perimeter?" met "The Cloud Security Alliance (CSA)
    has produced a framework for Software Defined Perimeter (SDP)" by the subject's words alone: the publication
    never says who invented it, and a sentence saying the subject is no answer to what is asked of it."""
    answer = nist.run("What does SDP stand for, and who invented it?").answer
    assert "oftware defined perimeter" in answer, answer
    assert answer.splitlines()[-1].endswith(NOT_FOUND), answer


def test_a_part_asking_more_of_the_earlier_subject_is_answered_beside_its_answer(nist: MemoryBank) -> None:
    """"what made that possible?" alone met "Access rules are made as granular as possible …" (section 2) and was
    "not found": what made the change possible is said in 1.1, beside the sentence the first part was answered
    by ("As technology matures, it is becoming possible to continually analyze …")."""
    answer = nist.run("Has the way federal agencies enforce security policies changed, and what made that "
                      "possible?").answer
    assert NOT_FOUND not in answer, answer
    assert "As technology matures" in answer, answer


def test_a_clause_the_question_asks_about_is_asked_in_its_words(nist: MemoryBank) -> None:
    """"… in what it assumes about trust and where it applies security capabilities?" was split into a second
    "question" "where it applies security capabilities?", and the comparison's sentence on TIC 1.0 and 2.0 was
    refused for not saying "TIC 3": the answer said the first part was not found."""
    answer = nist.run("How does TIC 3.0 differ from TIC 1.0 and 2.0 in what it assumes about trust and where it "
                      "applies security capabilities?").answer
    assert NOT_FOUND not in answer, answer
    assert "inside of the perimeter" in answer and "single PEP at the agency perimeter" in answer, answer


def test_pointers_are_read_only_where_they_agree() -> None:
    assert pointed_subject("Who runs the Trusted Internet Connections initiative?") == (
        "the Trusted Internet Connections initiative")
    assert pointed_subject("When Apple sells an iPhone, what separate obligations does the sale include?") == (
        "separate obligations")
    assert read_pointers("what is it meant to establish?", "the TIC initiative") == (
        "what is the TIC initiative meant to establish?")
    assert read_pointers("how should an organization handle them?", "privacy problems") == (
        "how should an organization handle privacy problems?")
    # "it" is no plural's, "them" no one thing's, "he" no thing's; "that" before a noun is a determiner
    assert read_pointers("how much of it does it expect?", "remaining obligations") == "how much of it does it expect?"
    assert read_pointers("how should they handle it?", "the PEP") == "how should they handle the PEP?"
    assert read_pointers("what does he do?", "the policy engine") == "what does he do?"
    assert read_pointers("is that policy static?", "the PEP") == "is that policy static?"
    assert read_pointers("what made that possible?", "the way agencies enforce policies") == (
        "what made the way agencies enforce policies possible?")


def test_a_question_part_reads_its_pointer_and_keeps_an_asked_clause_in_the_questions_words() -> None:
    assert question_parts("What does SDP stand for, and what role does the PA play when a ZTA is built that way?",
                          {"SDP": "software defined perimeter"}) == [
        "What does SDP stand for?",
        "what role does the PA play when a ZTA is built with software defined perimeter (SDP)?"]
    assert question_parts("How does TIC 3.0 differ from TIC 1.0 and 2.0 in what it assumes about trust and where it "
                          "applies security capabilities?") == [
        "How does TIC 3.0 differ from TIC 1.0 and 2.0 in what it assumes about trust?",
        "How does TIC 3.0 differ from TIC 1.0 and 2.0 in where it applies security capabilities?"]
    assert question_parts("What is the PEP, and what it does?") == ["What is the PEP, and what it does?"]


def test_the_aspect_a_comparison_asks_about_is_no_side() -> None:
    sides = compared_sides("How does TIC 3.0 differ from TIC 1.0 and 2.0 in what it assumes about trust?")
    assert sides and sides[0].own == (frozenset({"3"}), frozenset({"1", "2"}))
    # a sentence on TIC 1.0 and 2.0 need not say "TIC 3": a word both sides share ("TIC") names neither
    assert sides[0].other_sides("TIC 3", "Inherent in TIC 1.0 and TIC 2.0 is the assumption that …")


def test_a_lead_the_found_model_alone_refuses_gives_way_to_the_next_sentence_it_accepts(nist: MemoryBank) -> None:
    """"How were the gaps … grouped …?" ranked the survey's opening sentence first ("… no one vendor offers a single
    solution …"), which the found model judged no answer, and the reply was "not found" though the next sentence
    ("These gaps can be categorized into immediate deployment …") meets every constraint and the model accepts it
    clearly."""
    answer = nist.run("How were the gaps found in the vendor technology survey grouped?").answer
    assert "These gaps can be categorized into immediate deployment" in answer, answer


def test_who_is_behind_the_document_is_what_its_acknowledgments_say(nist: MemoryBank) -> None:
    """"Which body oversaw the writing of NIST SP 800-207, and which group within it was responsible for developing
    it?" was "not found": the acknowledgments (PDF p. 5) say both, in words the front matter answerer did not ask
    by ("overseen by the Federal CIO Council. The architecture subgroup is responsible for development …")."""
    answer = nist.run("Which body oversaw the writing of NIST SP 800-207, and which group within it was responsible "
                      "for developing it?").answer
    assert "overseen by the Federal CIO Council" in answer and "architecture subgroup" in answer, answer
    assert nist.run("Who oversaw this publication?").answer == answer
    # a question naming something the document is about asks about that, not the document
    assert asks_about_document("Who led the Apollo program?") == ("behind", " the Apollo program")
    assert "Federal CIO Council" not in nist.run("Who led the development of the policy engine?").answer
