"""A question that asks several things gets an answer per part, each from its own evidence and cited."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.question_parts import question_parts
from tests.support.pdf_pages import bank_of_pages


def test_only_a_clause_with_its_own_question_word_or_a_comparison_splits() -> None:
    assert question_parts("What are the core components, and how does the engine decide to grant access?") == [
        "What are the core components?", "how does the engine decide to grant access?"]
    assert question_parts("Compare the policy engine and the policy administrator") == [
        "What is the policy engine?", "What is the policy administrator?"]
    assert question_parts("What is the difference between a PEP and a PDP?") == ["What is a PEP?", "What is a PDP?"]
    for single in ("Who designed the trophy and the medal?", "Who designed the trophy and when?",
                   "Which team won Super Bowl 50?",
                   "Goldenson proposed a merger between UPT and what network in October 1954?",
                   "What was the age difference between Newton and Manning in Super Bowl 50?"):
        assert question_parts(single) == [single]


def test_a_series_of_three_questions_keeps_its_middle_one() -> None:
    assert question_parts("How many employees does Oracle have, where are they, and what is their average tenure?"
                          ) == ["How many employees does Oracle have?", "where are they?",
                                "what is their average tenure?"]
    # a comma before a relative clause is no break, in a series or not
    assert question_parts("What is the PEP, which the PA configures?") == ["What is the PEP, which the PA configures?"]
    assert question_parts("What is the PEP, which the PA configures, and what does it do?")[0] == (
        "What is the PEP, which the PA configures?")


def test_two_compared_names_share_the_words_after_the_second_and_a_colon_ends_them() -> None:
    """"Compare iPhone and iPad net sales in 2022: which grew …?" compares iPhone net sales with iPad net sales,
    not "iPhone" (the product) with the rest of the question."""
    assert question_parts("Compare iPhone and iPad net sales in 2022: which grew, which declined, and why?") == [
        "What is iPhone net sales in 2022?", "What is iPad net sales in 2022?"]
    assert question_parts("Compare ZTA and traditional perimeter security") == [
        "What is ZTA?", "What is traditional perimeter security?"]


NOTES = """The harbour of Northwind was dredged in 1921 by the Baltic Dredging Company.

The lighthouse keeper, Ada Brennan, kept the lamp lit through the storm of 1953.

The town council meets on the first Monday of every month in the old school."""


def test_a_two_part_question_gets_a_cited_item_per_part(embedder: CachedEmbedder, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    bank.ingest_text(NOTES, source="notes.txt")
    result = bank.run("Who dredged the harbour of Northwind, and who kept the lighthouse lamp lit in the storm?")
    items = result.answer.split("\n")
    assert len(items) == 2 and all(i.startswith("- ") for i in items)
    assert "Baltic Dredging" in items[0] and "Ada Brennan" in items[1]
    assert all("(notes.txt)" in i for i in items), "each item names where it was read"
    assert len({c.node_id for c in result.citations}) >= 1
    bank.clear()


def test_a_part_the_documents_do_not_answer_says_so(embedder: CachedEmbedder, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(), embedder=embedder, workdir=tmp_path / "w")
    bank.ingest_text(NOTES, source="notes.txt")
    result = bank.run("Who kept the lighthouse lamp lit in the storm, and what is the boiling point of mercury?")
    items = result.answer.split("\n")
    assert "Ada Brennan" in items[0] and items[1].endswith(NOT_FOUND)
    bank.clear()


def test_a_part_asking_what_caused_or_how_changed_the_one_before_stays_with_it() -> None:
    # alone, "what drove it?" has no subject; with the part before it is that part's reason, as "and why?" is
    assert question_parts("Did iPhone net sales grow in 2022 and what drove it?") == [
        "Did iPhone net sales grow in 2022 and what drove it?"]
    assert question_parts("What were Oracle's total revenues in fiscal 2023 and how did they change from 2022?") == [
        "What were Oracle's total revenues in fiscal 2023 and how did they change from 2022?"]
    assert question_parts("What is a PEP, what does it enforce, and what caused the change?") == [
        "What is a PEP?", "what does a PEP enforce and what caused the change?"]
    assert question_parts("What does PA stand for and what does it do?") == ["What does PA stand for?",
                                                                             "what does PA do?"]


def test_a_part_asking_only_what_the_one_before_named_stays_with_it() -> None:
    """"How many types … does the handbook define, and what are they?" was answered in two parts, the second "what
    are they? Not found in the documents." beside the sentence naming both types."""
    question = ("How many types of security capabilities does the TIC 3.0 Security Capability Handbook define, and "
                "what are they?")
    assert question_parts(question) == [question]
    assert question_parts("What are the tenets of zero trust, and who wrote them?") == [
        "What are the tenets of zero trust?", "who wrote them?"]  # a question of its own about them
    assert question_parts("What does 'PEP' stand for and what is it responsible for?") == [
        "What does 'PEP' stand for?", "what is PEP responsible for?"]


def test_since_when_opens_a_part_and_done_so_asks_the_act_again() -> None:
    assert question_parts("Does Oracle pay a dividend, and since what year has it done so?") == [
        "Does Oracle pay a dividend?", "since what year Oracle pay a dividend?"]
    assert question_parts("Which accounting firm audits Apple, and since what year has it done so?")[1] == (
        "since what year accounting firm audits Apple?")
    # another preposition's clause is answered by the sentence answering the first part: one question
    assert len(question_parts("Who coined the term zero trust, and at which firm was he working?")) == 1
    assert len(question_parts("Who designed the engine and the frame?")) == 1  # one question still


def test_a_part_the_filing_does_not_answer_is_said_apart_from_the_one_it_does(tmp_path: Path,
                                                                                embedder: CachedEmbedder) -> None:
    # PDF page 94 of Oracle's 10-K: "During fiscal 2023, 2022 and 2021, our Board of Directors declared cash
    # dividends of $1.36, $1.28 and $1.04 per share …"; it never says since when dividends are paid
    bank = bank_of_pages("ORACLE_2023_10K.pdf", [93], tmp_path, embedder=embedder)
    answer = bank.run("Does Oracle pay a dividend, and since what year has it done so?").answer
    lines = answer.splitlines()
    assert lines[0].startswith("- Yes.") and "$1.36" in lines[0], answer
    assert lines[1] == f"- Since what year Oracle pay a dividend? {NOT_FOUND}", answer
