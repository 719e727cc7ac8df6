"""A loader that typed only a page's tables leaves its headings to the rules."""

from __future__ import annotations

from memory_bank.loaders.document import Block, Document, Page, Table, TableRow
from memory_bank.structure.build import StructureBuilder


def test_headings_are_still_read_by_rule_beside_table_blocks() -> None:
    table = Table("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2022", "2021"),
                  (TableRow("Purchases of property, plant and equipment", ("(10,708)", "(11,085)")),), "millions")
    blocks = [Block("Item 8. Financial Statements and Supplementary Data"),
              Block("The statements below are audited."), Block(table.text(), "table", table=table)]
    doc = Document(name="10k.pdf", path=None, kind="pdf", pages=[Page.from_blocks(1, blocks)])
    structure = StructureBuilder().run(doc)
    assert [s.title for s in structure.sections] == ["Item 8. Financial Statements and Supplementary Data"]
    (unit,) = [u for u in structure.units if u.kind == "table"]
    assert unit.table is table and unit.section == structure.sections[0].id
