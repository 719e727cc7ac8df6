"""Questions asked in turn in one task, on three real pages of Oracle's 10-K (the cloud and license business' and
the hardware business' discussions): a follow-up whose subject is only "it", or a year alone, is read against the
previous question and says how it was read; one naming its own subject is answered as asked. A yes/no question
asked with two negations is answered as the question without them, and says so."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from memory_bank import Category, LongTermMemory, MemoryBank, Source
from memory_bank.engines.offline.verdict import positive_reading, verdict
from tests.support.pdf_pages import PDF_DIR, bank_of_pages

PAGES = [46, 47, 48]  # PDF pages 47-49, from 0: the cloud and license business, then the hardware business
REVENUES = "What were Oracle's cloud services revenues in fiscal 2023?"


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    return bank_of_pages("ORACLE_2023_10K.pdf", PAGES, tmp_path_factory.mktemp("oracle"))


def test_it_is_read_as_what_the_previous_question_asked_about(oracle: MemoryBank) -> None:
    """Alone, "Is it improving, and why?" names nothing and is answered by saying so."""
    assert "15,881" in oracle.run(REVENUES).answer
    result = oracle.run("Is it improving, and why?")
    assert result.answer.startswith("Reading “it” as “Oracle's cloud services revenues”.\nYes."), result.answer
    assert "$10,809" in result.answer and "due to growth in our cloud services" in result.answer, result.answer
    assert result.question == "Is it improving, and why?"
    assert result.insight_doc.task_goal == "Is Oracle's cloud services revenues improving, and why?"
    assert result.follow_up is not None and result.follow_up.pointer == "it"


def test_a_reading_carries_on_to_the_next_follow_up(oracle: MemoryBank) -> None:
    oracle.run(REVENUES)
    assert oracle.run("Is it improving?").answer.startswith("Reading “it” as “Oracle's cloud services revenues”.")
    answer = oracle.run("Why did it change?").answer
    assert answer.startswith("Reading “it” as “Oracle's cloud services revenues”."), answer
    assert "due to growth in our cloud services" in answer, answer


def test_a_year_alone_asks_the_previous_question_of_that_year(oracle: MemoryBank) -> None:
    oracle.run(REVENUES)
    answer = oracle.run("And in 2022?").answer
    assert answer == ("Reading “And in 2022?” as “What were Oracle's cloud services revenues in fiscal 2022?”.\n"
                      "Cloud services, 2022: $10,809 (Dollars in millions)."), answer


def test_a_possessive_pronoun_is_read_as_the_previous_subject_owning_it(oracle: MemoryBank) -> None:
    """Alone, "What was its margin?" names only "margin"; read as the hardware business' margin it is answered."""
    assert "hardware business’ revenues are generated" in oracle.run("What is Oracle's hardware business?").answer
    result = oracle.run("What was its margin?")
    assert result.answer.startswith("Reading “What was its margin?” as “What was the margin of Oracle's hardware "
                                    "business?”.\nIn constant currency, our hardware business’ total margin "
                                    "increased"), result.answer
    again = oracle.run("Is its margin improving?").answer  # "its" is still the business, not its margin
    assert again.startswith("Reading “Is its margin improving?” as “Is the margin of Oracle's hardware business "
                            "improving?”.\nYes."), again


def test_what_about_asks_the_previous_question_of_another_component(tmp_path: Path) -> None:
    """NIST SP 800-207's pages on the logical components: "And the PEP?" alone names the PEP and asks nothing."""
    nist = bank_of_pages("NIST.SP.800-207.pdf", [17, 18], tmp_path)
    assert "Policy administrator (PA): This component" in nist.run("What does the PA do?").answer
    answer = nist.run("And the PEP?").answer
    assert answer.startswith("Reading “And the PEP?” as “What does the PEP do?”.\nPolicy enforcement point (PEP): "
                             "This system is responsible for enabling, monitoring"), answer
    engine = nist.run("How about the policy engine?").answer
    assert engine.startswith("Reading “How about the policy engine?” as “What does the policy engine do?”.\n"
                             "Policy engine (PE): This component is responsible"), engine


def test_what_about_another_company_asks_its_filing_the_same_question(tmp_path: Path) -> None:
    """A task holding a page of each 10-K: "What about Apple?" asks Apple's filing, which has no fiscal 2023, and
    is not answered from Oracle's."""
    bank = bank_of_pages("ORACLE_2023_10K.pdf", [44], tmp_path)
    apple = pdfium.PdfDocument.new()
    apple.import_pages(pdfium.PdfDocument(str(PDF_DIR / "APPLE_2022_10K.pdf")), [22])
    apple.save(str(tmp_path / "APPLE_2022_10K.pdf"))
    bank.ingest_file(tmp_path / "APPLE_2022_10K.pdf")
    assert "our total revenues increased" in bank.run("What were Oracle's total revenues in fiscal 2023?").answer
    answer = bank.run("What about Apple?").answer
    assert answer.startswith("Reading “What about Apple?” as “What were Apple's total revenues in fiscal 2023?”.\n"
                             "Not found in the documents."), answer
    sales = bank.run("What were Apple's total net sales in 2022?").answer
    assert sales.startswith("Total net sales increased 8% or $28.5 billion during 2022"), sales
    oracle = bank.run("And Oracle?").answer
    assert oracle.startswith("Reading “And Oracle?” as “What were Oracle's total net sales in 2022?”."), oracle


