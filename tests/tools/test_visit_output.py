"""The loop ingests what `visit` returned page by page; the format and its parser must agree."""

from __future__ import annotations

from memory_bank.tools.visit import NO_MATCH, visited_pages


def test_pages_with_evidence_are_parsed_and_the_rest_is_not() -> None:
    output = (
        "URL: https://a.example/x\nTitle: Alpha page\n\nAlpha was founded in 1990.\n\nIt has 12 staff."
        "\n\nURL: https://b.example/y\n" + NO_MATCH + ": founding year"
        "\n\nURL: https://c.example/z\n\nGamma text."
        "\n\nPages that could not be visited: https://d.example: timed out"
    )
    pages = visited_pages(output)
    assert [p.url for p in pages] == ["https://a.example/x", "https://c.example/z"]
    assert pages[0].title == "Alpha page"
    assert pages[0].evidence == "Alpha was founded in 1990.\n\nIt has 12 staff."
    assert pages[1].title is None and pages[1].evidence == "Gamma text."


def test_a_page_without_a_match_yields_nothing() -> None:
    assert visited_pages("URL: https://b.example/y\nTitle: B\n" + NO_MATCH + ": x") == []
