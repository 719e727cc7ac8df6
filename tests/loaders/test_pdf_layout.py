from __future__ import annotations

from memory_bank.loaders.pdf_layout import (
    Box,
    Line,
    char_union,
    paragraphs,
    resolve_soft_hyphens,
    split_lines,
    vocabulary,
)
from memory_bank.loaders.pdf_margins import PageLines, running_key, strip_running_lines

PAGE = Box(0, 0, 612, 792)


def line(text: str, top: float, left: float = 72, right: float = 540, height: float = 10) -> Line:
    return Line(text, Box(left, top - height, right, top))


def test_split_lines_gives_each_line_the_union_of_its_character_boxes() -> None:
    chars = "ab\r\ncd"
    boxes = [Box(0, 10, 5, 20), Box(5, 9, 10, 21), None, None, Box(0, 0, 4, 8), None]
    lines = split_lines(chars, char_union(boxes))
    assert [ln.text for ln in lines] == ["ab", "cd"]
    assert lines[0].box == Box(0, 9, 10, 21)
    assert lines[1].box == Box(0, 0, 4, 8)


def test_a_larger_vertical_gap_starts_a_paragraph() -> None:
    lines = [line("first line of one", 700), line("paragraph goes on", 686), line("second paragraph", 660)]
    assert paragraphs(lines) == ["first line of one paragraph goes on", "second paragraph"]


def test_a_short_line_ending_a_sentence_closes_the_paragraph() -> None:
    lines = [
        line("a full width line of text", 700),
        line("ends here.", 686, right=200),
        line("Next paragraph without extra space", 672),
        line("but short without a stop", 658, right=200),
        line("continues the same one", 644),
    ]
    assert paragraphs(lines) == [
        "a full width line of text ends here.",
        "Next paragraph without extra space but short without a stop continues the same one",
    ]


def test_a_bullet_starts_a_paragraph() -> None:
    lines = [line("Items:", 700), line("• first item", 686), line("• second item", 672)]
    assert paragraphs(lines) == ["Items:", "• first item", "• second item"]


def test_a_jump_to_another_column_starts_a_paragraph() -> None:
    lines = [
        line("left column text", 700, right=290),
        line("goes on here", 686, right=290),
        line("right column text", 700, left=320),
    ]
    assert paragraphs(lines) == ["left column text goes on here", "right column text"]


def test_lines_without_geometry_stay_one_paragraph_unless_bulleted() -> None:
    lines = [Line("one", None), Line("two", None), Line("- three", None)]
    assert paragraphs(lines) == ["one two", "- three"]


def test_soft_hyphens_join_words_the_document_spells_joined() -> None:
    words = vocabulary(["The architecture is modern.", "a well\ufffeknown archi\ufffetecture"])
    assert "wellknown" not in words
    assert resolve_soft_hyphens("a well\ufffeknown archi\x02tecture", words) == "a well-known architecture"


def test_running_key_blanks_page_numbers() -> None:
    assert running_key("Page 12 of 40") == running_key("Page 3 of 40") == "page # of #"
    assert running_key("vii") == running_key("12") == "#"


def test_only_margin_lines_repeated_on_enough_pages_are_dropped() -> None:
    def page(number: int) -> PageLines:
        return PageLines(
            [
                line("Running header", 770),
                line("Body text that repeats", 400),
                line(str(number), 30, left=300, right=310),
            ],
            PAGE,
        )

    kept, dropped = strip_running_lines([page(n) for n in range(1, 5)])
    assert dropped == 8
    assert all([ln.text for ln in lines] == ["Body text that repeats"] for lines in kept)
