"""A comparison is answered on both of its sides: "How does a criteria-based trust algorithm differ from a
score-based one?" says what each is, not the criteria-based one alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.answering import AnswerConfig, Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.sides import compared_sides
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.loaders.pdf_factory import write_statement_pdf

CRITERIA = ("• Criteria- versus score-based: A criteria-based TA assumes a set of qualified attributes that must be "
            "met before access is granted to a resource.")
SCORE = "A score-based TA computes a confidence level based on values for every data source."


@pytest.fixture(scope="module")
def nist_bank(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("nist"))
    bank.ingest_file(nist_pdf)
    return bank


def test_the_sides_of_a_comparison_are_told_apart_by_their_own_words_or_initials() -> None:
    [sides] = compared_sides("How does a criteria-based trust algorithm differ from a score-based trust algorithm?")
    assert sides.said(CRITERIA) == {0}  # it names both, sets them against nothing: it describes the first named
    assert sides.said(SCORE) == {1}
    [tic] = compared_sides("How does the scope of TIC 3.0 compare with that of a zero trust architecture?")
    assert tic.said("TIC 3.0 is focused on network protections, whereas ZTA is broader.") == {0, 1}
    assert compared_sides("What is the policy engine?") == []
    assert compared_sides("How does the engine compare with the engine?") == []  # no words of its own


def test_gain_and_lose_asks_what_is_for_and_what_is_against_beside_the_two_models() -> None:
    models, aspects = compared_sides("What does the resource portal model gain and lose compared with the device "
                                     "agent/gateway model?")
    benefit = "The primary benefit of this model over the others is that no agent is installed."
    assert models.said(benefit, "3.2.3 Resource Portal-Based Deployment") == {0}  # "gain", "lose" are no model
    assert models.said("This deployment model is a variation of the device agent/gateway model above.") == {1}
    assert aspects.said(benefit) == {0}
    assert aspects.said("However, limited information can be inferred from devices requesting access.") == {1}
    [only] = compared_sides("What are the advantages and disadvantages of the enclave model?")
    assert only.said("A drawback is that the gateway must be trusted.") == {1}


def test_a_benefit_alone_gets_the_drawback_the_passage_gives() -> None:
    benefit = Evidence("The primary benefit of this model is that no software is installed on client devices.", "p",
                       position=0, section=("3.2", "3.2.3 Resource Portal-Based Deployment"))
    drawback = Evidence("However, limited information can be inferred from devices requesting access.", "p",
                        position=1, section=benefit.section)
    other = Evidence("This model is a variation of the device agent/gateway model above.", "p", position=2,
                     section=benefit.section)
    question = "What does the resource portal model gain and lose compared with the device agent/gateway model?"
    answerer = Answerer(HashingEmbedder(), AnswerConfig(max_words=30))  # room for the benefit and one more
    answer = answerer.compose(question, [benefit, drawback, other], [0, 2, 1], 1.0)
    assert answer.text.startswith(f"{benefit.text} {drawback.text}"), answer.text  # the loss before the variation
    plain = answerer.compose("What does the resource portal model gain?", [benefit, drawback, other], [0, 2, 1], 1.0)
    assert drawback.text not in plain.text


def test_gains_and_losses_are_answered_by_the_sentences_that_say_them_before_one_that_names_the_thing() -> None:
    """The best-ranked sentence names the model ("This model is a variation of …") and says no gain or loss: the
    answer opens with the benefit and gives the other gain and the loss within its budget."""
    where = ("3.2", "3.2.3 Resource Portal-Based Deployment")
    other = Evidence("This deployment model is a variation of the device agent/gateway model above.", "p",
                     position=0, section=where)
    benefit = Evidence("The primary benefit of this model is that no software is installed on client devices.", "p",
                       position=1, section=where)
    neutral = Evidence("Another variation of the agent/gateway model runs vetted applications in compartments.", "p",
                       position=2, section=where)
    byod = Evidence("This model is also more flexible for BYOD policies.", "p", position=3, section=where)
    drawback = Evidence("However, limited information can be inferred from devices requesting access.", "p",
                        position=4, section=where)
    question = "What does the resource portal model gain and lose compared with the device agent/gateway model?"
    answer = Answerer(HashingEmbedder()).compose(question, [other, benefit, neutral, byod, drawback],
                                                 [0, 2, 1, 3, 4], 1.0)
    assert answer.text.startswith(benefit.text), answer.text
    assert byod.text in answer.text and drawback.text in answer.text and neutral.text not in answer.text


def test_an_answer_on_one_side_of_a_comparison_gives_the_other_side_as_much_room() -> None:
    threshold = "If the score is greater than the configured threshold value, access is granted."
    back = "Criteria are simpler to audit than weights."
    pool = [Evidence(CRITERIA, "a", position=0),
            Evidence("These criteria are configured by the enterprise for every resource.", "a", position=1),
            Evidence("Access is logged for every request.", "b", position=0),
            Evidence(SCORE, "a", position=2), Evidence(threshold, "a", position=3), Evidence(back, "a", position=4)]
    question = "How does a criteria-based trust algorithm differ from a score-based trust algorithm?"
    answer = Answerer(HashingEmbedder()).compose(question, pool, [0, 1, 2, 3, 4, 5], 1.0)
    shown = CRITERIA.removeprefix("• ")  # an answer shows no list bullet
    assert answer.text.startswith(shown) and answer.text.endswith(f"{SCORE} {threshold}"), answer.text
    one_sided = Answerer(HashingEmbedder()).compose("What does a criteria-based trust algorithm assume?", pool,
                                                    [0, 1, 2, 3], 1.0)
    assert SCORE not in one_sided.text  # no comparison: the budget decides as before


def test_nist_criteria_and_score_based_algorithms_are_both_described(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("How does a criteria-based trust algorithm differ from a score-based trust "
                           "algorithm?").answer
    assert "criteria-based TA assumes" in answer and "score-based TA computes a confidence level" in answer, answer


def test_a_sentence_on_one_side_of_a_comparison_is_no_near_miss_for_not_naming_the_other(embedder) -> None:  # noqa: ANN001
    ipad = Evidence("iPad net sales decreased during 2022 compared to 2021 due primarily to lower net sales of iPad "
                    "Pro.", "p", "apple.pdf", (24,), 1.0, position=5)
    mac = Evidence("Mac net sales increased during 2022 compared to 2021 due primarily to higher net sales of "
                   "laptops.", "p", "apple.pdf", (24,), 1.0, position=3)
    answer = Answerer(embedder).answer("How did iPad net sales compare with Mac net sales in 2022?", [mac, ipad])
    assert answer.found and ipad.text in answer.text and mac.text in answer.text, answer.text


def test_a_comparison_of_table_rows_shows_each_row_once_not_again_as_its_prose(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(write_statement_pdf(tmp_path / "statement.pdf"))
    answer = bank.run("How did purchases of marketable securities compare with cash used in investing "
                      "activities?").answer
    assert answer.count("Purchases of marketable securities |") == 1, answer
    assert answer.count("Cash used in investing activities |") == 1, answer


def _tax_pdf(path: Path) -> Path:
    """A page of a filing's tax note: its prose, then the rates table the way annual reports print it."""
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path))
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, 760, "The Company's effective tax rate for 2022 was lower than the statutory federal income")
    pdf.drawString(72, 746, "tax rate due primarily to a lower effective tax rate on foreign earnings.")
    pdf.setFont("Helvetica", 9)
    pdf.drawCentredString(306, 700, "(Dollars in millions)")
    for right, year in ((430, "2022"), (510, "2021")):
        pdf.drawRightString(right, 684, year)
    for i, (label, now, before) in enumerate((("Provision for income taxes", "$ 19,300", "$ 14,527"),
                                              ("Effective tax rate", "16.2 %", "13.3 %"),
                                              ("Statutory federal income tax rate", "21 %", "21 %"))):
        pdf.drawString(72, 670 - 13 * i, label)
        pdf.drawRightString(430, 670 - 13 * i, now)
        pdf.drawRightString(510, 670 - 13 * i, before)
    pdf.showPage()
    pdf.save()
    return path


def test_a_yes_no_comparison_of_two_rows_gives_its_verdict_then_both_rows(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(_tax_pdf(tmp_path / "tax.pdf"))
    answer = bank.run("Was the 2022 effective tax rate lower than the statutory federal income tax rate?").answer
    lines = answer.splitlines()
    assert lines[0].startswith("Yes. ") and "foreign earnings" in lines[0], answer
    assert any(line.startswith("- Effective tax rate |") and "16.2" in line for line in lines[1:]), answer
    assert any(line.startswith("- Statutory federal income tax rate |") and "21" in line for line in lines[1:]), answer
