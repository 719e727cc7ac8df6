"""A question dated by a quarter is answered by the evidence of that quarter, on a small real text shaped like
Apple's 2022 10-K: every quarter of several years is reported in the same words, only the year tells them apart."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.retrieval.embedding import HashingEmbedder

FILING = """# Products and Services Performance

The following table shows net sales by category for 2022, 2021 and 2020.

## iPhone

iPhone net sales increased during 2022 compared to 2021 due primarily to higher net sales from the Company's new \
iPhone models released since the beginning of the fourth quarter of 2021.

## Mac

Mac net sales increased during 2022 compared to 2021 due primarily to higher net sales of laptops.

# Fiscal 2022 Highlights

Total net sales increased 8% during 2022 compared to 2021, driven primarily by higher net sales of iPhone, Services \
and Mac. The Company announces new product, service and software offerings at various times during the year. \
Significant announcements during fiscal year 2022 included the following:

Third Quarter 2022:

- Updated MacBook Air and MacBook Pro 13", both powered by the Apple M2 chip;
- iOS 16, macOS Ventura, iPadOS 16 and watchOS 9, updates to the Company's operating systems; and
- Apple Pay Later, a buy now, pay later service.

Fourth Quarter 2022:

- iPhone 14, iPhone 14 Plus, iPhone 14 Pro and iPhone 14 Pro Max;
- Second generation of AirPods Pro; and
- Apple Watch Series 8, updated Apple Watch SE and all-new Apple Watch Ultra.
"""


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("q4"))
    bank.ingest_text(FILING, "apple_10k.md")
    return bank


def test_products_of_a_quarter_are_the_list_that_quarter_heads_not_a_section_titled_products(
        filing: MemoryBank) -> None:
    answer = filing.run("What products did Apple announce in the fourth quarter of 2022?").answer
    assert "§Fiscal 2022 Highlights" in answer, answer
    for product in ("iPhone 14 Pro Max", "Second generation of AirPods Pro", "Apple Watch Ultra"):
        assert product in answer, answer
    assert "fourth quarter of 2021" not in answer and "MacBook Air" not in answer, answer
    assert answer.startswith("The documents give 3 items under “Fourth Quarter 2022”"), answer


def test_a_list_taken_for_its_quarter_is_not_said_to_be_of_the_kind_asked(filing: MemoryBank) -> None:
    answer = filing.run("What risks did Apple face in the fourth quarter of 2022?").answer
    assert "risks" not in answer.split("\n")[0], answer  # the heading says what the list is, the question does not


def test_a_quarters_list_ends_before_the_next_quarters_lead_in(filing: MemoryBank) -> None:
    answer = filing.run("What did Apple announce in the third quarter of 2022?").answer
    assert "Apple Pay Later" in answer and "MacBook Air" in answer, answer
    assert "Fourth Quarter" not in answer and not answer.rstrip().endswith(":"), answer


def test_a_sentence_on_the_asked_quarter_of_another_year_ranks_after_the_others() -> None:
    question = "Which iPhone models were released in the fourth quarter of 2022?"
    other_year = Evidence("New iPhone models were released in the fourth quarter of 2021.", "a")
    asked_year = Evidence("Fourth Quarter 2022: iPhone 14 and iPhone 14 Pro.", "b")
    ranked = Answerer(HashingEmbedder()).rank(question, [other_year, asked_year])
    assert ranked is not None
    assert ranked.scores[0] > ranked.scores[1]  # word for word, the other year's sentence matches better
    assert [ranked.pool[i].text for i in ranked.order] == [asked_year.text, other_year.text]
