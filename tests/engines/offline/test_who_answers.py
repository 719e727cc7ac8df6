"""A "who" answer opens with the name it asks for ("Who is Apple's independent auditor?": Ernst & Young LLP, not
the auditor's report saying what "we" are)."""

from __future__ import annotations

from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.question_types import WHO, expected_type, has_type
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.text.tokens import stems


def test_a_sentence_saying_what_we_are_names_no_one_a_who_question_asks_for() -> None:
    question = "Who is Apple's independent auditor?"
    asked = set(stems(question))
    assert expected_type(question) == WHO
    we = ("We are a public accounting firm registered with the PCAOB and are required to be independent with "
          "respect to Apple Inc.")
    assert not has_type(we, WHO, asked)
    assert has_type(we, "name", asked)  # "Where ...?" may be answered by the place such a sentence names
    assert has_type("The Company's independent registered public accounting firm, Ernst & Young LLP, has issued an "
                    "audit report.", WHO, asked)
    assert has_type("She married Jay Z in 2008.", WHO, set(stems("Who did Beyonce marry?")))


def test_a_who_answer_opens_with_the_sentence_that_names_someone() -> None:
    served = Evidence("We have served as Apple Inc.'s auditor since 2009.", "r", position=3)
    named = Evidence("The Company's independent registered public accounting firm, Ernst & Young LLP, has issued an "
                     "audit report on the Company's internal control over financial reporting.", "m", position=0)
    answer = Answerer(HashingEmbedder()).compose("Who is Apple's independent auditor?", [served, named], [0, 1], 1.0)
    assert answer.text.startswith("The Company's independent registered public accounting firm, Ernst & Young LLP")
    assert served.text in answer.text and answer.used[0] is named
    caption = Evidence("Figure 3: Device Agent/Gateway Model.", "f", position=0)
    acts = Evidence("If the request is authorized, the policy administrator configures the channel.", "f", position=1)
    plain = Answerer(HashingEmbedder()).compose("Who configures the channel?", [acts, caption], [0, 1], 1.0)
    assert plain.text.startswith(acts.text)  # it names who acts, in words: it stays first
