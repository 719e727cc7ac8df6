"""A follow-up read against the task's previous question: a pronoun is what that question asked about, a count
or a year left alone asks it again; a question naming its own subject, or a first question, is read as asked."""

from __future__ import annotations

import pytest

from memory_bank.text.follow_up import MAX_CHARS, MAX_WORDS, PREVIOUS_CHARS, SUBJECT_WORDS, read_follow_up, subject_of

REVENUE = "What was Oracle's cloud services revenue in fiscal 2024?"


@pytest.mark.parametrize(("previous", "subject"), [
    (REVENUE, "Oracle's cloud services revenue"),
    ("What are the basic tenets of zero trust?", "the basic tenets of zero trust"),
    ("What does the policy engine do?", "the policy engine"),
    ("How did Oracle's revenue change in 2024?", "Oracle's revenue"),
    ("Is Oracle's cloud services revenue improving, and why?", "Oracle's cloud services revenue"),
    ("How many full-time employees did Oracle have as of May 31, 2023?", "full-time employees"),
    ("Where is Apple headquartered?", "Apple"),
    ("Why?", ""),
    # a request names its subject straight after its opening words
    ("Tell me more about the second tenet of zero trust", "the second tenet of zero trust"),
    ("Describe Oracle's cloud revenue in fiscal 2023.", "Oracle's cloud revenue"),
    ("Explain the policy engine.", "the policy engine"),
    # "and" joins a second noun phrase to the subject, or opens a clause
    ("What were Apple's net sales and operating income in 2022?", "Apple's net sales and operating income"),
    ("How do the policy engine and the policy administrator interact?", "the policy engine and the policy "
     "administrator"),
    ("What is the PE and what does it do?", "the PE"),
])
def test_the_subject_of_a_question_is_what_it_asks_about(previous: str, subject: str) -> None:
    assert subject_of(previous) == subject


@pytest.mark.parametrize(("question", "read"), [
    ("Is it improving, and why?", "Is Oracle's cloud services revenue improving, and why?"),
    ("Why did it change?", "Why did Oracle's cloud services revenue change?"),
    ("What does it do?", "What does Oracle's cloud services revenue do?"),
    ("And in 2023?", "What was Oracle's cloud services revenue in fiscal 2023?"),
])
def test_a_pronoun_or_a_year_alone_is_read_against_the_previous_question(question: str, read: str) -> None:
    follow_up = read_follow_up(question, REVENUE)
    assert follow_up is not None and follow_up.question == read and follow_up.asked == question


def test_the_reading_is_said_so_a_wrong_guess_is_seen() -> None:
    pointed = read_follow_up("Is it improving, and why?", REVENUE)
    assert pointed is not None and pointed.note() == "Reading “it” as “Oracle's cloud services revenue”."
    dated = read_follow_up("And in 2023?", REVENUE)
    assert dated is not None and dated.note() == \
        "Reading “And in 2023?” as “What was Oracle's cloud services revenue in fiscal 2023?”."


def test_how_many_counts_the_items_the_previous_question_asked_for() -> None:
    follow_up = read_follow_up("How many are there?", "What are the basic tenets of zero trust?")
    assert follow_up is not None and follow_up.question == "How many basic tenets of zero trust are there?"
    assert read_follow_up("How many are there?", REVENUE) is None  # one revenue: nothing to count


def test_a_year_asked_of_an_undated_question_dates_its_first_clause() -> None:
    follow_up = read_follow_up("And in 2022?", "Is Oracle's hardware revenue falling, and why?")
    assert follow_up is not None and follow_up.question == "Is Oracle's hardware revenue falling in 2022, and why?"
    assert read_follow_up("And in 2022?", "How did revenue change from 2021 to 2023?") is None  # which year?


@pytest.mark.parametrize("question", [
    "What is the policy engine?", "Is Oracle's hardware margin improving?", "What is it called when a team wins?",
    "When was it built by the Normans?"])
def test_a_question_naming_its_own_subject_is_read_as_asked(question: str) -> None:
    assert read_follow_up(question, REVENUE) is None


