"""The quarters and halves a text names: the period a filing's question is dated by, however it is written."""

from __future__ import annotations

from memory_bank.text.periods import Period, misdated_period, names_period, periods


def test_a_quarter_is_read_however_it_is_written() -> None:
    q4 = Period("quarter", 4, "2022")
    for text in ("What did Apple announce in the fourth quarter of 2022?", "Fourth Quarter 2022:",
                 "during the 4th quarter of fiscal 2022", "Q4 2022 results", "the fourth quarter of fiscal year 2022"):
        assert periods(text) == {q4}, text
    assert periods("the first half of 2021") == {Period("half", 1, "2021")}
    assert periods("net sales for 2022, 2021 and 2020") == frozenset()  # a year alone is no period
    assert periods("the fourth half of 2022") == frozenset()


def test_the_asked_quarter_of_another_year_is_misdated_and_the_same_quarter_is_named() -> None:
    asked = periods("What products did Apple announce in the fourth quarter of 2022?")
    assert misdated_period(asked, "new iPhone models released since the beginning of the fourth quarter of 2021")
    assert not misdated_period(asked, "Fourth Quarter 2022:")
    assert not misdated_period(asked, "shareholders approved the plan in the second quarter of 2022")  # another quarter
    assert not misdated_period(asked, "in the fourth quarter of 2021 and the fourth quarter of 2022")
    assert not misdated_period(frozenset(), "the fourth quarter of 2021")
    assert names_period(asked, "Fourth Quarter 2022:") and not names_period(asked, "Third Quarter 2022:")


def test_a_month_asked_is_not_met_by_other_months_of_its_year() -> None:
    from memory_bank.text.periods import misdated_month, months

    asked = "What average price per share did Apple pay for the shares it bought back in May 2022?"
    # a repurchase table's rows, each a span of months
    assert months("June 26, 2022 to July 30, 2022: Open market") == {(6, "2022"), (7, "2022")}
    assert misdated_month(asked, "August 28, 2022 to September 24, 2022: Open market | $155.59")
    assert not misdated_month(asked, "April 24, 2022 to May 28, 2022: Open market | $150.12")
    assert not misdated_month(asked, "In May 2022 the Company repurchased shares.")
    # no month of that year said: the date is the context's; "may" is a verb, not a month
    assert not misdated_month(asked, "The Company repurchased 569 million shares during 2022.")
    assert not misdated_month("What may the company buy in 2022?", "Purchases of August 28, 2022.")
