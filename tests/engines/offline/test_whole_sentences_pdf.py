"""An answer quotes whole sentences and whole clauses: never a list item ingestion cut short for the graph's
outline, nor a long sentence torn off mid-clause (issue 22: "never a fragment that opens or ends with '…'")."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.long_sentence import window, word_window
from memory_bank.engines.protocol.entry_lines import entry_sentences
from memory_bank.memory.interaction_tree import InteractionEntry
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def oracle_acquisitions(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 23: "Risks we may face in connection with our acquisition program include: • our ongoing business
    # may be disrupted … or (3) retaining key personnel from the acquired companies; • an acquisition may not …"
    return bank_of_pages("ORACLE_2023_10K.pdf", [22], tmp_path_factory.mktemp("oracle_acq"), embedder=embedder)


def test_a_list_item_cut_short_in_the_outline_is_read_whole(oracle_acquisitions: MemoryBank) -> None:
    """The section's outline (what its node shows) keeps 40 words of each item and ends it with " …"; on the whole
    filing an answer quoted that line ("… or (3) retaining key personnel …"). The typed outline holds the item
    whole, and the entry is read from it."""
    entries = [InteractionEntry(e["entry_id"], e["text"], e["timestamp"], e["metadata"])
               for e in oracle_acquisitions.export()["interaction_tree"]["entries"]]
    outlines = [e for e in entries if e.metadata.get("structure") == "section" and "personnel …" in e.text]
    assert outlines  # ingestion still cuts the line it shows
    lines = [line for e in outlines for line in entry_sentences(e)]
    assert any(line.endswith("retaining key personnel from the acquired companies;") for line in lines), lines
    assert not any(line.endswith("personnel …") for line in lines), lines


def test_the_answer_quotes_no_cut_line(oracle_acquisitions: MemoryBank) -> None:
    answer = oracle_acquisitions.run("What risks do acquisitions pose for Oracle?").answer
    assert "retaining key personnel from the acquired companies" in answer, answer
    assert "personnel …" not in answer, answer


@pytest.fixture(scope="module")
def apple_stock_graph(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 22: "Company Stock Performance: The following graph shows a comparison of five-year cumulative total
    # shareholder return … for the five years ended September 24, 2022."
    return bank_of_pages("APPLE_2022_10K.pdf", [21], tmp_path_factory.mktemp("apple_graph"), embedder=embedder)


def test_a_sections_opening_sentence_cut_short_in_its_outline_is_quoted_whole(apple_stock_graph: MemoryBank) -> None:
    answer = apple_stock_graph.run(
        "Which stock indexes is Apple's cumulative total shareholder return compared against?").answer
    assert "Dow Jones U.S. Technology Supersector Index" in answer, answer
    assert "five years …" not in answer and "September 24, 2022" in answer, answer


@pytest.fixture(scope="module")
def oracle_expenses(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF page 45: one sentence of about 120 words lists why total operating expenses rose, clause by clause
    return bank_of_pages("ORACLE_2023_10K.pdf", [44], tmp_path_factory.mktemp("oracle_opex"), embedder=embedder)


def test_a_long_sentence_listing_causes_is_cut_at_its_clauses(oracle_expenses: MemoryBank) -> None:
    """It was cut at words: "… currency rate fluctuations, our total operating expenses increased … which were
    primarily due to higher employee related expenses …", opening and ending mid-clause."""
    answer = oracle_expenses.run("What made Oracle's total operating expenses go up in fiscal 2023?").answer
    assert answer.startswith("Excluding the effects of foreign currency rate fluctuations"), answer
    assert "acquisition of Cerner" in answer and "higher cloud services and license support expenses" in answer
    assert not answer.rstrip().endswith("…"), answer


_LISTED = ("Excluding the effects of currency rate fluctuations, costs rose in fiscal 2023 primarily due to the "
           "acquisition of Cerner; higher employee related expenses in every region we operate in, which were "
           "partly offset by lower travel; higher hardware costs from the new product lines that were added during "
           "the year; and higher restructuring expenses that we incurred in connection with the 2023 plan.")


def test_the_clause_naming_what_is_asked_is_shown_after_the_opening_one() -> None:
    cut = window(_LISTED, "Why did restructuring expenses rise?", 30)
    assert cut.startswith("Excluding the effects") and cut.endswith("the 2023 plan."), cut
    assert " … and higher restructuring expenses" in cut and "hardware" not in cut, cut


def test_a_stretch_near_the_sentences_end_reaches_it() -> None:
    sentence = " ".join(f"w{i}" for i in range(40)) + " target words here and five more after it."
    assert word_window(sentence, "target words", 30).endswith("after it."), word_window(sentence, "target words", 30)
