"""A figure asked with what drove it, a figure narrowed by a name its table never says, a count no sentence
gives, and a question in another language than the documents'."""

from typing import cast

from memory_bank.engines.offline.constraints import unsaid_measure
from memory_bank.engines.offline.figure_answer import asks_choice
from memory_bank.engines.offline.figure_cause import _OFFSET, _PERCENTAGE, _gives_cause, _says, asks_cause
from memory_bank.engines.offline.language import HINT, hinted, other_language
from memory_bank.engines.offline.sides import compared_sides
from memory_bank.engines.offline.verdict import trend_verdict
from memory_bank.engines.protocol.figures import trend_of
from memory_bank.engines.protocol.table_rows import TableRowRef
from memory_bank.retrieval.view import MemoryView
from memory_bank.text.counts import says_count
from memory_bank.text.furniture import name_run
from memory_bank.text.statement_terms import owned_words


def test_a_cause_is_asked_of_one_figure_not_of_a_choice_between_two() -> None:
    assert asks_cause("What were Oracle's total revenues in fiscal 2023 and what drove the change?")
    assert asks_cause("Is Apple's gross margin improving, and why?")
    assert not asks_cause("Compare iPhone and iPad net sales in 2022: which grew, which declined, and why?")
    assert not asks_cause("What were Oracle's total revenues in fiscal 2023?")


def test_a_reason_says_the_rows_label_as_one_phrase() -> None:
    assert _says("Total revenues", "our total revenues increased across our three businesses")
    assert not _says("Total revenues", "our total services revenues increased in fiscal 2023")
    assert _says("Mac (1)", "Mac net sales increased during 2022")


def test_a_cause_may_follow_the_rows_words_after_the_totals_cause() -> None:
    """Oracle's filing explains its cloud services growth only inside the cloud and license business' sentence;
    "Is Oracle's cloud services revenue growing, and why?" had its reason "not found"."""
    core = {"cloud", "servic"}
    told = ("Our cloud and license business' total revenues increased in fiscal 2023 due to growth in our cloud "
            "services and license support revenues as customers purchased our applications via cloud deployment "
            "models and renewed their related cloud contracts.")
    assert _gives_cause(told, core)
    # "as" that opens no clause with a subject and a past verb gives no cause
    assert not _gives_cause("Revenues increased in our cloud services business, such as customers reported.", core)
    assert not _gives_cause("Revenues increased for cloud services as well as licenses as reported.", core)
    assert not _gives_cause("Cloud services revenues increased, as presented in the table below.", core)
    # the row's words after every cause: another line's reason
    assert not _gives_cause("Total revenues increased due to higher hardware sales, as customers purchased "
                            "servers for their own data centers.", core)


def test_a_direction_asked_is_read_off_the_rows_own_years() -> None:
    """"Is Oracle's hardware operating margin improving, and why?" was answered "No." from a sentence comparing
    the hardware business with the cloud business ("lower operating margins … than"); its row went up."""
    margin = TableRowRef(frozenset({"hardwar", "margin"}), frozenset(), "Hardware: Margin",
                         (("2023", "$1,932"), ("2022", "$1,878"), ("2021", "$2,026")))
    assert trend_of(margin) == 1
    assert trend_verdict("Is Oracle's hardware operating margin improving, and why?", trend_of(margin)) == "Yes"
    assert trend_verdict("Is the hardware margin declining, and why?", trend_of(margin)) == "No"
    assert trend_verdict("What was the hardware margin, and why?", trend_of(margin)) is None  # no direction asked
    printed = TableRowRef(frozenset({"ipad"}), frozenset(), "iPad",
                          (("2022", "$29,292"), ("Change", "(8)%"), ("2021", "$31,862")))
    assert trend_of(printed) == -1  # the printed change decides
    assert trend_of(TableRowRef(frozenset({"x"}), frozenset(), "x", (("2023", "12"),))) is None
    assert not _gives_cause("We expect our hardware business to have lower margins than our cloud business due to "
                            "its costs.", {"hardwar"})
    assert _gives_cause("Hardware revenues were higher in fiscal 2023 than in fiscal 2022 due to Cerner.",
                        {"hardwar"})


def test_a_count_question_needs_a_number_that_counts() -> None:
    q = "How many iPhones did Apple sell in 2022?"
    assert "count" in unsaid_measure(q, "iPhone net sales increased during 2022 compared to 2021.", "")
    assert "count" not in unsaid_measure("How many employees does Oracle have?",
                                         "We employed approximately 164,000 full-time employees.", "")
    assert not says_count("Revenue grew in 2022 to $394 billion, up 8%.")  # a year, money and a share count nothing
    assert says_count("As of October 14, 2022, there were 23,838 shareholders of record.")
    # a share of those counted answers "how many"; a calendar quarter is no share
    assert "count" not in unsaid_measure("How many Kenyans live below the poverty level?",
                                         "Half of Kenyans live below the poverty level.", "")
    assert "count" not in unsaid_measure("How many teachers felt occupational stress in a 2000 study?",
                                         "A 2000 study found that 42% of UK teachers felt stress.", "")
    assert "count" in unsaid_measure(q, "iPhone models released since the beginning of the fourth quarter of 2021.", "")


def test_what_a_possessive_owns_narrows_a_how_much_question() -> None:
    q = "How much revenue did Apple's advertising business generate in 2022?"
    assert owned_words(q) == ["advertising", "business"]
    assert "advertising" in unsaid_measure(q, "Total net sales were $394,328 million in 2022.", "")
    assert owned_words("What was Apple's total revenue in 2022?") == ["revenue"]  # an everyday word for a row