def test_an_ordinal_points_into_the_list_the_previous_answer_gave(tmp_path: Path) -> None:
    """NIST SP 800-207's pages on the tenets: "the third one" alone names nothing; read as the third tenet of
    zero trust the list answer finds it, and the next ordinal points into the same list."""
    nist = bank_of_pages("NIST.SP.800-207.pdf", [14, 15, 16], tmp_path)
    assert nist.run("What are the tenets of zero trust?").answer.startswith("The documents give 7 tenets")
    third = nist.run("What does the third one say?").answer
    assert third == ("Reading “What does the third one say?” as “What does the third tenet of zero trust say?”.\n"
                     "Item 3: Access to individual enterprise resources is granted on a per-session basis."), third
    second = nist.run("Tell me more about the second").answer
    assert second == ("Reading “Tell me more about the second” as “Tell me more about the second tenet of zero "
                      "trust”.\nItem 2: All communication is secured regardless of network location."), second
    last = nist.run("What does the last one require?").answer
    assert last.startswith("Reading “What does the last one require?” as “What does the last tenet of zero trust "
                           "require?”.\nItem 7 (the last): The enterprise collects as much information"), last


def test_long_term_memory_is_searched_and_told_the_question_as_read(tmp_path: Path) -> None:
    """The user's long-term memory is searched with "Is Oracle's cloud services revenues improving, and why?", not
    with "Is it improving, and why?" (which names nothing its notes say), and records the answer under it."""
    ltm = LongTermMemory(tmp_path / "long_term", "alice")
    note = ltm.add("Oracle reports its cloud services revenues in millions of dollars", Category.WORK,
                   source=Source.USER_INPUT)
    bank = bank_of_pages("ORACLE_2023_10K.pdf", PAGES, tmp_path, long_term=ltm)
    bank.run(REVENUES)
    result = bank.run("Is it improving, and why?")
    assert result.answer.startswith("Reading “it” as “Oracle's cloud services revenues”.\nYes."), result.answer
    assert result.long_term is not None and note.memory_id in result.long_term.injection.memory_ids
    assert ltm.answers()[-1].question == "Is Oracle's cloud services revenues improving, and why?"
    assert result.question == "Is it improving, and why?"  # the result still says what was typed


def test_a_follow_up_naming_its_own_subject_is_answered_as_asked(oracle: MemoryBank) -> None:
    oracle.run(REVENUES)
    result = oracle.run("Is Oracle's hardware margin improving?")
    assert result.follow_up is None and result.insight_doc.task_goal == "Is Oracle's hardware margin improving?"
    assert result.answer.startswith("Yes. In constant currency, our hardware business’ total margin increased"), \
        result.answer


def test_two_negations_cancel_and_the_answer_says_which_question_it_answers(oracle: MemoryBank) -> None:
    """It got "No." (the opening "Isn't" dropped, the "not" left asked whether the margin is not improving) on the
    whole filing, and "not found" here ("isn't" was a word to find)."""
    answer = oracle.run("Isn't Oracle's hardware margin not improving?").answer
    assert answer.startswith("Yes (answering “Is Oracle's hardware margin improving?”). In constant currency, our "
                             "hardware business’ total margin increased"), answer
    single = oracle.run("Is Oracle's hardware margin not improving?").answer
    assert single.startswith("No. In constant currency"), single


@pytest.mark.parametrize(("question", "plain"), [
    ("Isn't the policy engine not the one that decides?", "Is the policy engine the one that decides?"),
    ("Can't the PEP not deny a request?", "Can the PEP deny a request?"),
    ("Didn’t revenue not grow?", "Did revenue grow?"),
    ("Is the policy engine not the one that decides?", None),  # one negation: asked as it is
    ("Isn't the policy engine the one that decides?", None),  # the opening one alone asks for agreement
    ("Is the margin not improving, or not?", None),  # "or not" offers the other answer
])
def test_a_question_with_two_negations_is_read_without_them(question: str, plain: str | None) -> None:
    assert positive_reading(question) == plain


def test_the_verdict_on_two_negations_is_the_verdict_on_none() -> None:
    sentence = "The policy engine decides on every request."
    assert verdict("Isn't the policy engine not the one that decides?", sentence) == \
        "Yes (answering “Is the policy engine the one that decides?”)"
    assert verdict("Is the policy engine not the one that decides?", sentence) == "No"
