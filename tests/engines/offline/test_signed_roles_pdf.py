"""Who holds an office, read from a filing's signature page (Apple's 2022 10-K, PDF p. 61; Oracle's 2023 10-K, PDF
p. 117), beside a page of prose that only says the words ("the Company's principal executive officer and principal
financial officer have concluded …", Apple PDF p. 56): "Who is Apple's principal accounting officer?" was answered
with that sentence, naming no one."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.signed_roles import asked_office, signers
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.retrieval.view import Passage
from tests.support.pdf_pages import bank_of_pages

APPLE_DIRECTORS = ["Timothy D. Cook", "James A. Bell", "Al Gore", "Alex Gorsky", "Andrea Jung", "Arthur D. Levinson",
                   "Monica Lozano", "Ronald D. Sugar", "Susan L. Wagner"]


@pytest.fixture(scope="module")
def apple(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("APPLE_2022_10K.pdf", [55, 60], tmp_path_factory.mktemp("apple_signed"), embedder=embedder)


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    return bank_of_pages("ORACLE_2023_10K.pdf", [116], tmp_path_factory.mktemp("oracle_signed"), embedder=embedder)


def test_an_office_is_answered_by_the_signer_holding_it(apple: MemoryBank) -> None:
    result = apple.run("Who is Apple's principal accounting officer?")
    assert result.answer.startswith("Chris Kondo, who signed the filing as Senior Director of Corporate Accounting "
                                    "(Principal Accounting Officer) on October 27, 2022"), result.answer
    assert {p for c in result.citations for p in c.pages} == {2}, result.citations  # the signature page


def test_each_part_naming_an_office_gets_its_signer(apple: MemoryBank) -> None:
    answer = apple.run("Who chairs Apple's Board of Directors, and who signed the 2022 Form 10-K as principal "
                       "accounting officer?").answer
    first, second = answer.splitlines()
    assert first.startswith("- Arthur D. Levinson") and second.startswith("- Chris Kondo"), answer


def test_a_board_is_its_directors_not_a_head_of_accounting(apple: MemoryBank) -> None:
    answer = apple.run("Who sits on Apple's board of directors?").answer
    assert answer.startswith("The filing was signed on October 27, 2022 by 9 holders of that office"), answer
    assert all(name in answer for name in APPLE_DIRECTORS) and "Kondo" not in answer, answer


def test_an_office_is_matched_whole_not_word_by_word(oracle: MemoryBank) -> None:
    """Oracle's chief accounting officer is an "Executive Vice President": no chief executive officer."""
    answer = oracle.run("Who is Oracle's chief executive officer?").answer
    assert answer.startswith("Safra A. Catz, who signed the filing as Chief Executive Officer") and "Maria Smith" \
        not in answer, answer
    assert oracle.run("Who is Oracle's principal financial officer?").answer.startswith("Safra A. Catz"), answer


def test_a_vice_chair_is_no_chair_unless_asked(oracle: MemoryBank) -> None:
    chair = oracle.run("Who is the chairman of Oracle's board?").answer
    assert chair.startswith("Lawrence J. Ellison, who signed the filing as Chairman of the Board of Directors and "
                            "Chief Technology Officer"), chair
    assert oracle.run("Who is the vice chairman of Oracle's board?").answer.startswith("Jeffrey O. Henley"), chair
    assert oracle.run("Who is Oracle's CTO?").answer.startswith("Lawrence J. Ellison"), chair


def test_an_office_no_signer_holds_is_left_to_the_prose(oracle: MemoryBank) -> None:
    answer = oracle.run("Who is Oracle's chief legal officer?").answer
    assert "signed the filing" not in answer, answer


def test_a_word_of_an_office_names_no_office(apple: MemoryBank) -> None:
    """"Which accounting firm audits Apple?" is no question for the principal accounting officer."""
    answer = apple.run("Which accounting firm audits Apple, and since what year has it done so?").answer
    assert "Kondo" not in answer, answer


def test_signature_lines_read_into_names_and_capacities() -> None:
    """A by-line repeating the name, a firm's signature, a lender's capitalised signer and the name again in
    capitals after the date."""
    passage = Passage("e", ("n",), "", 1.0, "x.pdf")
    text = ("Date: June 20, 2023 By: /s/ Safra A. Catz Safra A. Catz Chief Executive Officer and Director (Principal "
            "Executive and Financial Officer) Pursuant to the requirements … /s/ Ernst & Young LLP San Jose, "
            "California /s/ Chris Kondo Senior Director of Corporate Accounting (Principal Accounting Officer) "
            "October 27, 2022 CHRIS KONDO /s/ Al Gore Director October 27, 2022 AL GORE By: /s/ YU WANG Name: Yu "
            "Wang Title: Director")
    read = [(s.name, s.title, s.date) for s in signers([text], passage)]
    assert read == [("Safra A. Catz", "Chief Executive Officer and Director (Principal Executive and Financial "
                     "Officer)", ""),
                    ("Chris Kondo", "Senior Director of Corporate Accounting (Principal Accounting Officer)",
                     "October 27, 2022"),
                    ("Al Gore", "Director", "October 27, 2022")]


def test_a_question_names_an_office_only_when_it_asks_who() -> None:
    assert asked_office("Who is the CFO?") >= asked_office("Who is the chief financial officer?") != frozenset()
    assert asked_office("What did the chief financial officer conclude?") == frozenset()