def test_a_run_of_names_is_no_prose() -> None:
    exhibit = ("Name of Subsidiary Place of Incorporation Oracle America, Inc. Delaware Oracle International "
               "Corporation California Oracle Systems Corporation Delaware Oracle Global Holdings, Inc. Delaware")
    assert name_run(exhibit)
    assert not name_run("Our headquarters facility consists of approximately 0.9 million square feet in Austin, "
                        "Texas, all of which we own, and we lease other offices in California and Delaware.")


def test_a_side_named_one_takes_the_other_sides_noun() -> None:
    sides = compared_sides("How does a criteria-based trust algorithm differ from a score-based one?")
    assert sides and sides[0].own == (frozenset({"criteria"}), frozenset({"score"}))


def _english(terms: list[str]) -> dict[str, bool]:
    said = {"the", "and", "of", "zero", "trust", "de", "la"}
    return {t: t in said for t in terms}


def test_a_question_in_another_language_gets_the_hint_after_not_found() -> None:
    spanish = "¿Cuáles son los principios básicos de la confianza cero?"
    assert other_language(spanish, _english)
    assert other_language("零信任的基本原则是什么？", _english)
    assert not other_language("What are the tenets of zero trust?", _english)
    assert not other_language("Kubernetes RBAC?", _english)  # too short to tell
    assert hinted("Not found in the documents.", spanish, _english) == f"Not found in the documents.\n{HINT}"
    assert hinted("The seven tenets are …", spanish, _english) == "The seven tenets are …"  # an answer stays


def test_an_item_noun_before_the_plural_noun_it_modifies_asks_for_no_items() -> None:
    from memory_bank.text.asks import asks_for_items

    assert not asks_for_items("How does Oracle recognize revenues from its cloud services contracts?")
    assert asks_for_items("Which deployment scenarios or use cases lend themselves to zero trust?")  # a verb after
    assert asks_for_items("What services does Apple sell?")


def test_a_threshold_asked_needs_a_value() -> None:
    q = "What trust score threshold does NIST recommend for granting access to a resource?"
    assert "amount" in unsaid_measure(q, "If the score is greater than the configured threshold value, access is "
                                         "granted.", "")


def test_a_bare_name_is_no_second_sentence() -> None:
    from memory_bank.engines.offline.answering import Answerer
    from memory_bank.engines.offline.evidence import Evidence
    from memory_bank.retrieval.embedding import HashingEmbedder

    pool = [Evidence("The Company's headquarters are located in Cupertino, California.", "a", "10k.pdf", (20,), 1.0),
            Evidence("Apple Inc.", "b", "10k.pdf", (20,), 0.9)]
    answer = Answerer(HashingEmbedder()).compose("Where is Apple headquartered?", pool, [0, 1], 1.0)
    assert answer.text == "The Company's headquarters are located in Cupertino, California."


def test_what_a_possessive_owns_ends_before_the_verb_asking_how_it_moved() -> None:
    assert owned_words("Did Oracle's effective tax rate go down in fiscal 2023?") == ["effective", "tax", "rate"]
    assert owned_words("Was Apple's 2022 effective tax rate lower than the statutory rate?") == [
        "effective", "tax", "rate"]


def test_an_expense_in_parentheses_rose_when_its_amount_grew() -> None:
    """Oracle's statement prints interest expense as (3,505) in 2023 and (2,755) in 2022: "Is Oracle's interest
    expense going up?" was answered "No." from -3,505 < -2,755."""
    expense = TableRowRef(frozenset({"interest", "expens"}), frozenset(), "Interest expense",
                          (("2023", "(3,505)"), ("2022", "(2,755)"), ("2021", "(2,496)")))
    assert trend_of(expense) == 1
    assert trend_verdict("Is Oracle's interest expense going up, and what is behind it?", trend_of(expense)) == "Yes"
    swung = TableRowRef(frozenset({"other"}), frozenset(), "Other income (expense)",
                        (("2023", "(462)"), ("2022", "282")))
    assert trend_of(swung) == -1  # from income to expense: down, as the values say


class _Said:
    def mentions(self, terms: list[str]) -> dict[str, bool]:
        return {t: t.lower() in {"oracle", "interest", "expense"} for t in terms}


def test_everyday_words_of_a_change_are_not_the_subject_asked_about() -> None:
    """"going up" named no row ("going" is never said in the filing), so the question lost its figure."""
    from memory_bank.engines.offline.figure_answer import unsaid_words

    view = cast(MemoryView, _Said())
    assert unsaid_words("Is Oracle's interest expense going up, and what is behind it?", view) == []
    assert unsaid_words("Is Oracle's quantum expense heading down?", view) == ["quantum"]


def test_what_held_a_change_back_comes_after_what_drove_it() -> None:
    offset = ("The increase in interest expense was partially offset by lower interest expense that resulted from "
              "scheduled repayments made during fiscal 2022 and 2023.")
    assert _gives_cause(offset, {"interest", "expens"}) and _OFFSET.search(offset)
    assert not _OFFSET.search("Interest expense increased in fiscal 2023 primarily due to higher average borrowings.")
    assert not _OFFSET.search("Services gross margin increased due primarily to higher Services net sales, partially "
                              "offset by the weakness in foreign currencies.")  # the cause, then what offset it
    assert _PERCENTAGE.search("Services gross margin percentage increased due primarily to improved leverage.")


def test_different_kinds_compare_nothing_different_from_does() -> None:
    """"How many different kinds of partners make up Oracle's indirect channels?" was read as a choice between named
    things (its "different"), which no list answers: the count of the channel's partners was never read."""
    assert not asks_choice("How many different kinds of partners make up the indirect channels Oracle uses?")
    assert not asks_choice("What different types of data sources feed the policy engine?")
    assert asks_choice("How is the enclave-based model different from the device agent/gateway model?")
    assert asks_choice("How does a criteria-based trust algorithm differ from a score-based one?")