def test_a_first_question_is_read_as_asked() -> None:
    assert read_follow_up("Is it improving, and why?", "") is None
    assert read_follow_up("Is it improving, and why?", "  ") is None


def test_a_huge_previous_question_or_follow_up_is_bounded() -> None:
    previous = "What was " + "Oracle's very " * 50_000 + "revenue in 2024?"
    follow_up = read_follow_up("Is it improving?", previous)
    assert follow_up is not None and len(follow_up.subject.split()) <= SUBJECT_WORDS
    assert len(follow_up.question) < PREVIOUS_CHARS
    assert read_follow_up("Is it " + "really " * 100_000 + "improving?", REVENUE) is None
    assert read_follow_up(" ".join(["it"] * (MAX_WORDS + 1)), REVENUE) is None
    assert read_follow_up("And in 2023" + "?" * MAX_CHARS, REVENUE) is None  # three words, all marks after


HARDWARE = "What is Oracle's hardware business?"


@pytest.mark.parametrize(("question", "read"), [
    ("What was its margin?", "What was the margin of Oracle's hardware business?"),
    ("What are their main risks?", "What are the main risks of Oracle's hardware business?"),
    ("Why did its revenue fall in 2023?", "Why did the revenue of Oracle's hardware business fall in 2023?"),
])
def test_a_possessive_pronoun_is_read_as_the_previous_subject_owning_it(question: str, read: str) -> None:
    follow_up = read_follow_up(question, HARDWARE)
    assert follow_up is not None and follow_up.question == read and follow_up.pointer == question.split()[2]
    assert follow_up.note() == f"Reading “{question}” as “{read}”."


def test_a_possessive_after_a_possessive_reading_keeps_its_owner() -> None:
    follow_up = read_follow_up("Is its margin improving?", "What was the margin of Oracle's hardware business?")
    assert follow_up is not None and follow_up.question == "Is the margin of Oracle's hardware business improving?"


@pytest.mark.parametrize("question", [
    "How many shares of its common stock did Apple repurchase?", "What is its role in Apple's business?",
    "Does the company report its segments?"])
def test_a_possessive_whose_owner_the_question_names_is_read_as_asked(question: str) -> None:
    assert read_follow_up(question, HARDWARE) is None


TOTAL = "What was Oracle's total revenue in fiscal 2023?"


@pytest.mark.parametrize(("question", "previous", "read"), [
    ("What about Apple?", TOTAL, "What was Apple's total revenue in fiscal 2023?"),
    ("And Oracle?", "What were Apple’s total net sales in 2022?", "What were Oracle’s total net sales in 2022?"),
    ("And net income?", TOTAL, "What was Oracle's net income in fiscal 2023?"),
    ("And the operating margin?", TOTAL, "What was Oracle's operating margin in fiscal 2023?"),
    ("How about the PEP?", "What does the PA do?", "What does the PEP do?"),
    ("And Microsoft?", "Where is Apple headquartered?", "Where is Microsoft headquartered?"),
    ("What about 2022?", TOTAL, "What was Oracle's total revenue in fiscal 2022?"),
])
def test_what_about_asks_the_previous_question_of_a_new_subject(question: str, previous: str, read: str) -> None:
    follow_up = read_follow_up(question, previous)
    assert follow_up is not None and follow_up.question == read
    assert follow_up.note() == f"Reading “{question}” as “{read}”."


@pytest.mark.parametrize("question", [
    "And why?", "And in Europe?", "And what is Apple's revenue?", "Apple?", "What about the many kinds of "
    "plants and animals of Europe?"])
def test_what_about_without_a_short_new_subject_is_not_read_so(question: str) -> None:
    assert read_follow_up(question, TOTAL) is None


def test_what_about_after_a_question_naming_nothing_is_read_as_asked() -> None:
    assert read_follow_up("What about Apple?", "Why?") is None
    assert read_follow_up("What about Apple?", "") is None


TENETS = "What are the basic tenets of zero trust?"


