"""A figure's reason read where the filing discusses it, on three real pages of Apple's 10-K: the segment note's
"Greater China: Net sales" row is the "Greater China" row of the discussion's "Net sales by reportable segment"
table, whose section (and its "Greater China" sub-section) says why the figure changed."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.protocol.not_found import NOT_FOUND
from tests.support.pdf_pages import bank_of_pages

PAGES = [24, 25, 51]  # PDF pages 25-26 (segment operating performance) and 52 (the segment note), from 0


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    return bank_of_pages("APPLE_2022_10K.pdf", PAGES, tmp_path_factory.mktemp("segments"))


def test_a_segments_figure_comes_with_the_reason_its_discussion_gives(segments: MemoryBank) -> None:
    answer = segments.run("What were Apple's net sales in Greater China in 2022, and why did they change?").answer
    assert "74,200" in answer and f"What drove it: {NOT_FOUND}" not in answer, answer
    assert "Greater China net sales increased during 2022 compared to 2021 due primarily to higher net sales of " \
           "iPhone and Services." in answer, answer


def test_a_falling_segment_is_said_to_fall_with_its_reason(segments: MemoryBank) -> None:
    answer = segments.run("Are Apple's net sales in Japan growing, and why?").answer
    assert answer.startswith("No.") and "25,977" in answer and "weakness of the yen" in answer, answer


def test_a_subject_the_filing_never_names_gets_no_row_and_no_verdict(segments: MemoryBank) -> None:
    """"Is Oracle's quantum computing revenue improving, and why?" got "Yes." and the total revenues row: the
    row's label was the one word of the subject the filing says. A word of the subject it never says anywhere
    leaves the question to the ordinary answer, which says what the documents do not."""
    answer = segments.run("Are Apple's quantum computing net sales in Japan growing, and why?").answer
    assert not answer.startswith(("Yes.", "No.")) and "25,977" not in answer, answer
    assert "weakness of the yen" in segments.run("Are Apple's net sales in Japan growing, and why?").answer
