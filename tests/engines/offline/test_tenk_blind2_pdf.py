"""Answers on real pages of the two 10-Ks that the second blind set showed wrong (bench/data/doc_qa_blind2.json):
a table's footnote legend glued to the discussion after it."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.nlp import sentences
from memory_bank.retrieval.embedding import CachedEmbedder
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