@pytest.mark.parametrize(("question", "previous", "read"), [
    ("What does the third one say?", TENETS, "What does the third basic tenet of zero trust say?"),
    ("Tell me more about the second", TENETS, "Tell me more about the second basic tenet of zero trust"),
    ("Explain the first.", "What are the main policies of the company?", "Explain the first main policy of the "
     "company."),
    ("And the fifth of them?", "What does the third tenet of zero trust say?", "And the fifth tenet of zero trust?"),
    # "the last one" stands for the item itself: the question may ask one thing of it in its own verb
    ("What does the last one require?", TENETS, "What does the last basic tenet of zero trust require?"),
    ("What does the first of them involve?", TENETS, "What does the first basic tenet of zero trust involve?"),
])
def test_an_ordinal_points_into_the_list_the_previous_question_asked_for(question: str, previous: str,
                                                                           read: str) -> None:
    follow_up = read_follow_up(question, previous)
    assert follow_up is not None and follow_up.question == read


@pytest.mark.parametrize(("question", "previous"), [
    ("What does the third one say?", REVENUE),  # one revenue: no list to point into
    ("What happened in the first quarter?", TENETS),  # names the quarter
    ("What does the first tenet of zero trust say?", TENETS),
    ("What does the second one require of agencies?", TENETS),  # asks more than one thing of it
    ("Which city did the last one Genghis Khan conquered border?", TENETS),  # names someone
    ("What does the third one require from Oracle?", TENETS)])
def test_an_ordinal_naming_more_or_after_no_list_is_read_as_asked(question: str, previous: str) -> None:
    assert read_follow_up(question, previous) is None


@pytest.mark.parametrize(("question", "previous"), [
    ("What was their first plan?", "Of what material were the pellets made?"),  # one material, no name
    ("What is its first requirement?", TENETS)])  # several tenets
def test_a_possessive_not_agreeing_with_the_previous_subject_is_read_as_asked(question: str, previous: str) -> None:
    assert read_follow_up(question, previous) is None


def test_the_new_readings_are_bounded_on_a_huge_previous_question() -> None:
    previous = "What is " + "Oracle's very " * 50_000 + "hardware business?"
    for question in ("What was its margin?", "What about Apple?"):
        follow_up = read_follow_up(question, previous)
        assert follow_up is not None and len(follow_up.question) < PREVIOUS_CHARS + len(question), question
    listed = read_follow_up("What does the third one say?", "What are the basic tenets " + "and more " * 50_000)
    assert listed is not None and len(listed.question) < PREVIOUS_CHARS
    assert read_follow_up("What about " + "Apple " * 100_000 + "?", previous) is None


@pytest.mark.parametrize(("previous", "read"), [
    ("What does the third tenet of zero trust say?", "How many tenets of zero trust are there?"),
    ("What does the second policy say?", "How many policies are there?"),
    ("What does the first access box do?", "How many access boxes are there?"),
])
def test_how_many_after_a_pointed_item_counts_its_kind(previous: str, read: str) -> None:
    """"How many are there?" after "What does the third tenet … say?" counts the tenets, not the one tenet."""
    follow = read_follow_up("How many are there?", previous)
    assert follow is not None and follow.question == read


@pytest.mark.parametrize(("question", "previous", "read"), [
    ("What about Oracle?", "What were Apple's net sales and operating income in 2022?",
     "What were Oracle's net sales and operating income in 2022?"),
    ("What about Oracle?", "What are the risks and uncertainties Apple faces?",
     "What are the risks and uncertainties Oracle faces?"),  # the name in the subject is what changes
    ("How do they differ?", "What are the policy engine and the policy administrator?",
     "How do the policy engine and the policy administrator differ?"),
    ("What does it do?", "What are the policy engine and the policy administrator?", None),  # which one?
    ("What about Oracle?", "How do the policy engine and the policy administrator interact?", None),
    ("And the PEP?", "What does the PA do?", "What does the PEP do?"),
])
def test_a_subject_of_two_things_joined_by_and(question: str, previous: str, read: str | None) -> None:
    follow_up = read_follow_up(question, previous)
    assert (follow_up.question if follow_up else None) == read
