"""A sentence that denies what the question takes for granted is a near miss, whatever words it shares."""

from __future__ import annotations

import numpy as np

from memory_bank.engines.offline.denied import denied
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.ranking import Ranked, SentenceModel

KENNEDY = ("Despite Kennedy's rhetoric, he did not immediately come to a decision on the status of the Apollo "
           "program once he became president.")
ONLY = "Lepidodinium is the only dinophyte that has a chloroplast that's not from the rhodoplast lineage."


def test_a_sentence_negating_the_asked_act_denies_it() -> None:
    question = "What decision did Kennedy immediately make on the status of the Apollo program?"
    assert denied(question, KENNEDY) == ["not immediately decision"]
    # the same words said without a negation answer it
    assert denied(question, "Kennedy immediately made a decision on the status of the Apollo program.") == []


def test_a_negation_elsewhere_or_a_question_that_asks_it_is_no_denial() -> None:
    # the negation bears on a side clause that says one of the asked words at most
    assert denied("Which program did Kennedy fund in 1962?",
                  "Kennedy funded the Apollo program in 1962, though he did not like its cost.") == []
    # a yes/no question is answered "No." by the sentence; a question asking with a negation asks about it
    assert denied("Did Kennedy immediately make a decision on the Apollo program?", KENNEDY) == []
    assert denied("Why did Kennedy not immediately make a decision on the Apollo program?", KENNEDY) == []


def test_another_than_the_only_one_is_presumed_in_vain() -> None:
    question = "Besides Lepidodinium, which dinophyte has a chloroplast that is not from the rhodoplast lineage?"
    assert denied(question, ONLY) == ["only"]
    assert denied("Which dinophyte has a chloroplast that is not from the rhodoplast lineage?", ONLY) == []
    assert denied("Besides Karenia, which dinophyte has a chloroplast that is not from the rhodoplast lineage?",
                  ONLY) == []  # the only one the sentence names is not the one set aside


def test_the_ranking_counts_a_denial_among_the_near_miss_constraints() -> None:
    question = "What decision did Kennedy immediately make on the status of the Apollo program?"
    pool = [Evidence(KENNEDY, "n0", section=("Apollo program",))]
    ranked = Ranked(pool, np.zeros((1, len(SentenceModel.names()))), [0.0], [0], set(), question=question)
    assert ranked.near_miss(0) == ["not immediately decision"]


def test_with_turned_without_is_a_denial() -> None:
    sentence = ("The Instructions for the Visitors of Parish Pastors in Electoral Saxony (1528), drafted by "
                "Melanchthon with Luther's approval, stressed the role of repentance.")
    assert denied("Who drafted the Instructions for the Visitors of Parish Pastors without Luther's approval?",
                  sentence) == ["with luther's"]
    assert denied("Who drafted the Instructions for the Visitors of Parish Pastors with Luther's approval?",
                  sentence) == []


def test_a_name_the_sentence_sets_aside_is_not_what_it_speaks_of() -> None:
    sentence = "Outside the United States the church is divided into seven central conferences: Africa, Congo."
    assert denied("How many central conferences is the United States divided into?", sentence) == [
        "outside United States"]
    assert denied("How many central conferences are outside the United States?", sentence) == []
    assert denied("How many central conferences does the church have in Africa?", sentence) == []


def test_a_negated_name_or_a_negation_that_denies_nothing_is_no_denial() -> None:
    """"has not been given a Nobel Prize" denies the giving, not declining one; "It was not until the late 1950s
    that …" says when, and denies nothing (both lost answerable SQuAD questions)."""
    assert denied("According to the Nobel Foundation what has to happen before someone can decline a prize?",
                  'The Nobel Foundation said, "Any rumor that a person has not been given a Nobel Prize because he '
                  'made known his intention to refuse the reward is ridiculous".') == []
    assert denied("What kind of programs can be credited for ABC's success in the late 1950s?",
                  "It was not until the late 1950s that the ABC network became a serious contender to NBC and "
                  "CBS.") == []


def test_a_set_aside_name_is_a_whole_word_of_the_question() -> None:
    """"… currencies other than U.S. Dollars …" set aside a "U" that any question with a "u" in it seemed to name:
    "How does Oracle put its results on a constant currency basis …?" was "not found"."""
    said = ("To present this information, current and comparative prior period results for entities reporting in "
            "currencies other than U.S. Dollars are converted into U.S. Dollars at constant exchange rates.")
    assert denied("How does Oracle put its results on a constant currency basis when it compares fiscal years?",
                  said) == []
    assert denied("How many conferences does the church have in the United States?",
                  "Outside the United States the church is divided into seven central conferences.") == [
        "outside United States"]


