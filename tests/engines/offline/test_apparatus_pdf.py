"""Counts of a publication's apparatus on real pages of NIST SP 800-207 (PDF p. 9: its lists of figures and
tables; p. 54: Appendix A, the acronyms; p. 59: B.5 References): no sentence states these numbers, and the ranked
sentences answered "not found"."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.apparatus import asked_apparatus, items_of
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pdf


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # the whole publication: pages cut out of it lose the outline that makes "Appendix A—Acronyms" a section
    return bank_of_pdf("NIST.SP.800-207.pdf", tmp_path_factory.mktemp("apparatus"), embedder=embedder)


def test_figures_are_counted_from_the_list_of_figures(nist: MemoryBank) -> None:
    answer = nist.run("Going by its list of figures, how many diagrams does NIST SP 800-207 contain?").answer
    assert answer.startswith("There are 12 figures in “List of Figures”: Figure 1: Zero Trust Access;"), answer
    assert "Figure 12: ZTA Deployment Cycle" in answer, answer


def test_one_table_is_said_as_one(nist: MemoryBank) -> None:
    answer = nist.run("How many tables does the publication have?").answer
    assert answer.startswith("There is 1 table in “List of Tables”: Table B-1: Summary of Identified Deployment "
                             "Gaps"), answer


def test_acronyms_are_counted_once_each_from_the_appendix(nist: MemoryBank) -> None:
    answer = nist.run("How many abbreviations are spelled out in the publication's acronym appendix?").answer
    assert answer.startswith("There are 22 acronyms in “Appendix A—Acronyms”: API; BYOD;"), answer
    assert "RMF" in answer and answer.count("NIST;") == 1, answer


def test_a_reference_list_is_counted_by_its_entries(nist: MemoryBank) -> None:
    answer = nist.run("How many works are listed in the short reference list at the very end of Appendix B?").answer
    assert answer.startswith("There are 5 entries in “B.5 References”: [1] Cam-Winget N"), answer


def test_only_a_count_of_apparatus_is_read_from_it() -> None:
    assert asked_apparatus("How many sources feed data to the policy engine?") is None
    assert asked_apparatus("How many tables does the report include?") == "table"
    assert asked_apparatus("How many references does the document list?") == "reference"
    assert asked_apparatus("How many figures did Apple report for iPhone sales?") is None
    assert items_of("acronym", "RMF NIST Risk Management Framework SDN Software Defined Networking") == ["RMF", "SDN"]
