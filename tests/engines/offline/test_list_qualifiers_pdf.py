"""A list question is answered by the list its qualifier points at, on real pages: a list that says little of what
the question qualifies its items by loses to the place that does, and a sentence naming items there opens the
answer; sub-section categories of the asked kind are no
answer to a question asking for items inside one of them; "how should X decide which Y … first" asks the grounds
of a choice, not the steps of the change it names."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.inline_items import names_items
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.asks import asks_for_items, item_noun
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def components_and_hybrid(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 18-19 (§3 Logical Components: the policy engine, administrator and enforcement point) and 45 (§7.2
    # Hybrid ZTA and Perimeter-Based Architecture: "the common elements (e.g., ID management, device management,
    # event logging) are flexible enough to operate in a ZTA and perimeter-based hybrid security architecture")
    return bank_of_pages("NIST.SP.800-207.pdf", [17, 18, 44], tmp_path_factory.mktemp("hybrid"), embedder=embedder)


def test_a_list_saying_none_of_the_qualifier_is_not_the_answer(components_and_hybrid: MemoryBank) -> None:
    """The components the question asks for are those of a hybrid zero trust and perimeter-based enterprise: §3's
    famous list says none of "hybrid", "perimeter-based", "shared"; it was given whole."""
    answer = components_and_hybrid.run("In a hybrid zero trust and perimeter-based enterprise, which shared "
                                       "components have to work under both models?").answer
    assert "The documents give" not in answer and "Policy administrator (PA)" not in answer, answer
    assert "ID management, device management, event logging" in answer, answer


def test_a_sentence_naming_the_items_opens_the_answer() -> None:
    """With no list to give, the best sentence said the question's words and named no component ("Most enterprise
    infrastructures will operate in a hybrid …"); the one naming them inline ranked third."""
    assert names_items("The enterprise needs to make sure that the common elements (e.g., ID management, device "
                       "management, event logging) are flexible enough to operate in a ZTA.")
    assert names_items("Competitors include: Amazon, Microsoft, Google and IBM.")
    assert names_items("… companies in the world, including Amazon.com, Inc., Microsoft Corporation, Intel Corporation "
                       "and SAP SE.")  # a full stop inside a name
    assert names_items("The handbook defines two types of security capabilities: (1) Universal Security Capabilities "
                       "that are enterprise-level and (2) Policy Enforcement Point Capabilities.")
    assert not names_items("Most enterprise infrastructures will operate in a hybrid zero trust/perimeter-based mode "
                           "while continuing to invest in IT modernization initiatives, and improve processes.")
    assert not names_items("This includes the time of the request, the location, and the device used to make it, "
                           "which the policy engine weighs against the resource's own requirements.")


def test_the_list_its_title_names_is_still_given(components_and_hybrid: MemoryBank) -> None:
    answer = components_and_hybrid.run("What are the logical components of a zero trust architecture?").answer
    assert answer.startswith("The documents give 3 components"), answer
    assert "Policy administrator (PA)" in answer, answer


