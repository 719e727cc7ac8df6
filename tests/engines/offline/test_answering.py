"""The extractive answerer on NIST-like sentences: definitions first for "What is X?", no table-of-contents lines."""

from __future__ import annotations

from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence, split_evidence
from memory_bank.engines.offline.question_types import defined_term, definition
from memory_bank.retrieval.embedding import HashingEmbedder

TRUST = [
    "It is important to balance security, usability, and cost-effectiveness when defining trust algorithms.",
    "The trust algorithm (TA) is the process used by the policy engine to grant or deny access to a resource.",
    "A contextual trust algorithm can detect an attack faster than a singular one.",
]


def test_definition_questions_and_their_terms() -> None:
    assert defined_term("What is the trust algorithm?") == "trust algorithm"
    assert defined_term("What is a policy enforcement point") == "policy enforcement point"
    assert defined_term("What is the capital of Kenya?") is None  # a relation, not a term
    assert defined_term("When was the trust algorithm defined?") is None
    assert definition(TRUST[1], "trust algorithm") == 1.0
    entry = "Policy enforcement point (PEP): This system enables connections."
    assert definition(entry, "policy enforcement point") == 2.0
    assert definition(TRUST[0], "trust algorithm") == 0.0


def test_what_is_x_prefers_the_sentence_that_defines_x(embedder) -> None:  # noqa: ANN001
    evidence = [Evidence(s, f"n{i}", "nist.pdf", (26,), 1.0) for i, s in enumerate(TRUST)]
    answer = Answerer(embedder).answer("What is the trust algorithm?", evidence)
    assert answer.text.startswith("The trust algorithm (TA) is the process")


def test_a_sentence_ending_in_a_colon_brings_the_list_it_announces(embedder) -> None:  # noqa: ANN001
    text = ("A zero trust architecture follows these basic tenets:\n\n1. All data sources are resources.\n"
            "2. All communication is secured regardless of network location.\n\n"
            "Zero trust tenets also guide migration plans for many agencies.")
    evidence = split_evidence(text, "n1", "nist.pdf", (15,), 1.0) + [
        Evidence("Tenets of zero trust are discussed by many vendors of security products.", "n2", "blog.txt")]
    answer = Answerer(embedder).answer("What are the tenets of zero trust?", evidence)
    assert answer.text.startswith("A zero trust architecture follows these basic tenets: 1. All data sources are "
                                  "resources. 2. All communication is secured")


def test_headings_and_table_of_contents_lines_are_no_evidence() -> None:
    assert split_evidence("2.1 Tenets of Zero Trust\n\nThe tenets guide design.", "n", "f", (), 1.0)[0].text \
        == "The tenets guide design."


def test_table_of_contents_lines_are_no_evidence() -> None:
    text = ("17 3.3.1 Trust Algorithm Variations .......................................... 18\n"
            "3.3.2 Network Requirements … … … 20\n\n"
            "The trust algorithm weighs every request.")
    assert [e.text for e in split_evidence(text, "n1", "nist.pdf", (7,), 1.0)] == [
        "The trust algorithm weighs every request."]


def test_what_are_the_things_prefers_the_sentence_that_lists_them(embedder) -> None:  # noqa: ANN001
    evidence = [
        Evidence("An enterprise adopts zero trust as its core strategy and plans a zero trust architecture.", "n1"),
        Evidence("Core zero trust logical components: • Policy engine (PE): this component decides on access. "
                 "• Policy administrator (PA): it opens and closes the communication path.", "n2"),
    ]
    answer = Answerer(embedder).answer("What are the core components of a zero trust architecture?", evidence)
    assert answer.text.startswith("Core zero trust logical components: • Policy engine (PE)")


def test_a_sentence_whose_subject_the_sentence_before_names_answers(embedder) -> None:  # noqa: ANN001
    """"The country's literacy level" answers a question about Kenya when the sentence before it, in the same
    passage, names Kenya; the same sentence in another passage, with nothing naming Kenya, does not."""
    question = "What is Kenya's literacy rate?"
    subject = "Kenya is a country in East Africa whose schooling reforms began in 1985."
    fact = "The country's literacy level stands at 85 percent, among the highest in the region."
    together = Answerer(embedder).answer(question, [Evidence(subject, "n1"), Evidence(fact, "n1")])
    apart = Answerer(embedder).answer(question, [Evidence(subject, "n1"), Evidence(fact, "n2")])
    assert together.found and together.text.startswith(fact)
    assert not apart.found


SCENARIO = ("Figure 3: Device Agent/Gateway Model. In a typical scenario, a subject with an enterprise-issued laptop "
            "wishes to connect to an enterprise resource. The access request is taken by the local agent, and the "
            "request is forwarded to the policy administrator. The policy administrator forwards the request to the "
            "policy engine for evaluation. If the request is authorized, the policy administrator configures a "
            "communication channel between the device agent and the resource gateway.")


