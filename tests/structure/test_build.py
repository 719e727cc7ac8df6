"""The section tree and units a document is read into: headings by Markdown, numbering or rule, lists kept whole
with their lead-in, tables as one unit, and bounded results for pathological pages."""

from __future__ import annotations

from memory_bank.loaders.document import Block, Document, Page, Table, TableRow
from memory_bank.structure.build import StructureBuilder, StructureLimits
from memory_bank.structure.headings import looks_like_heading, numbered_level
from memory_bank.structure.lists import item_marker, line_items

MARKDOWN = """# Northwind plan

Northwind moves the company's offices to zero-emission buildings.

## Budget

The budget is 5 million dollars.

## Steps

The migration follows these steps:

1. Survey every site and record its energy use.
2. Replace the heating of the pilot plant.
3. Review the pilot and roll out region by region.

## Risks

- Supplier delays
- Cost overruns on older buildings
"""


def test_markdown_headings_make_a_tree_and_lists_stay_whole_with_their_lead_in() -> None:
    doc = Document.from_text(MARKDOWN, "plan.md", kind="markdown")
    structure = StructureBuilder().run(doc)
    titles = [(s.title, s.level, s.path) for s in structure.sections]
    assert titles[0] == ("Northwind plan", 1, ("Northwind plan",))
    assert ("Steps", 2, ("Northwind plan", "Steps")) in titles
    steps = next(s for s in structure.sections if s.title == "Steps")
    (numbered,) = [u for u in structure.units if u.kind == "list" and u.section == steps.id]
    assert numbered.lead_in == "The migration follows these steps:"
    assert [i.marker for i in numbered.items] == ["1.", "2.", "3."]
    assert numbered.items[2].first_sentence == "Review the pilot and roll out region by region."
    assert numbered.text.startswith("The migration follows these steps:")  # the lead-in travels with the list
    risks = next(s for s in structure.sections if s.title == "Risks")
    (bullets,) = [u for u in structure.units if u.kind == "list" and u.section == risks.id]
    assert [i.text for i in bullets.items] == ["Supplier delays", "Cost overruns on older buildings"]


def _pdf_like(paragraphs_by_page: list[list[str]]) -> Document:
    pages = [Page(n, "\n\n".join(paras)) for n, paras in enumerate(paragraphs_by_page, start=1)]
    return Document(name="report.pdf", path=None, kind="pdf", pages=pages)


def test_numbered_headings_nest_and_a_numbered_paragraph_list_spans_pages() -> None:
    doc = _pdf_like([
        ["2 Zero Trust Basics", "Zero trust is a set of ideas.", "2.1 Tenets of Zero Trust",
         "A zero trust architecture is designed with the following tenets:",
         "1. All data sources are considered resources.", "2. All communication is secured."],
        ["3. Access is granted per session.", "2.2 A Zero Trust View of a Network", "Some assumptions hold."],
    ])
    structure = StructureBuilder().run(doc)
    by_title = {s.title: s for s in structure.sections}
    tenets = by_title["2.1 Tenets of Zero Trust"]
    assert tenets.parent == by_title["2 Zero Trust Basics"].id and tenets.level == 2
    assert by_title["2.2 A Zero Trust View of a Network"].parent == by_title["2 Zero Trust Basics"].id
    (tenet_list,) = [u for u in structure.units if u.kind == "list"]
    assert len(tenet_list.items) == 3 and (tenet_list.page_start, tenet_list.page_end) == (1, 2)
    assert tenet_list.section == tenets.id
    assert (tenets.page_start, tenets.page_end) == (1, 2)
    assert by_title["2 Zero Trust Basics"].page_end == 2  # a section ends where its last sub-section does


def test_heading_rules() -> None:
    assert numbered_level("3.2.1 Device Agent/Gateway-Based Deployment") == 3
    assert numbered_level("Item 7. Management's Discussion") == 2 and numbered_level("PART II") == 1
    assert looks_like_heading("RISK FACTORS") and looks_like_heading("3.1 Scope")
    assert not looks_like_heading("The budget is 5 million dollars.")
    assert not looks_like_heading("Contact: see https://example.org/a")
    assert not looks_like_heading("1. Gather the data")  # a list item, not a section
    assert item_marker("(b) second") is not None and item_marker("2022 was a good year") is None
    assert line_items("- a\n- b\n  continued") is not None and line_items("just text\nmore") is None


def test_a_caption_is_not_a_heading_and_a_single_numbered_paragraph_is_a_paragraph() -> None:
    doc = _pdf_like([["1 Introduction", "Figure 1: Core Zero Trust Logical Components",
                      "1. This paragraph only happens to start with a number and has no list around it."]])
    structure = StructureBuilder().run(doc)
    assert [s.title for s in structure.sections] == ["1 Introduction"]
    assert [u.kind for u in structure.units] == ["heading", "paragraph", "paragraph"]


