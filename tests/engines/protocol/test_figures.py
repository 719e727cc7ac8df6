"""A figure asked for by row and year: the value the document's tables agree on, stated with year and unit; a
year the tables do not cover is said plainly."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings
from memory_bank.engines.protocol.figures import missing_years, named_rows
from memory_bank.engines.protocol.not_found import is_not_found
from memory_bank.engines.protocol.table_rows import table_rows
from memory_bank.memory.interaction_tree import InteractionEntry
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.text.tokens import stems
from tests.loaders.pdf_factory import write_statement_pdf


def _table(entry_id: str, label: str, values: dict[str, str],
           section: tuple[str, ...] = ()) -> tuple[InteractionEntry, tuple[str, ...]]:
    line = " | ".join([label, *(f"{c}: {v}" for c, v in values.items())]) + " (millions)"
    meta = {"structure": "table", "columns": list(values), "section": list(section),
            "rows": [[line, label, [[c, v] for c, v in values.items()], "millions"]]}
    return InteractionEntry(entry_id, line, 0.0, meta), (f"node-{entry_id}",)


def _asked(question: str) -> frozenset[str]:
    return frozenset(stems(question))


def test_the_value_most_tables_agree_on_comes_first() -> None:
    tables = [_table("hardware", "Total revenues", {"2023": "3,274", "2022": "3,183"}),
              _table("statement", "Total revenues", {"2023": "$49,954", "2022": "$42,440"}),
              _table("segments", "Total revenues", {"2023": "49,954", "2022": "42,440"}),
              _table("other", "Total costs", {"2023": "1", "2022": "2"})]
    rows = named_rows(_asked("What were Oracle's total revenues in fiscal 2023?"), tables,
                      lambda e: table_rows(e.metadata))
    assert [(r.entry.entry_id, r.value, r.agree) for r in rows] == [
        ("statement", "$49,954", 2), ("segments", "49,954", 2), ("hardware", "3,274", 1)]
    assert rows[0].statement() == "Total revenues, 2023: $49,954 (millions)"
    assert named_rows(_asked("Did total revenues grow?"), tables, lambda e: table_rows(e.metadata)) == []
    gap = missing_years(_asked("What were total revenues in fiscal 2020?"), tables, lambda e: table_rows(e.metadata))
    assert gap == ("Total revenues", ["2023", "2022"])
    schedule = [_table("amortization", "Fiscal 2024", {"2023": "3,100"}), *tables]  # the schedule read first
    assert missing_years(_asked("What were total revenues in fiscal 2024?"), schedule,
                         lambda e: table_rows(e.metadata)) == ("Total revenues", ["2023", "2022"])
    assert missing_years(_asked("What were total revenues in 2022?"), tables,
                         lambda e: table_rows(e.metadata)) is None


def test_a_missing_year_names_its_row_as_a_reader_would() -> None:
    from memory_bank.engines.offline.figure_answer import missing_text

    assert missing_text("Not found.", "Gross margin:", ["2022", "2021", "2020"]) == (
        "Not found. Their tables give “Gross margin” for 2022, 2021 and 2020 only.")


def test_a_figure_is_answered_from_its_row_and_a_year_past_the_tables_is_not_found(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(write_statement_pdf(tmp_path / "statement.pdf"))
    result = bank.run("What were the purchases of marketable securities in 2022?")
    assert result.answer.startswith("Purchases of marketable securities, September 24, 2022: (76,923) (millions)")
    assert result.citations and "(76,923)" in result.citations[0].quote and result.citations[0].pages == [1]
    gone = bank.run("What were the purchases of marketable securities in 2019?")
    assert is_not_found(gone.answer) and "2022 and 2021 only" in gone.answer


def test_a_comparison_shows_the_rows_it_names_each_with_its_place(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(write_statement_pdf(tmp_path / "statement.pdf"))
    result = bank.run("How did purchases of marketable securities compare with cash used in investing activities?")
    lines = result.answer.splitlines()
    assert lines[0].startswith("- Purchases of marketable securities | September 24, 2022: (76,923)")
    assert lines[1].startswith("- Cash used in investing activities | September 24, 2022: $(22,354)") \
        or lines[1].startswith("- Cash used in investing activities | September 24, 2022: (22,354)")
    assert all("statement.pdf" in line for line in lines[:2])
    assert len({c.node_id for c in result.citations}) >= 1


def test_which_grew_more_is_said_in_words_from_the_rows_change_columns() -> None:
    from memory_bank.engines.offline.figure_answer import asks_growth, growth_text
    from memory_bank.engines.protocol.figures import change_of, label_rows

    tables = [_table("opex", "Research and development", {"2022": "$26,251", "Change": "20%", "2021": "$21,914"}),
              _table("opex2", "Selling, general and administrative", {"2022": "$25,094", "Change": "14%"}),
              _table("note", "Research and development", {"2022": "(26,251)", "2021": "(21,914)"})]
    question = "Which grew more in 2022, research and development or selling, general and administrative?"
    assert asks_growth(question) and not asks_growth("What were research and development costs in 2022?")
    rows = label_rows(stems(question), tables, lambda e: table_rows(e.metadata),
                      prefer=lambda row: change_of(row) is not None)
    assert [r.entry.entry_id for r in rows] == ["opex", "opex2"]  # the row with a change column, of each label
    assert growth_text(rows, [change_of(r.row) for r in rows]) == (
        "Research and development grew more: 20%, against 14% for Selling, general and administrative.")


def test_a_deduction_agrees_with_its_expense_and_a_tie_goes_to_the_consolidated_statement() -> None:
    """Oracle's stock-based compensation note and its statement of operations both have a "Research and
    development" row; the note's value is in two tables, the statement's in two as well once the segment note's
    "(8,623)" is read as the same figure: the statement's is the one the filing stands by."""
    tables = [_table("note-a", "Research and development", {"2023": "1,983", "2022": "1,633"}, ("Stock-Based",)),
              _table("note-b", "Research and development", {"2023": "1,983", "2022": "1,633"}, ("Charges",)),
              _table("statement", "Research and development", {"2023": "8,623", "2022": "7,219"},
                     ("ORACLE CORPORATION CONSOLIDATED STATEMENTS OF OPERATIONS",)),
              _table("segments", "Research and development", {"2023": "(8,623)", "2022": "(7,219)"},
                     ("14. SEGMENT INFORMATION",))]
    rows = named_rows(_asked("How much did Oracle spend on research and development in fiscal 2023 and 2022?"),
                      tables, lambda e: table_rows(e.metadata))
    agree = {r.entry.entry_id: r.agree for r in rows}
    assert rows[0].entry.entry_id == "statement" and agree == {"statement": 2, "segments": 2, "note-a": 2, "note-b": 2}
    assert rows[0].statement() == "Research and development, 2023: 8,623; 2022: 7,219 (millions)", "both years"


