"""A question that names a table row and a column is answered by the row (typed from entry metadata)."""

from __future__ import annotations

from memory_bank.engines.protocol.table_rows import names_row, table_rows
from memory_bank.text.tokens import stems

META = {"structure": "table", "columns": ["2023", "2022"],
        "rows": [["Total revenues | 2023: $49,954 | 2022: $42,440 (millions)", "Total revenues"],
                 ["Total | 2023: 5 | 2022: 4", "Total"],
                 ["Total Operating Margin | 2023: $13,093 | 2022: $10,926 (millions)", "Total Operating Margin"]]}


def asked(question: str) -> frozenset[str]:
    return frozenset(stems(question))


def test_the_row_the_question_names_covers_it() -> None:
    rows = table_rows(META)
    row = rows["Total revenues | 2023: $49,954 | 2022: $42,440 (millions)"]
    assert names_row(asked("What were Oracle's total revenues in fiscal 2023?"), row)
    assert not names_row(asked("What were Oracle's total revenues in fiscal 2019?"), row)  # no such column
    assert not names_row(asked("What were the total costs in 2023?"), row)  # not its label
    assert not names_row(asked("What was the total in 2023?"), rows["Total | 2023: 5 | 2022: 4"])  # one word
    assert not names_row(asked("Did total revenues grow?"), row)  # no column named: no single cell asked for
    # a reader leaves out the "total" of a two-word line item: "operating margin" names "Total Operating Margin",
    # but "revenues" alone names no "Total revenues" (every revenue line would be named so)
    margin = rows["Total Operating Margin | 2023: $13,093 | 2022: $10,926 (millions)"]
    assert names_row(asked("What was Oracle's operating margin in fiscal 2023?"), margin)
    assert not names_row(asked("What were Oracle's revenues in fiscal 2023?"), row)
    # the singular names the row too: "revenue" and "revenues" are one stem (the plural loses "-es")
    assert names_row(asked("What was Oracle's total revenue in fiscal 2023?"), row)


def test_a_singular_and_its_plural_are_one_stem_and_a_possessive_is_its_name() -> None:
    from memory_bank.text.tokens import bare_stem, stem

    for singular in ("revenue", "service", "expense", "employee", "share", "increase", "change", "rate", "sale"):
        assert stem(singular) == stem(singular + "s"), singular
    assert stem("increased") == stem("increase") and stem("declined") == stem("declines")
    assert bare_stem(stem("Apple's".lower())) == stem("apple") and bare_stem(stem("crossing")) == "cross"


def test_metadata_from_an_imported_file_is_checked() -> None:
    assert table_rows({}) == {} and table_rows({"rows": ["x"], "columns": []}) == {}
    assert table_rows({"rows": [["a", 1], [2, "b"], ["x"]], "columns": ["2023", 7]}) == {}
    assert table_rows({"rows": {"a": "b"}, "columns": []}) == {}  # the old shape is no shape


def test_rows_in_a_prose_entry_are_read_one_row_at_a_time() -> None:
    from memory_bank.engines.protocol.entry_lines import entry_sentences
    from memory_bank.memory.interaction_tree import InteractionEntry

    row = "Total revenues | 2023: $49,954 | 2022: $42,440 (millions)"
    text = f"Year Ended May 31, the table below. It has rows.\n\n{row}\nNet income | 2023: 8,503 | 2022: 6,717"
    entry = InteractionEntry(entry_id="e1", text=text, timestamp=0.0, metadata={"structure": "paragraph", "rows": [
        [row, "Total revenues"], ["Net income | 2023: 8,503 | 2022: 6,717", "Net income"]], "columns": ["2023"]})
    assert entry_sentences(entry) == ["Year Ended May 31, the table below.", "It has rows.", row,
                                      "Net income | 2023: 8,503 | 2022: 6,717"]


def test_a_document_with_a_table_exports_and_imports(tmp_path) -> None:  # noqa: ANN001
    """Row metadata is export-safe (the schema takes short key names only): a bank that read a table saves."""
    import json

    from memory_bank import MemoryBank, Settings
    from memory_bank.retrieval.embedding import HashingEmbedder
    from tests.loaders.pdf_factory import write_statement_pdf

    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(write_statement_pdf(tmp_path / "statement.pdf"))
    data = bank.export()
    rows = [e["metadata"]["rows"] for e in data["interaction_tree"]["entries"] if e["metadata"].get("rows")]
    assert rows and all(len(row) == 4 for pairs in rows for row in pairs)  # line, label, cells, unit
    again = MemoryBank.from_export(json.dumps(data), bank.settings, embedder=HashingEmbedder())
    assert again.export() == data
    typed = [ref for e in data["interaction_tree"]["entries"] for ref in table_rows(e["metadata"]).values()]
    net = next(ref for ref in typed if ref.name == "Net income")
    assert net.unit == "millions" and net.values_for(asked("net income in the year to September 24, 2022")) \
        == [("September 24, 2022", "$99,803")]


def test_cells_come_typed_and_hostile_cells_are_dropped() -> None:
    meta = {"columns": ["2023", "2022"], "rows": [
        ["Capital expenditures | 2023: (8,695) | 2022: (4,511) (millions)", "Capital expenditures",
         [["2023", "(8,695)"], ["2022", "(4,511)"]], "millions"],
        ["Bad | 2023: 1", "Bad", [["2023", 1], "x", ["a", "b", "c"]], 7]]}
    rows = table_rows(meta)
    capex = rows["Capital expenditures | 2023: (8,695) | 2022: (4,511) (millions)"]
    assert capex.values_for(asked("What were capital expenditures in fiscal 2022?")) == [("2022", "(4,511)")]
    assert capex.values_for(asked("What were capital expenditures in fiscal 2020?")) == []
    assert rows["Bad | 2023: 1"].cells == () and rows["Bad | 2023: 1"].unit == ""


def test_a_one_word_row_is_named_with_the_words_of_the_row_heading_it() -> None:
    meta = {"structure": "table", "columns": ["2022", "2021"],
            "rows": [["Net sales by category:", "Net sales by category:", []],
                     ["iPhone (1) | 2022: $205,489", "iPhone (1)", [["2022", "$205,489"]]],
                     ["Mac (1) | 2022: $40,177", "Mac (1)", [["2022", "$40,177"]]]]}
    row = table_rows(meta)["iPhone (1) | 2022: $205,489"]
    assert row.name == "Net sales by category: iPhone"  # its group said, its footnote's mark dropped
    assert names_row(asked("What were Apple's iPhone net sales in 2022?"), row)
    assert not names_row(asked("What was iPhone gross margin in 2022?"), row)  # not its group's words
    alone = table_rows({"structure": "table", "columns": ["2022"],
                        "rows": [["iPhone | 2022: 5", "iPhone", [["2022", "5"]]]]})["iPhone | 2022: 5"]
    assert not names_row(asked("What were iPhone net sales in 2022?"), alone)  # one word, no group: too loose
