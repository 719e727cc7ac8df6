"""The offline answerer's sentence ranking: the features it reads and the order they give."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence, split_evidence
from memory_bank.engines.offline.question_types import has_type
from memory_bank.engines.offline.ranking import SentenceModel, SentenceRanker
from memory_bank.text.tokens import stems

PASSAGE = ("The pressure test of the new boiler began on the morning of 3 March 1911 and was soon plagued with "
           "trouble. First the stokers noticed a sharp smell of burning oil near the lower valves. "
           "The test was stopped before noon. Boilers of that kind were tested every spring by the harbour board's "
           "inspectors.")
ELSEWHERE = [Evidence("The harbour board bought its first steam tug in 1908.", "n3", prior=0.5, position=0)]
QUESTION = "What was the first trouble noticed during the pressure test of the boiler?"


def test_the_features_are_the_models_columns_and_context_needs_the_sentence_before(embedder) -> None:  # noqa: ANN001
    evidence = split_evidence(PASSAGE, "n1", "log.txt", (), 1.0) + ELSEWHERE
    ranked = SentenceRanker(embedder).run(QUESTION, evidence)
    names = SentenceModel.names()
    assert ranked is not None and ranked.features.shape == (len(evidence), len(names))
    context = ranked.features[:, names.index("context")]
    assert context[1] > 0.0  # "First the stokers ..." gains the question's words from the sentence before it
    assert context[0] == 0.0 and context[4] == 0.0  # a first sentence; another passage's
    assert np.allclose(ranked.scores, ranked.features @ SentenceModel().weights())


def test_the_answer_that_follows_the_sentence_repeating_the_question_ranks_next(embedder) -> None:  # noqa: ANN001
    """Read alone, "First the stokers noticed ..." matches the question less than the inspectors' sentence of the
    same passage; after the sentence that names the pressure test it is the likelier answer, and ranks above it."""
    evidence = split_evidence(PASSAGE, "n1", "log.txt", (), 1.0) + ELSEWHERE
    with_context = SentenceRanker(embedder).run(QUESTION, evidence)
    without = SentenceRanker(embedder, replace(SentenceModel(), context=0.0, anaphor_context=0.0)).run(
        QUESTION, evidence)
    assert with_context is not None and without is not None
    assert with_context.order[:2] == [0, 1]
    assert without.order.index(3) < without.order.index(1)  # the check above can fail
    answer = Answerer(embedder).answer(QUESTION, evidence)
    assert answer.found and "sharp smell" in answer.text


def test_without_its_passage_the_following_sentence_gains_nothing(embedder) -> None:  # noqa: ANN001
    """The same sentence read alone (its passage's first sentence not shown) has no context to gain."""
    follow = split_evidence(PASSAGE, "n1", "log.txt", (), 1.0)[1]
    ranked = SentenceRanker(embedder).run(QUESTION, [follow, *ELSEWHERE])
    assert ranked is not None and ranked.features[0, SentenceModel.names().index("context")] == 0.0


FILING = [("Acme employees received more than three million hours of training in fiscal 2023.", "n1"),
          ("Our contributions to the Acme 401(k) Plan were $198 million in fiscal 2023.", "n2"),
          ("As of May 31, 2023, we employed approximately 164,000 full-time employees.", "n3")]


def test_how_many_is_answered_by_the_sentence_counting_the_noun_in_the_companys_own_filing(embedder) -> None:  # noqa: ANN001
    """The counting sentence says "we", not "Acme", and neither "fiscal" nor "end": the sentences that repeat those
    words beside other figures outscored it. It counts the asked noun, and the filing's name says whose it is."""
    evidence = [Evidence(text, node, source="ACME_2023_10K.pdf", prior=0.5, position=0) for text, node in FILING]
    question = "How many employees did Acme have at the end of fiscal 2023?"
    answerer = Answerer(embedder)
    ranked = answerer.rank(question, evidence)
    assert ranked is not None and ranked.pool[ranked.lead()].node_id == "n3"
    answer = answerer.answer_ranked(question, ranked)
    assert answer.found and answer.text.startswith("As of May 31, 2023, we employed approximately 164,000")


def test_a_who_question_is_answered_by_a_name_it_does_not_already_hold() -> None:
    asked = set(stems("Who is Apple's independent auditor?"))
    # "Apple Inc." is the question's own name with its suffix, not the auditor's
    assert not has_type("We have served as Apple Inc.’s auditor since 2009.", "name", asked)
    assert has_type("The Company’s independent registered public accounting firm, Ernst & Young LLP, has issued an "
                    "audit report.", "name", asked)
    assert has_type("Denver linebacker Von Miller was named Super Bowl MVP.", "name", set(stems("Who was named MVP?")))


def test_the_documents_own_entry_for_a_term_defines_it_more_surely_than_a_sentence_in_passing() -> None:
    from memory_bank.engines.offline.question_types import defined_term, definition

    assert defined_term("What does the PA do?") == "PA" and defined_term("What is the policy engine?") == \
        "policy engine"
    assert defined_term("What is the role of the policy administrator in granting access?") == "policy administrator"
    assert defined_term("What is the capital of Kenya?") is None
    entry = "• Policy administrator (PA): This component is responsible for establishing the communication path."
    assert definition(entry, "PA") == 2.0 and definition("PA: the policy administrator.", "PA") == 2.0
    assert definition("The PA is also responsible for issuing the command to terminate it.", "PA") == 1.0
    assert definition("The PEP communicates with the PA to forward requests.", "PA") == 0.0


COMPONENTS = [("• Policy engine (PE): This component is responsible for the ultimate decision to grant access to a "
               "resource for a given subject.", "n1"),
              ("• Policy administrator (PA): This component is responsible for establishing and/or shutting down "
               "the communication path between a subject and a resource.", "n1"),
              ("The PA is also responsible for issuing the command to terminate the connection based on policy.",
               "n2")]


def test_what_a_component_does_is_answered_by_its_entry_in_the_list_of_components(embedder) -> None:  # noqa: ANN001
    """The PE's entry says "grant access", the question's words; the PA's own entry is what it asks for."""
    evidence = [Evidence(text, node, source="sp800-207.pdf", prior=0.5, position=k)
                for k, (text, node) in enumerate(COMPONENTS)]
    answerer = Answerer(embedder)
    for question in ("What is the role of the policy administrator in granting access?", "What does the PA do?"):
        answer = answerer.answer(question, evidence)
        assert answer.found and answer.text.startswith("Policy administrator (PA): This component"), answer.text


def test_is_it_growing_and_why_is_answered_by_the_sentence_that_states_the_change_and_its_cause(
        embedder) -> None:  # noqa: ANN001
    """The sentence naming the business's growth shares the question's words; the one that says revenues increased
    due to cloud growth answers it."""
    from memory_bank.text.trends import asked_change_marks, change_marks

    factors = ("Our cloud and license business' revenue growth is affected by many factors, including general "
               "economic conditions and the renewal of our cloud services contracts.")
    moved = ("Our cloud and license business' total revenues increased in fiscal 2023 due to growth in our cloud "
             "services and license support revenues as customers purchased our technologies.")
    question = "Is Acme's cloud services revenue growing and why?"
    assert change_marks(moved) and not change_marks(factors) and asked_change_marks(question)
    assert not asked_change_marks("How many employees did Acme have?")
    evidence = [Evidence(factors, "n1", source="ACME_10K.pdf", prior=1.0, position=0),
                Evidence(moved, "n2", source="ACME_10K.pdf", prior=0.5, position=0)]
    ranked = Answerer(embedder).rank(question, evidence)
    assert ranked is not None and ranked.pool[ranked.lead()].node_id == "n2"


def test_a_change_is_asked_by_why_and_a_verb_of_change_in_one_sentence_of_the_question() -> None:
    from memory_bank.text.trends import asks_change

    assert asks_change("Why did Mac net sales increase in 2022?") and asks_change("Is the margin worsening, and why?")
    assert asks_change("Revenue increased. Why?")  # one sentence of the question: no "?" between them
    assert not asks_change("Why did it happen? Sales fell.") and not asks_change("Why is the sky blue?")
    # a pasted wall of "why" (50,000 characters) is read in one pass of its words
    assert not asks_change("why " * 12_500) and asks_change("why " * 12_500 + "increase")


# ORACLE_2023_10K.pdf: Item 1's "Competition" (PDF p. 17) and the risk factors (p. 21), as retrieval ranks them
RIVALS = "Our enterprise cloud, license and hardware offerings compete directly with certain offerings from some " \
         "of the largest and most competitive companies in the world, including Amazon.com, Inc., Microsoft " \
         "Corporation, International Business Machines Corporation, Intel Corporation, Cisco Systems, Inc., Adobe " \
         "Systems Incorporated, Alphabet Inc., Salesforce, Inc. and SAP SE, as well as other companies like " \
         "Hewlett-Packard Enterprise and Workday, Inc."
MERGERS = "Mergers, consolidations or alliances among our competitors, or acquisitions of our competitors by large " \
          "companies may result in increased competition."


def test_which_companies_a_filing_names_is_answered_by_the_sentence_naming_them(embedder) -> None:  # noqa: ANN001
    """"Which large companies does Oracle name …?" asks for things of a kind by name: the sentence listing them
    holds the asked kind, though the risk factor repeats more of the question's words and ranked first."""
    from memory_bank.engines.offline.question_types import expected_type

    question = "Which large companies does Oracle name as its main competitors?"
    assert expected_type(question) == "list"
    assert expected_type("What process does the policy engine use?") == ""  # one thing of a kind
    evidence = [Evidence(MERGERS, "risk", "ORACLE_2023_10K.pdf", (21,), 0.5, position=0),
                Evidence(RIVALS, "competition", "ORACLE_2023_10K.pdf", (17,), 0.5, position=0)]
    ranked = Answerer(embedder).rank(question, evidence)
    assert ranked is not None
    typed = SentenceModel.names().index("typed")
    assert [ranked.features[i, typed] for i in range(2)] == [0.0, 1.0]  # the risk factor names no one
    assert ranked.pool[ranked.lead()].node_id == "competition"
