"""A sentence that says the asked year of another of its events is a near miss (SQuAD dev articles' sentences)."""

from __future__ import annotations

import numpy as np

from memory_bank.engines.offline.dated_event import redated
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.ranking import Ranked, SentenceModel

TESLA = ("Tesla claimed to have developed his own physical principle regarding matter and energy that he started "
         "working on in 1892, and in 1937, at age 81, claimed in a letter to have completed a \"dynamic theory of "
         "gravity\" that \"[would] put an end to idle speculations and false conceptions\".")
ORIGIN = ("This origin of chloroplasts was first suggested by the Russian biologist Konstantin Mereschkowski in 1905 "
          "after Andreas Schimper observed in 1883 that chloroplasts closely resemble cyanobacteria.")
CONGREGATION = ("The congregation was founded in 1767, meeting initially in a sail loft on Dock Street, and in 1769 "
                "it purchased the shell of a building which had been erected in 1763 by a German Reformed "
                "congregation.")


def test_the_asked_year_said_of_another_event_does_not_date_the_asked_one() -> None:
    assert redated("Which theory was completed by Tesla in 1892?", TESLA) == ["1892"]
    assert redated("What was first suggested by Mereschkowski in 1883?", ORIGIN) == ["1883"]
    assert redated("What shell did the Methodists buy and then repair in 1767 after purchasing it?",
                   CONGREGATION) == []  # "repair" is never said: nothing to date


def test_the_event_said_in_the_asked_year_is_met() -> None:
    assert redated("What principle was Tesla working on in 1892?", TESLA) == []
    assert redated("What did Andreas Schimper observe in 1883?", ORIGIN) == []
    assert redated("Where was the congregation meeting in 1767?", CONGREGATION) == []  # the year before it dates it
    assert redated("What did the congregation purchase in 1769?", CONGREGATION) == []


def test_a_span_of_years_and_a_sentence_opening_with_the_year_are_not_read() -> None:
    assert redated("Which principle was Tesla working on between 1892 and 1937?", TESLA) == []
    renamed = ("In 1965, the corporate entity, American Broadcasting-Paramount Theatres, was renamed as the American "
               "Broadcasting Companies, while its cinema division became ABC Theatres in 1966.")
    assert redated("What was the corporate entity renamed in 1965?", renamed) == []


def test_the_ranking_counts_a_redated_event_among_the_near_miss_constraints() -> None:
    question = "Which theory was completed by Tesla in 1892?"
    pool = [Evidence(TESLA, "n0", section=("Nikola Tesla",))]
    ranked = Ranked(pool, np.zeros((1, len(SentenceModel.names()))), [0.0], [0], set(), question=question)
    assert ranked.near_miss(0) == ["1892"]
