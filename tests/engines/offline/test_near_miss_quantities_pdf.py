"""Questions for a number the documents do not give, each beside a tempting sentence that gives none (or counts
something else), and a figure whose row says "net" where the question does not: from a development set written
blind (bench/data/doc_qa_dev7.json), on real pages of Oracle's and Apple's 10-Ks."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.constraints import unsaid_measure
from memory_bank.engines.offline.verdict import verdict
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.counts import count_marks, says_count
from memory_bank.text.self_statements import asked_of_documents
from tests.support.pdf_pages import bank_of_pages

TIC = ("TIC 3.0 defines specific use cases that describe the implementation of trust zones and security capabilities "
       "across specific applications, services, and environments.")


@pytest.mark.parametrize(("question", "sentence", "unsaid"), [
    ("How many use cases has TIC 3.0 defined so far?", TIC, "count"),
    ("How much does NIST estimate it would cost to migrate its ZTA to a new provider?",
     "If one provider has a security issue or disruption, an enterprise may not be able to migrate to a new provider "
     "without extreme cost.", "amount"),
    ("What is the largest number of users NIST recommends for the first workflow?",
     "A zero trust architecture (ZTA) uses zero trust principles to plan industrial and enterprise infrastructure and "
     "workflows.", "number"),
    ("How large a GDPR fine has Oracle itself had to pay?",
     "If we are not deemed to be in compliance, it could result in enforcement actions and/or fines.", "number"),
    ("How much did Apple spend on advertising in fiscal 2022?",
     "Services net sales increased during 2022 compared to 2021 due primarily to higher net sales from advertising.",
     "amount"),
    ("How much revenue did Apple earn from search licensing?",
     "The Company earns revenue from licensing arrangements with other companies to offer their search services.",
     "amount"),
])
def test_a_number_asked_is_not_given_by_a_sentence_without_one(question: str, sentence: str, unsaid: str) -> None:
    assert unsaid in unsaid_measure(question, sentence, sentence)


def test_a_side_of_a_comparison_may_be_a_dated_change() -> None:
    """"Compare iPhone and iPad net sales in 2022: which grew …?" asks each side as "What is iPhone net sales in
    2022?", which a sentence dating how they moved answers (a year is no amount only for a sum asked "how much")."""
    sentence = "iPhone net sales increased during 2022 compared to 2021 due primarily to higher sales of new models."
    assert "amount" not in unsaid_measure("What is iPhone net sales in 2022?", sentence, sentence)


def test_a_number_naming_what_it_follows_counts_nothing() -> None:
    assert not says_count("TIC 3.0 defines specific use cases") and not count_marks("Section 4 describes them")
    assert count_marks("Section 4 describes three models") == {"#n:model"}
    assert says_count("Over 200 employees joined") and says_count("Apollo 13 carried three astronauts")


def test_an_end_said_answers_no_to_going_on() -> None:
    sentence = ("In March 2022, following Russia's invasion of Ukraine, we withdrew our operations from the Russian "
                "Federation and the Republic of Belarus.")
    assert verdict("Is Oracle still operating in Russia after the 2022 invasion of Ukraine?", sentence) == "No"
    assert verdict("Does Oracle still pay a quarterly dividend?", "Our Board declared a quarterly cash dividend "
                   "payable to stockholders of record as of the close of business on July 12, 2023.") == "Yes"


def test_what_the_user_says_of_themselves_is_not_asked_of_the_documents() -> None:
    question = ("We are a single-site organization with hardly any remote staff. Can we still benefit from a zero "
                "trust architecture?")
    assert asked_of_documents(question) == "Can we still benefit from a zero trust architecture?"
    assert asked_of_documents("We are asking: what is NIST SP 800-207?") == "We are asking: what is NIST SP 800-207?"
    assert asked_of_documents("Is ZTA new? TIC 3.0 says so.") == "Is ZTA new? TIC 3.0 says so."


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("ORACLE_2023_10K.pdf", [65], tmp_path_factory.mktemp("oracle_sheet"), embedder=embedder)


@pytest.fixture(scope="module")
def apple(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("APPLE_2022_10K.pdf", [5, 16, 23], tmp_path_factory.mktemp("apple_near"), embedder=embedder)


def test_a_row_whose_label_adds_net_is_the_figure_asked(oracle: MemoryBank) -> None:
    answer = oracle.run("How much goodwill did Oracle carry on its balance sheet at May 31, 2023, in millions of "
                        "dollars?").answer
    assert answer.startswith("Goodwill, net, 2023: 62,261"), answer


def test_a_count_of_one_kind_is_no_count_of_the_kinds_named(apple: MemoryBank) -> None:
    """"… files patent, design, copyright and trademark applications … and is currently pursuing thousands of
    applications": four kinds, and no exact number of patent applications."""
    answer = apple.run("Exactly how many patent applications was Apple pursuing around the world at the end of "
                       "fiscal 2022?").answer
    assert answer.startswith(NOT_FOUND) and "There are 4" not in answer, answer


def test_a_figure_from_a_source_no_table_names_is_not_the_total(apple: MemoryBank) -> None:
    answer = apple.run("How much revenue did Apple earn in fiscal 2022 from letting other companies offer their "
                       "search services on its platforms?").answer
    assert answer.startswith(NOT_FOUND) and "394,328" not in answer, answer
    assert "205,489" in apple.run("How much revenue did Apple earn from iPhone in 2022?").answer