def test_a_reader_leaves_out_the_net_or_total_of_a_long_row_label() -> None:
    tables = [_table("flows", "Net cash provided by operating activities", {"2023": "17,165", "2022": "9,539"}),
              _table("income", "Total revenues", {"2023": "49,954"})]
    rows = named_rows(_asked("What was the cash provided by operating activities in fiscal 2023?"), tables,
                      lambda e: table_rows(e.metadata))
    assert [r.value for r in rows] == ["17,165"]
    # a short label keeps its qualifier: "revenues in 2023" does not name "Total revenues"
    assert named_rows(_asked("What were revenues in fiscal 2023?"), tables, lambda e: table_rows(e.metadata)) == []


def test_a_reader_asks_in_everyday_terms_for_the_row_a_statement_labels_otherwise() -> None:
    from memory_bank.text.statement_terms import label_terms

    tables = [_table("debt", "Total notes payable and other borrowings", {"2023": "$90,481", "2022": "$75,946"}),
              _table("debt-current", "Notes payable and other borrowings, current", {"2023": "4,061"}),
              _table("capex", "Capital expenditures", {"2023": "(8,695)"}),
              _table("ppe", "Purchases of property, plant and equipment", {"2023": "(10,708)"}),
              _table("sales", "Total net sales", {"2023": "$394,328"}),
              _table("products", "Products net sales", {"2023": "$316,199"}),
              _table("dividends", "Payments for dividends and dividend equivalents", {"2023": "(14,841)"}),
              _table("rd", "Research and development", {"2023": "8,623"})]

    def named(question: str) -> list[str]:
        return [r.entry.entry_id for r in named_rows(frozenset(label_terms(question)), tables,
                                                      lambda e: table_rows(e.metadata))]

    assert named("What was the company's total debt in 2023?") == ["debt"]
    assert named("What were its revenues in 2023?") == ["sales"]
    assert named("How much did it pay in dividends in 2023?") == ["dividends"]
    assert named("How much did it spend on R&D in 2023?") == ["rd"]
    assert set(named("What were its capital expenditures in 2023?")) == {"capex", "ppe"}
    # the question's own words first, the label words after them; nothing widened for a plain question
    assert label_terms("What were total revenues in 2023?")[:4] == ["total", "revenu", "2023", "net"]
    assert label_terms("Who audits the company?") == stems("Who audits the company?")
    # the everyday words alone name no row: "debt" without a year asks for no cell
    assert named("Why did debt rise?") == []


def test_a_question_in_the_filings_own_words_is_not_widened_to_a_broader_row() -> None:
    """"Cloud services revenues" names the row "Cloud services"; widened by "revenues" → "total net sales" it
    would also name "Total revenues", the larger and more agreed-on figure."""
    from memory_bank.engines.protocol.figures import TableIndex

    tables = [_table("statement", "Total revenues", {"2022": "42,440"}),
              _table("segments", "Total revenues", {"2022": "42,440"}),
              _table("cloud", "Cloud services", {"2022": "$10,809"}),
              _table("debt", "Total notes payable and other borrowings", {"2022": "$75,946"})]

    class View:
        def table_entries(self) -> list:
            return tables

    index = TableIndex(View())  # type: ignore[arg-type]
    assert [r.entry.entry_id for r in index.named_rows("What were cloud services revenues in 2022?")] == ["cloud"]
    assert [r.entry.entry_id for r in index.named_rows("What was the total debt in 2022?")] == ["debt"]


