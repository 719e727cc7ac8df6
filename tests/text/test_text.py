"""The shared text primitives: each boundary and estimate is defined once in memory_bank.text."""

from memory_bank.text.pages import page_span, pages_label, printed_pages
from memory_bank.text.split import (
    Span,
    clause_ends,
    paragraph_spans,
    sentence_breaks,
    split_paragraphs,
    split_sentences,
    stripped_span,
)
from memory_bank.text.tags import strip_think, tag_block
from memory_bank.text.tokens import CHARS_PER_TOKEN, chars_for_tokens, estimate_tokens, tokens_for_chars


def test_token_estimate_rounds_up_and_its_inverse_fills_the_budget() -> None:
    assert [tokens_for_chars(n) for n in (0, 1, 4, 5)] == [0, 1, 1, 2]
    assert estimate_tokens("abcdefgh") == 2
    assert chars_for_tokens(3) == 3 * CHARS_PER_TOKEN
    assert all(tokens_for_chars(chars_for_tokens(t)) == t for t in range(50))


def test_paragraph_spans_are_verbatim_and_skip_blank_paragraphs() -> None:
    text = "  First line\nsame paragraph.\n\n \t\n\nSecond.  \n\n"
    spans = paragraph_spans(text)
    assert [s.text for s in spans] == ["First line\nsame paragraph.", "Second."]
    assert all(text[s.start:s.end] == s.text for s in spans)
    assert split_paragraphs(text) == [s.text for s in spans]


def test_stripped_span_drops_surrounding_whitespace_only() -> None:
    assert stripped_span(" a b \n", 0, 6) == Span(1, 4, "a b")
    assert stripped_span("x   y", 1, 4) is None


def test_a_sentence_breaks_before_a_capital_or_digit_only() -> None:
    text = 'It cost 3.5 dollars. "Next one" (e.g. this) ends. 2 more!'
    assert split_sentences(text) == ["It cost 3.5 dollars.", '"Next one" (e.g. this) ends.', "2 more!"]
    assert [text[a:b] for a, b in sentence_breaks(text)] == [" ", " "]


def test_clause_ends_include_semicolons_and_closers() -> None:
    text = 'One; two: "three." four'
    assert [text[:e] for e in clause_ends(text)] == ["One;", "One; two:", 'One; two: "three."']


def test_think_blocks_are_dropped_even_unclosed_and_sloppy() -> None:
    assert strip_think("<THINK>plan</think>answer") == "answer"
    assert strip_think("ok <think>cut off by the limit") == "ok "
    assert strip_think("< think >a< / think >b") == "b"
    assert strip_think("< think >a</think>b", spaced=False) == "< think >a</think>b"
    assert tag_block("answer", capture=True).search("<answer> 42 </answer>").group(1) == " 42 "


def test_page_labels() -> None:
    assert page_span(3, 5) == (3, 4, 5) and page_span(7, None) == (7,) and page_span(None, 4) == ()
    assert pages_label([9, 3, 4, 5]) == "pp. 3-5, 9"
    assert pages_label([7]) == "p. 7" and pages_label([]) == ""


def test_printed_pages_are_shown_with_the_pdf_pages() -> None:
    assert pages_label([14], {14: "5"}) == "p. 5 (PDF p. 14)"
    assert pages_label([14, 15], printed_pages(14, 15, "5", "6")) == "pp. 5-6 (PDF pp. 14-15)"
    assert pages_label([9, 10, 14], {9: "vii", 10: "1", 14: "5"}) == "pp. vii-1, 5 (PDF pp. 9-10, 14)"


def test_pdf_pages_alone_when_a_printed_page_is_unknown_or_the_same() -> None:
    assert pages_label([14, 15], {14: "5"}) == "pp. 14-15"  # the last page's printed number is unknown
    assert pages_label([3, 4], {3: "3", 4: "4"}) == "pp. 3-4"
    assert pages_label([14], {}) == pages_label([14], None) == "p. 14"


def test_printed_pages_keep_only_the_known_ends_of_a_range() -> None:
    assert printed_pages(14, 16, "5", "7") == {14: "5", 16: "7"}
    assert printed_pages(14, None, "5", None) == printed_pages(14, 14, "5", "5") == {14: "5"}
    assert printed_pages(14, 16, None, "7") == {16: "7"}
    assert printed_pages(None, None, "5", "5") == {}


def test_a_company_form_or_a_title_does_not_end_a_sentence() -> None:
    from memory_bank.text.split import split_sentences

    text = ("In the second quarter of 2022, shareholders approved the Apple Inc. 2022 Employee Stock Plan. "
            "Dr. Smith and Mr. Jones of Oracle Corp. Ltd. signed it. It ended.")
    assert split_sentences(text) == [
        "In the second quarter of 2022, shareholders approved the Apple Inc. 2022 Employee Stock Plan.",
        "Dr. Smith and Mr. Jones of Oracle Corp. Ltd. signed it.", "It ended."]


def test_a_middle_initial_does_not_end_a_sentence_but_a_roman_numeral_can() -> None:
    from memory_bank.text.split import split_sentences

    text = ("Apollo 12 was flown by Alan L. Bean and Richard F. Gordon. It was built before World War I. "
            "It flew.")
    assert split_sentences(text) == ["Apollo 12 was flown by Alan L. Bean and Richard F. Gordon.",
                                     "It was built before World War I.", "It flew."]