def test_typed_blocks_are_trusted_and_a_table_is_one_unit() -> None:
    table = Table("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2022", "2021"),
                  (TableRow("Purchases of property, plant and equipment", ("(10,708)", "(11,085)")),), "millions")
    blocks = [Block("Item 8. Financial Statements", "heading", 2), Block("Short Title", "paragraph"),
              Block(table.text(), "table", table=table)]
    doc = Document(name="10k.pdf", path=None, kind="pdf", pages=[Page.from_blocks(1, blocks)])
    structure = StructureBuilder().run(doc)
    assert [s.title for s in structure.sections] == ["Item 8. Financial Statements"]  # no guessing beside blocks
    (unit,) = [u for u in structure.units if u.kind == "table"]
    assert unit.table is table and "2022: (10,708)" in unit.text and unit.section == structure.sections[0].id


def test_a_page_of_nothing_but_headings_is_bounded() -> None:
    lines = [f"Heading Number {i}" for i in range(20_000)]
    structure = StructureBuilder(StructureLimits(max_sections=500)).run(_pdf_like([lines]))
    assert len(structure.sections) == 500
    assert len(structure.units) == 20_000  # the rest are read as paragraphs: nothing is lost
    assert max(s.level for s in structure.sections) <= StructureLimits().max_depth


def test_a_list_of_ten_thousand_items_is_one_unit_read_in_linear_work() -> None:
    items = [f"• Item number {i} says something short." for i in range(1, 10_001)]
    structure = StructureBuilder().run(_pdf_like([["These are the items:", *items]]))
    (unit,) = [u for u in structure.units if u.kind == "list"]
    assert len(unit.items) == 10_000 and unit.lead_in == "These are the items:"
    assert unit.text.count("\n\n") == 10_000


def test_chunks_cut_between_units_and_items_never_inside_and_never_end_on_a_heading() -> None:
    from memory_bank.structure.chunking import chunk_units
    from memory_bank.text.tokens import estimate_tokens

    items = [f"{i}. " + " ".join(f"word{i}x{j}" for j in range(30)) + "." for i in range(1, 9)]
    doc = _pdf_like([["1 Scope", "A paragraph of scope. " * 20, "2 Steps", "Follow these steps:", *items,
                      "3 Next", "More text here. " * 10]])
    structure = StructureBuilder().run(doc)
    chunks = chunk_units(structure, 120)
    assert len(chunks) > 2
    texts = [c.text for c in chunks]
    for item_text in items:  # every item lies whole in one chunk
        assert sum(item_text in t for t in texts) == 1
    for chunk in chunks:
        assert chunk.pieces[-1].kind != "heading"
        assert estimate_tokens(chunk.text) <= 120 + len(chunk.pieces)
        assert all(chunk.text[p.start:p.end].strip() for p in chunk.pieces)
    heads = [t for t in texts if "2 Steps" in t]
    assert heads and heads[0].index("2 Steps") < heads[0].index("Follow these steps:")


def test_a_list_the_layout_ran_into_one_paragraph_is_still_a_list() -> None:
    text = ("The policies we believe are the most critical include: • Revenue Recognition; • Business Combinations; "
            "• Accounting for Income Taxes; and • Legal and Other Contingencies.")
    structure = StructureBuilder().run(_pdf_like([["Critical Accounting Policies", text]]))
    (unit,) = [u for u in structure.units if u.kind == "list"]
    assert unit.lead_in.endswith("include:") and len(unit.items) == 4
    assert unit.items[3].text == "Legal and Other Contingencies."


def test_a_sentence_that_sorts_what_follows_into_kinds_tells_what_a_list_is_of() -> None:
    """No colon announces the list, but the sentence before it names its kind: "What are the inputs?" finds it."""
    intro = "In the figure, the inputs can be broken into categories based on what they provide to the algorithm."
    structure = StructureBuilder().run(_pdf_like([["3.3 Trust Algorithm", intro, "• Access request: the request.",
                                                   "• Threat intelligence: a feed of threats."]]))
    (unit,) = [u for u in structure.units if u.kind == "list"]
    assert unit.lead_in == intro and len(unit.items) == 2
    assert [u.kind for u in structure.units].count("paragraph") == 1  # the sentence stays where it was read
    plain = StructureBuilder().run(_pdf_like([["3.3 Trust Algorithm", "The engine decides every request.",
                                               "• Access request: the request.", "• Threat intelligence: a feed."]]))
    (unit,) = [u for u in plain.units if u.kind == "list"]
    assert unit.lead_in == ""  # a sentence that only comes before a list does not name its kind
    single = StructureBuilder().run(_pdf_like([["3.3 Trust Algorithm", intro, "1. One paragraph with a number."]]))
    assert "list" not in [u.kind for u in single.units]  # one item is still a paragraph