def test_what_happens_is_told_in_the_documents_order_from_where_the_course_of_events_starts(embedder) -> None:  # noqa: ANN001
    """Ranked by score, the authorising sentence comes first and the scenario's opening second: a reader asking
    what happens from the request to the connection wants the steps in their order, each one whole."""
    evidence = split_evidence(SCENARIO, "n1", "nist.pdf", (23,), 1.0)
    evidence.append(Evidence("Enterprises with robust device management programs prefer this model.", "n2",
                             "nist.pdf", (24,), 0.5))
    question = "What happens from the moment a subject on an enterprise laptop requests a resource until it connects?"
    answer = Answerer(embedder).answer(question, evidence)
    assert answer.text.startswith("In a typical scenario, a subject with an enterprise-issued laptop")
    said = [answer.text.index(s) for s in ("The access request is taken", "forwards the request to the policy engine",
                                           "If the request is authorized")]
    assert said == sorted(said) and "device management" not in answer.text
    plain = Answerer(embedder).answer("Who configures the communication channel?", evidence)
    assert plain.text.startswith("If the request is authorized")  # one fact: the best sentence first, as before


def test_a_letters_address_is_no_answer_but_a_sentence_opening_alike_is(embedder) -> None:  # noqa: ANN001
    """The auditor's report opens "To the Shareholders and the Board of Directors of Apple Inc.": it repeats a
    capital-return question's words ("shareholders", "Apple") and answers nothing."""
    from memory_bank.engines.offline.evidence import answerable

    assert not answerable("To the Shareholders and the Board of Directors of Apple Inc.")
    assert not answerable("To the Board of Directors and Stockholders of Oracle Corporation")
    assert answerable("To the extent that we fail to retain employees, our results may suffer.")
    text = ("To the Shareholders and the Board of Directors of Apple Inc.\n\n"
            "The Company has a capital return program authorized by the Board of Directors.")
    evidence = split_evidence(text, "n1", "apple.pdf", (60,), 1.0)
    answer = Answerer(embedder).answer("How does Apple return capital to its shareholders?", evidence)
    assert "To the Shareholders" not in answer.text and answer.text.startswith("The Company has a capital return")


def _tied_pool(texts: list[tuple[str, str, int]]) -> list[Evidence]:
    return [Evidence(text, node, position=position) for text, node, position in texts]


OTHER = ("Elsewhere the conference also discussed the pension plans of retired clergy members and the budget of "
         "the mission boards for the next four years in detail.")


def test_a_best_sentence_pointing_back_is_read_after_the_sentence_it_points_to() -> None:
    """"This created new orders …" answers "What created them?" only with the sentence before it; that one is
    shown first, before a next-best sentence of another passage."""
    pool = _tied_pool([("At the 1996 General Conference the ordination order of transitional deacon was abolished.",
                        "n0", 0),
                       ("This created new orders known as provisional elder or provisional deacon for those who seek "
                        "to be ordained.", "n0", 1),
                       (OTHER, "n1", 0)])
    answer = Answerer(HashingEmbedder()).compose("What provided for the creation of new orders known as "
                                                 "provisional elder?", pool, [1, 2, 0], 1.0)
    assert answer.text.startswith("At the 1996 General Conference"), answer.text
    assert OTHER not in answer.text  # no room left for it


def test_a_sentence_pointing_back_to_the_best_one_comes_before_the_next_best() -> None:
    pool = _tied_pool([("Before Genghis Khan died, he assigned Ögedei Khan as his successor and split his empire "
                        "into khanates among his sons and grandsons.", "n0", 0),
                       ("He died in 1227 after defeating the Western Xia.", "n0", 1),
                       (OTHER, "n1", 0)])
    answer = Answerer(HashingEmbedder()).compose("Which empire was the last one Genghis Khan conquered before he "
                                                 "died?", pool, [0, 2, 1], 1.0)
    assert answer.text.startswith("Before Genghis Khan died") and "Western Xia" in answer.text, answer.text
    # a sentence after the best one that does not point back to it is no part of it
    pool[1] = Evidence("Ögedei died in 1241 after defeating the Western Xia.", "n0", position=1)
    answer = Answerer(HashingEmbedder()).compose("Which empire was the last one Genghis Khan conquered before he "
                                                 "died?", pool, [0, 2, 1], 1.0)
    assert OTHER in answer.text and "Western Xia" not in answer.text, answer.text
    # nor is one that opens with a possessive: it tells of others ("His friends …"), not of the same subject
    pool[1] = Evidence("His friends thought that he had drowned in the river near the town.", "n0", position=1)
    answer = Answerer(HashingEmbedder()).compose("Which empire was the last one Genghis Khan conquered before he "
                                                 "died?", pool, [0, 2, 1], 1.0)
    assert OTHER in answer.text and "drowned" not in answer.text, answer.text


def test_a_yes_no_answer_opens_with_the_sentence_judged_not_the_one_before_it() -> None:
    """The verdict is read from the answer's first sentence: "This survey concluded … not mature enough" is a No,
    the sentence before it ("The current maturity … was surveyed …") says nothing either way."""
    pool = _tied_pool([("The current maturity of zero trust components and solutions was surveyed during the "
                        "research.", "n0", 0),
                       ("This survey concluded that the current state of the ZTA ecosystem is not mature enough for "
                        "widespread adoption.", "n0", 1)])
    answer = Answerer(HashingEmbedder()).compose("Did NIST's survey find the ZTA ecosystem mature enough for "
                                                 "widespread adoption?", pool, [1, 0], 1.0)
    assert answer.used[0].text.startswith("This survey concluded"), answer.text