@pytest.fixture(scope="module")
def migration_steps(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 46-50: the seven steps of 7.3, "7.3.4 Formulating Policies for the ZTA Candidate" on p. 48 saying
    # "An enterprise may wish to start with a low-risk business process for the first transition to ZTA"
    return bank_of_pages("NIST.SP.800-207.pdf", [45, 46, 47, 48, 49], tmp_path_factory.mktemp("steps"),
                         embedder=embedder)


def test_how_to_choose_what_to_move_first_is_no_list_of_steps(migration_steps: MemoryBank) -> None:
    """It got the seven steps of 7.3, each by its title and first sentence: the grounds of the choice (a low-risk
    process first) were not among them."""
    answer = migration_steps.run("How should an agency decide which business process to move to a zero trust "
                                 "architecture first?").answer
    assert "The documents give 7 steps" not in answer and "7.3.1 Identify Actors" not in answer, answer


def test_how_to_begin_the_change_is_still_its_steps(migration_steps: MemoryBank) -> None:
    answer = migration_steps.run("How should an enterprise begin migrating to a zero trust architecture?").answer
    assert "7.3.1 Identify Actors on the Enterprise" in answer, answer


def test_a_choice_before_the_change_asks_no_items() -> None:
    assert not asks_for_items("How should an agency decide which business process to move to ZTA first?")
    assert not asks_for_items("How can an enterprise choose what workflow to migrate first?")
    assert item_noun("How should an enterprise begin migrating to ZTA?") == "steps"
    assert item_noun("How should an enterprise roll out its first workflow and move to ZTA?") == "steps"


@pytest.fixture(scope="module")
def risk_factors(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 8-12 of Apple's 10-K: Item 1A opens and its first two categories, "Macroeconomic and Industry
    # Risks" (its risks of international trade, war, natural disasters, …) and "Business Risks"
    return bank_of_pages("APPLE_2022_10K.pdf", [7, 8, 9, 10, 11], tmp_path_factory.mktemp("risks"),
                         embedder=embedder)


def test_risks_of_one_kind_are_not_the_risk_categories(risk_factors: MemoryBank) -> None:
    """"Risks related to its global operations" are risks inside a category; the answer was the categories'
    titles ("Macroeconomic and Industry Risks", "Business Risks"), each with its first sentence."""
    answer = risk_factors.run("What risks does the Company face related to its global operations?").answer
    assert "The documents give" not in answer and "Business Risks" not in answer, answer


def test_the_risk_categories_answer_what_risks_apple_faces(risk_factors: MemoryBank) -> None:
    answer = risk_factors.run("What risks does the Company face?").answer
    assert answer.startswith("The documents give") and "Business Risks" in answer, answer


def test_what_something_has_to_provide_asks_for_its_requirements(tmp_path_factory: pytest.TempPathFactory,
                                                                  embedder: CachedEmbedder) -> None:
    """"What does an enterprise's network have to provide before it can support a ZTA?" names no kind of item; the
    answer is §3.4.1 "Network Requirements to Support ZTA" (PDF pp. 30-31), which it got as one prose sentence."""
    for question in ("What does an enterprise's network have to provide before it can support a zero trust "
                     "architecture?", "What must the network be able to do to support a ZTA?"):
        assert asks_for_items(question) and item_noun(question) == "requirements", question
    assert item_noun("What does the PEP do?") is None and item_noun("What does Apple need to pay in taxes?") is None
    bank = bank_of_pages("NIST.SP.800-207.pdf", [17, 18, 29, 30], tmp_path_factory.mktemp("network"),
                         embedder=embedder)
    answer = bank.run("What does an enterprise's network have to provide before it can support a zero trust "
                      "architecture?").answer
    assert "basic network connectivity" in answer and "observe all network traffic" in answer, answer


def test_items_worded_as_questions_are_the_questions_asked_for(tmp_path_factory: pytest.TempPathFactory) -> None:
    """§6.6 (PDF pp. 43-44) lists what an agency must understand as four questions ("What is connected?", "Who is
    using the network?", …) under a lead-in that says "components and actors": asked for "basic questions", the
    answer was two prose sentences about the CDM program."""
    bank = bank_of_pages("NIST.SP.800-207.pdf", [42, 43], tmp_path_factory.mktemp("cdm"))
    answer = bank.run("What basic questions does the DHS CDM program want an agency to be able to answer about its "
                      "own infrastructure?").answer
    for asked in ("What is connected?", "Who is using the network?", "What is happening on the network?",
                  "How is data protected?"):
        assert asked in answer, answer


def test_a_vague_kind_of_a_named_kind_asks_for_the_named_one() -> None:
    """"what kinds of devices or software can it use …?" asks for devices: read as "kinds", any list matched, and
    §7's kinds of migration were given for the devices that guard a micro-segment."""
    assert item_noun("If an enterprise builds its ZTA around micro-segmentation, what kinds of devices or software "
                     "can it use to guard each resource?") == "devices"
    assert item_noun("What types of risks does Apple face?") == "risks"
    assert item_noun("What kinds of deployment models are there?") == "models"
    assert item_noun("What kinds of programming did ABC air?") == "kinds"  # no kind of item named after "of"
    assert item_noun("What categories of input feed the trust algorithm?") == "categories"  # not "5 input"


def test_a_sentence_naming_items_opens_only_an_answer_whose_head_asks_for_items() -> None:
    """"What runs from the riverside to higher parts of the city center?" names "parts" after its head has passed;
    a sentence listing buildings opened its answer in place of "Stairs from the riverside …" (SQuAD seed 21)."""
    from memory_bank.text.asks import kind_is_head

    assert not kind_is_head("What runs from the riverside to higher parts of the city center?")
    assert kind_is_head("In a hybrid zero trust and perimeter-based enterprise, which shared components have to "
                        "work under both models?")
    assert kind_is_head("What are the common elements of a hybrid ZTA?")