def test_a_comparison_reads_one_row_per_compared_part_not_their_sum_nor_a_mix() -> None:
    """"cloud services revenues or license support revenues": the rows "Cloud services" and "License support",
    not the row of both together (it says every word of the question) nor "Cloud and license" (a word of each)."""
    from memory_bank.engines.protocol.figures import change_of, label_rows

    tables = [_table("total", "Total cloud services and license support revenues", {"2023": "35,307", "Change": "17%"}),
              _table("both", "Cloud services and license support", {"2023": "7,222", "Change": "47%"}),
              _table("mixed", "Cloud and license", {"2023": "41,086", "Change": "14%"}),
              _table("by-kind", "Revenues: Services", {"2023": "5,100", "Change": "3%"}),
              _table("cloud", "Cloud services", {"2023": "15,881", "Change": "47%"}),
              _table("support", "License support", {"2023": "19,426", "Change": "0%"})]
    question = "In 2023, which grew faster: cloud services revenues or license support revenues?"
    rows = label_rows(stems(question), tables, lambda e: table_rows(e.metadata),
                      prefer=lambda row: change_of(row) is not None, question=question)
    assert [r.entry.entry_id for r in rows] == ["cloud", "support"]
    # one label asked in two years has no compared parts: its row as before
    one = "How did total cloud services and license support revenues change from 2022 to 2023?"
    assert [r.entry.entry_id for r in label_rows(stems(one), tables, lambda e: table_rows(e.metadata),
                                                  question=one)][:1] == ["total"]


def test_a_compared_part_takes_the_row_with_the_change_a_growth_question_wants() -> None:
    from memory_bank.engines.protocol.figures import change_of, label_rows

    tables = [_table("note", "Research and development expense", {"2022": "(26,251)", "2021": "(21,914)"}),
              _table("opex", "Research and development", {"2022": "$26,251", "Change": "20%"}),
              _table("opex2", "Selling, general and administrative", {"2022": "$25,094", "Change": "14%"})]
    question = ("Which grew more in 2022, research and development expense or selling, general and administrative "
                "expense?")
    rows = label_rows(stems(question), tables, lambda e: table_rows(e.metadata),
                      prefer=lambda row: change_of(row) is not None, question=question)
    assert [r.entry.entry_id for r in rows] == ["opex", "opex2"]


def test_a_figure_is_stated_in_its_own_rows_unit_not_the_tables_whole_caption() -> None:
    caption = "millions, except number of shares which are reflected in thousands and per share amounts"
    cells = {"2022": "26,251"}

    def statement(label: str, unit: str = caption) -> str:
        line = f"{label} | 2022: 26,251"
        meta = {"structure": "table", "columns": ["2022"],
                "rows": [[line, label, [[c, v] for c, v in cells.items()], unit]]}
        entry = InteractionEntry("t", line, 0.0, meta)
        row = table_rows(entry.metadata)[line]
        return named_rows(_asked(f"{label} in 2022?"), [(entry, ("n",))], lambda e: table_rows(e.metadata)
                          )[0].statement() if row else ""

    assert statement("Research and development") == "Research and development, 2022: 26,251 (millions)"
    assert statement("Shares used in computing earnings per share") == (
        "Shares used in computing earnings per share, 2022: 26,251 (thousands)")
    assert statement("Diluted earnings per share") == "Diluted earnings per share, 2022: 26,251"
    assert statement("Weighted-average exercise price", "millions, except exercise price") == (
        "Weighted-average exercise price, 2022: 26,251")
    assert statement("Total revenues", "Dollars in millions") == "Total revenues, 2022: 26,251 (Dollars in millions)"
    cells["2022"] = "16.2%"  # a rate in a table captioned in dollars is a rate
    assert statement("Effective tax rate", "dollars in millions") == "Effective tax rate, 2022: 16.2%"


def test_a_listed_row_shows_its_own_unit() -> None:
    caption = "millions, except per share data"
    line = f"Total revenues | 2023: 49,954 | 2022: 42,440 ({caption})"
    meta = {"structure": "table", "columns": ["2023", "2022"],
            "rows": [[line, "Total revenues", [["2023", "49,954"], ["2022", "42,440"]], caption]]}
    entry = InteractionEntry("t", line, 0.0, meta)
    rows = named_rows(_asked("What were total revenues in 2023?"), [(entry, ("n",))], lambda e: table_rows(e.metadata))
    assert rows[0].shown() == "Total revenues | 2023: 49,954 | 2022: 42,440 (millions)"
