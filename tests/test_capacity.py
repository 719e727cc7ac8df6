"""An amount stated as a capacity (a limit, an authorisation) does not answer a question for an amount done."""

from __future__ import annotations

from memory_bank.text.capacity import asks_amount_done, capacity_not_done, states_capacity


def test_a_question_for_an_amount_done() -> None:
    assert asks_amount_done("How much did Apple spend on share repurchases in 2022?")
    assert asks_amount_done("How much cash did Oracle pay in dividends?")
    assert not asks_amount_done("How much can Oracle still repurchase?")
    assert not asks_amount_done("What is a share repurchase program?")


def test_a_limit_or_permission_is_a_capacity_and_a_deed_is_not() -> None:
    assert states_capacity("the Company was authorized by the Board of Directors to purchase up to $405 billion")
    assert states_capacity("approximately $8.2 billion remained available for stock repurchases")
    assert not states_capacity("During 2022, the Company repurchased 569 million shares of its common stock for "
                               "$90.2 billion under a share repurchase program authorized by the Board of Directors.")
    assert capacity_not_done("How much did Apple spend on share repurchases in 2022?",
                             "the Company was authorized to purchase up to $405 billion of its common stock")