def test_how_many_asks_for_a_list_only_when_it_counts_items() -> None:
    from memory_bank.text.asks import asks_for_items, item_noun

    assert asks_for_items("How many tenets of zero trust are there?")
    assert item_noun("What deployment models does NIST describe?") == "models"  # the head of the compound
    assert not asks_for_items("How many full-time employees did Oracle have?")  # a quantity, not a list
    assert not asks_for_items("How many shares did Apple repurchase in 2022?")
    # an amount, however many plural nouns it names: not the restructuring section's list of activities
    assert not asks_for_items("How much cash did Oracle's operating activities provide in fiscal 2023?")
    assert not asks_for_items("How many employees did its services businesses have?")
    assert asks_for_items("How many services does Apple sell, and what are they?")
    assert item_noun("What are the inputs to the trust algorithm?") == "inputs"
    # the steps of a change, though no steps are named; a past beginning is history, not steps
    assert item_noun("How should an enterprise begin migrating to ZTA?") == "steps"
    assert item_noun("How can an agency move to a zero trust architecture?") == "steps"
    assert not asks_for_items("How did Tesla start his career?") and not asks_for_items("How does the PEP work?")
    # how something is done asks a manner: the plural it is done to is no kind of item asked for (blind set:
    # Oracle's six hardware products were listed for how their revenues are recognized)
    assert not asks_for_items("How does Oracle recognize revenues from its hardware products and support contracts?")
    assert not asks_for_items("How are the components of a zero trust architecture deployed?")
    # what to do first, or before a change, is its steps; what a component does is not
    assert item_noun("What should an enterprise do before deploying ZTA?") == "steps"
    assert item_noun("What must an agency do first to move to zero trust?") == "steps"
    assert not asks_for_items("What does the policy engine do?") and not asks_for_items("What should a PEP do?")
    # a possessive names whose items they are, not their kind
    assert item_noun("What are the company's main businesses?") == "businesses"
    assert item_noun("What are the companies' main risks?") == "risks"


def test_two_words_for_one_kind_of_item_offer_no_choice() -> None:
    from memory_bank.engines.offline.figure_answer import asks_choice
    from memory_bank.text.asks import kinds_joined

    assert kinds_joined("Which deployment scenarios or use cases lend themselves to zero trust?")
    assert not asks_choice("Which deployment scenarios or use cases lend themselves to zero trust?")
    assert not asks_choice("Which products or services does Apple sell?")
    assert asks_choice("Which grew faster, iPhone or Mac?")  # two things named: a choice
    assert asks_choice("Which is larger: services or products?")
    assert asks_choice("Which segment had higher sales, Americas or Europe?")


def test_only_footnotes_and_a_page_turn_join_two_lists() -> None:
    from dataclasses import replace

    from memory_bank.structure.build import _rejoined
    from memory_bank.structure.model import ListItem, Unit

    first = Unit("list", "a", "s1", 11, 11, lead_in="The rest is organized as follows:",
                 items=(ListItem("•", "Section 2 …"), ListItem("•", "Section 3 …")))
    note = Unit("paragraph", "1 https://example.org/blog", "s1", 11, 11)
    rest = Unit("list", "b", "s1", 12, 12, items=(ListItem("•", "Section 4 …"), ListItem("•", "Section 5 …")))
    joined = _rejoined([first, note, rest])
    assert [u.kind for u in joined] == ["list", "paragraph"] and len(joined[0].items) == 4
    assert joined[0].page_end == 12
    prose = Unit("paragraph", "Other lists follow.", "s1", 11, 11)
    assert len(_rejoined([first, prose, rest])) == 3  # a paragraph of the text between: two lists
    assert len(_rejoined([first, note, replace(rest, lead_in="Also:")])) == 3  # a lead-in of its own: its own list
    assert len(_rejoined([first, note, replace(rest, page_start=11)])) == 3  # no page turn
    numbered = replace(rest, items=(ListItem("1.", "x"), ListItem("2.", "y")))
    assert len(_rejoined([first, note, numbered])) == 3  # another kind of marker


def test_footnotes_are_looked_back_over_a_few_at_a_time(monkeypatch) -> None:
    """A hostile file of thousands of paragraphs that read as footnotes ("1 x") is not scanned back over for every
    unit after them: a list is joined across a page's few notes, and the look-back is bounded."""
    from memory_bank.structure import build
    from memory_bank.structure.model import ListItem, Unit

    looked: list[str] = []

    class Counting:
        def match(self, text: str) -> bool:
            looked.append(text)
            return True

    monkeypatch.setattr(build, "_FOOTNOTE", Counting())
    notes = [Unit("paragraph", f"1 note {i}", "s1", 11, 11) for i in range(2000)]
    lists = [Unit("list", "b", "s1", 12, 12, items=(ListItem("•", "x"), ListItem("•", "y"))) for _ in range(200)]
    units = build._rejoined([*notes, *lists, *notes])
    assert len(units) == 4200  # nothing joined: no list before the notes
    assert len(looked) <= 200 * build.MAX_FOOTNOTES  # lists only, each over a page's few notes at most
