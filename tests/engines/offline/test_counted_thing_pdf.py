"""A "how many X" question is answered by a sentence whose number counts X, on real pages of NIST SP 800-207: "How
many federal agencies have already fully deployed a ZTA?" got "Several existing federal policies and guidance
intersect with the planning, deployment, and operation of a ZTA.", which counts policies, and vaguely. The document
gives no such count: "not found", with the closest thing it says labelled as such."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.protocol.not_found import NOT_FOUND
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.tokens import stem
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def federal(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 41-42: "6 Zero Trust Architecture and Possible Interactions with Existing Federal Guidance" ("Several
    # existing federal policies and guidance intersect …"), and page 48: "Many federal agencies have already begun
    # identifying enterprise assets."
    return bank_of_pages("NIST.SP.800-207.pdf", [40, 41, 47], tmp_path_factory.mktemp("federal"), embedder=embedder)


@pytest.mark.parametrize("question", ["How many federal agencies already operate a ZTA?",
                                      "How many federal agencies have planned a ZTA?",
                                      "How many federal policies intersect with the deployment of a ZTA?"])
def test_a_count_of_something_else_or_a_vague_quantity_is_no_count(federal: MemoryBank, question: str) -> None:
    answer = federal.run(question).answer
    assert answer.startswith(NOT_FOUND), answer
    assert "closest they come" in answer or "\n" not in answer, answer  # anything else it says is labelled


def test_a_vague_question_takes_a_vague_quantity(federal: MemoryBank) -> None:
    answer = federal.run("Roughly how many federal policies intersect with the planning of a ZTA?").answer
    assert answer.startswith("Several existing federal policies"), answer


@pytest.fixture(scope="module")
def data_sources(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 18-20: the core components, then "several data sources provide input …" and their eight items
    return bank_of_pages("NIST.SP.800-207.pdf", [17, 18, 19], tmp_path_factory.mktemp("data_sources"),
                         embedder=embedder)


def test_how_many_after_setting_aside_several_things_counts_what_is_asked(data_sources: MemoryBank) -> None:
    """"Besides the policy engine, administrator and enforcement point, how many data sources are there?" was read as
    asking about the administrator and enforcement point (the set-aside ended at its first comma): "not found"."""
    answer = data_sources.run("Besides the policy engine, administrator and enforcement point, how many data sources "
                              "are there?").answer
    assert answer.startswith("There are 8 sources"), answer


def test_a_count_said_of_the_asked_subject_beats_the_section_list(data_sources: MemoryBank) -> None:
    """"How many components does the PEP break into?" was answered with the three core components: the PEP's own
    sentence ("… may be broken into two different components: …") said no more of the question than the list did,
    "broken" and "break" being two stems."""
    answer = data_sources.run("How many components does the PEP break into?").answer
    assert "broken into two different components" in answer and not answer.startswith("There are 3"), answer
    assert stem("broken") == stem("break") == stem("broke")