SCHMITT = ("Dr. Harrison Schmitt, a geologist, was the first NASA scientist astronaut to fly in space, and landed on "
           "the Moon on the last mission, Apollo 17.")
RUBISCO = ("Rubisco has a problem—it has trouble distinguishing between carbon dioxide and oxygen, so at high oxygen "
           "concentrations, rubisco starts accidentally adding oxygen to sugar precursors.")


def test_a_question_asking_by_a_negation_needs_a_sentence_saying_one() -> None:
    # the sentence says the thing happened: the question's "never" / "no trouble" is met by nothing
    assert denied("Which NASA scientist astronaut never flew in space?", SCHMITT) == ["not said: never"]
    assert denied("What enzyme has no trouble telling carbon dioxide from oxygen?", RUBISCO) == ["not said: no"]
    # a negation or a privation said otherwise answers it: "lost", "the exceptions of", "disagreed"
    assert denied("What don't chloroplastidan chloroplasts have?",
                  "Chloroplastidan chloroplasts have lost the peptidoglycan wall between their double membrane, "
                  "and have replaced it with an intermembrane space.") == []
    assert denied("Which major cities in Eastern Europe were not destroyed by the Mongol invasion?",
                  "Over the course of three years, the Mongols destroyed and annihilated all of the major cities of "
                  "Eastern Europe with the exceptions of Novgorod and Pskov.") == []
    assert denied("What analyst did not agree with the ruling of the incomplete pass?",
                  "CBS analyst and retired referee Mike Carey stated he disagreed with the call and felt the review "
                  "clearly showed the pass was complete.") == []
    # a negation in a side clause is not what is asked ("… so that it is not trapped by proprietary formats")
    assert denied("Besides the usual performance and stability, what should an enterprise weigh when judging service "
                  "providers, so that it is not trapped by proprietary formats?",
                  "To mitigate associated risks, enterprises should evaluate service providers on a holistic basis by "
                  "considering factors such as vendor security controls, enterprise switching costs, and supply chain "
                  "risk management in addition to more typical factors such as performance, stability, etc.") == []
    # a word that only opens like a privation ("mission", "united") says none
    assert denied("Which astronaut never flew on a mission?", "Schmitt flew on the last mission of the United "
                  "States program.") == ["not said: never"]


def test_the_one_that_and_a_count_of_those_set_aside_leave_no_other() -> None:
    lineage = ("The second two are the largest, and the green chloroplast lineage is the one that contains the land "
               "plants.")
    assert denied("Besides the green lineage, which primary chloroplast lineage contains the land plants?",
                  lineage) == ["only"]
    sites = ("The league eventually narrowed the bids to three sites: New Orleans' Mercedes-Benz Superdome, Miami's "
             "Sun Life Stadium, and the San Francisco Bay Area's Levi's Stadium.")
    assert denied("Besides the Superdome, Sun Life Stadium and Levi's Stadium, which fourth site did the league keep "
                  "in the running?", sites) == ["only 3"]
    # two set aside of the three counted leave the third to answer
    assert denied("Besides the Superdome and Sun Life Stadium, which site did the league keep in the running?",
                  sites) == []


def test_a_negation_in_a_premise_or_a_condition_is_not_what_is_asked() -> None:
    """bench/data/doc_qa_dev2.json: "can't" said before the question proper, or in an "in case" clause, refused
    every sentence that answers (none says a negation)."""
    assert denied("An agency can't lock everything down without stopping work, so how is it supposed to handle the "
                  "risk that's left?", "The risks associated with performing the given mission must be identified "
                  "and evaluated, and either accepted or mitigated.") == []
    assert denied("How does Apple protect itself in case the banks on the other side of its hedging contracts can't "
                  "pay up?", "The Company generally enters into master netting arrangements, which are designed to "
                  "reduce credit risk.") == []
    # the question proper's own negation still asks for one
    assert denied("An agency runs many programs, so which program did not adopt zero trust?",
                  "Every program adopted zero trust in 2020.") == ["not said: not"]


def test_a_question_asking_how_well_or_how_it_compares_presumes_nothing_a_negation_denies() -> None:
    """bench/data/doc_qa_dev3.json: the answer says where the firewalls fall short ("cannot protect subjects
    outside"), which is what the question asks, not a denial of something it takes for granted."""
    sentence = ("This helps block attackers from the internet, but the TICs and perimeter firewalls are less useful "
                "for detecting and blocking attacks from inside the network and cannot protect subjects outside of "
                "the enterprise perimeter.")
    assert denied("How well do TIC and agency perimeter firewalls protect against attacks from the internet, compared "
                  "with attacks from inside the network or subjects outside the perimeter?", sentence) == []
    assert denied("Why do perimeter firewalls protect subjects outside the perimeter?", sentence) != []
