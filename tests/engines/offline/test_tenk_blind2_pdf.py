"""Answers on real pages of the two 10-Ks that the second blind set showed wrong (bench/data/doc_qa_blind2.json):
a table's footnote legend glued to the discussion after it."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.nlp import sentences
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.question_parts import question_parts
from memory_bank.text.split import split_sentences
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def oracle_amortization(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 1 names the filer; PDF pages 50-51: the amortization of intangible assets table, its legend
    # "* Not meaningful", then "Amortization of intangible assets increased in fiscal 2023 … due to …"
    return bank_of_pages("ORACLE_2023_10K.pdf", [0, 49, 50], tmp_path_factory.mktemp("oracle_amortization"),
                         embedder=embedder)


def test_a_tables_legend_is_no_negation_of_the_sentence_after_it(oracle_amortization: MemoryBank) -> None:
    """"Is Oracle's amortization of intangible assets going up, and why?" got "No. Not meaningful Amortization …
    increased …": the table's legend "* Not meaningful" opened the sentence, and its "Not" next to the asked
    words negated them."""
    answer = oracle_amortization.run("Is Oracle's amortization of intangible assets going up, and why?").answer
    assert answer.startswith("Yes."), answer
    assert "Not meaningful" not in answer, answer
    assert "acquisition of Cerner" in answer, answer


@pytest.mark.parametrize("split", [sentences, split_sentences])
def test_a_legend_opening_a_paragraph_is_a_sentence_of_its_own(split) -> None:  # noqa: ANN001
    assert split("* Not meaningful Amortization increased. It grew.") == [
        "* Not meaningful", "Amortization increased.", "It grew."]
    assert split("* Less than 1% Other revenues grew.") == ["* Less than 1%", "Other revenues grew."]
    # a bullet is no legend: "* Not all Products Are …" stays one sentence
    assert split("* Not all of our Products are sold here.") == ["* Not all of our Products are sold here."]


@pytest.fixture(scope="module")
def apple_margins(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 24-26: net sales by category (iPhone, Mac, iPad …), by segment, then the gross margin table whose
    # "Gross margin percentage" is given for Products and Services only
    return bank_of_pages("APPLE_2022_10K.pdf", [23, 24, 25], tmp_path_factory.mktemp("apple_margins"),
                         embedder=embedder)


def test_a_member_of_one_table_is_no_answer_for_the_measure_of_another(apple_margins: MemoryBank) -> None:
    """"What was the gross margin percentage on Mac sales in fiscal 2022?" got the Mac row of net sales by
    category (40,177): the question names "Mac" of that table and "Gross margin percentage", the label of rows of
    another table that gives it for Products and Services only."""
    answer = apple_margins.run("What was the gross margin percentage on Mac sales in fiscal 2022?").answer
    assert "40,177" not in answer and answer.startswith("Not found"), answer
    # a row whose table says the measure still answers
    assert "36.3%" in apple_margins.run("What was the gross margin percentage on Products in fiscal 2022?").answer
    assert "40,177" in apple_margins.run("What were Mac net sales in 2022?").answer


@pytest.fixture(scope="module")
def oracle_geography(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 45-48: total revenues by geography (EMEA 12,109 and its "% Revenues by Geography" 24%), then the
    # cloud and license business's own table of the same two kinds of rows
    return bank_of_pages("ORACLE_2023_10K.pdf", [0, 44, 45, 46, 47], tmp_path_factory.mktemp("oracle_geography"),
                         embedder=embedder)


def test_how_much_is_an_amount_not_its_share(oracle_geography: MemoryBank) -> None:
    """"How much revenue did Oracle generate in the EMEA region in fiscal 2023?" got "% Revenues by Geography:
    EMEA, 2023: 24%": the row of shares was named by as many of the question's words and repeated in more
    tables than the amount's."""
    answer = oracle_geography.run("How much revenue did Oracle generate in the EMEA region in fiscal 2023?").answer
    assert "12,109" in answer and "24%" not in answer, answer


@pytest.fixture(scope="module")
def apple_deferred(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 34: the balance sheet's "Deferred revenue"; PDF page 40: "… the Company expects 64% of total
    # deferred revenue to be realized in less than a year …"
    return bank_of_pages("APPLE_2022_10K.pdf", [0, 33, 39], tmp_path_factory.mktemp("apple_deferred"),
                         embedder=embedder)


def test_it_in_a_later_part_is_the_amount_the_first_part_asked(apple_deferred: MemoryBank) -> None:
    """"How much deferred revenue did Apple carry …, and what share of it does Apple expect to realize within a
    year?" answered its second part "not found": asked alone, "what share of it …" says nothing of deferred
    revenue."""
    answer = apple_deferred.run("How much deferred revenue did Apple carry at the end of fiscal 2022, and what "
                                "share of it does Apple expect to realize within a year?").answer
    assert "64% of total deferred revenue" in answer, answer
    assert "Not found" not in answer, answer


def test_how_much_of_one_thing_is_what_it_names() -> None:
    assert question_parts("How much deferred revenue did Apple carry in 2022, and what share of it is current?") == [
        "How much deferred revenue did Apple carry in 2022?", "what share of deferred revenue is current?"]
    # no thing named ("How much did …"), or a plural counted: "it" is left as it is
    assert question_parts("How much did Oracle spend on R&D in 2023, and what did it buy?")[1] == "what did it buy?"
    assert question_parts("How many employees did Apple have, and where is it based?")[1] == "where is it based?"
