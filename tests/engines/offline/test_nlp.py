"""The lexical helpers the offline agents share: sentence spans, facts, key phrases."""

from __future__ import annotations

from memory_bank.engines.offline.nlp import Idf, content_tokens, keyphrases, names, numbers, sentence_spans, sentences


def test_sentence_spans_are_verbatim_and_respect_abbreviations() -> None:
    text = "Dr. Smith visited St. Louis in Jan. 1999.  He left in 2001! Did he return?"
    spans = sentence_spans(text)
    assert [s.text for s in spans] == ["Dr. Smith visited St. Louis in Jan. 1999.", "He left in 2001!",
                                       "Did he return?"]
    assert all(text[s.start:s.end] == s.text for s in spans)


def test_a_sentence_ending_with_a_month_name_ends_there() -> None:
    """A month's short form is an abbreviation; its full name ending a sentence is not ("in June. The ...")."""
    assert sentences("The pilot starts in June. The meeting closed at four. It resumes in May. Lunch followed.") == [
        "The pilot starts in June.", "The meeting closed at four.", "It resumes in May.", "Lunch followed."]
    assert sentences("It was signed on Dec. 25 in Oslo. It snowed.") == [
        "It was signed on Dec. 25 in Oslo.", "It snowed."]


def test_table_rows_and_list_items_are_sentences_but_wrapped_prose_is_not() -> None:
    text = "Data files:\n| path | licence |\n| squad | CC BY-SA |\n- first item\n1. numbered item\nprose that\nwraps."
    assert sentences(text) == ["Data files:", "| path | licence |", "| squad | CC BY-SA |", "- first item",
                               "1. numbered item prose that wraps."]


def test_a_blank_line_ends_a_sentence_even_without_a_full_stop() -> None:
    text = "3.3 Trust Algorithm\n\nFigure 7: Trust Algorithm Input\n  \nThe TA is the process\nused by the PE."
    assert sentences(text) == ["3.3 Trust Algorithm", "Figure 7: Trust Algorithm Input",
                               "The TA is the process used by the PE."]


def test_facts() -> None:
    sentence = "The Denver Broncos defeated the Carolina Panthers 24–10 on February 7, 2016, before 71,088 fans."
    assert numbers(sentence) == ["24", "10", "7", "2016", "71,088"]
    assert names(sentence) == ["Denver Broncos", "Carolina Panthers", "February"]


def test_keyphrases_prefer_repeated_distinctive_phrases() -> None:
    docs = ["The policy enforcement point enables connections. The policy enforcement point is a gateway.",
            "The policy engine decides on access. Access is logged by the engine."]
    idf = Idf([content_tokens(d) for d in docs])
    phrases = keyphrases(docs[0], idf, 3)
    assert phrases[0] == "policy enforcement point"
    assert phrases == keyphrases(docs[0], idf, 3)
