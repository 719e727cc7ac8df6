"""Document furniture: detected at ingestion (on the NIST PDF and on small texts), kept through merges, snapshot and
export, ranked below body text as evidence, drawn de-emphasised in the graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.events import EventBus
from memory_bank.ingest.graph_ops import GraphOps, RawEntry
from memory_bank.memory.query_graph import Node
from memory_bank.memory.snapshot import NodeView
from memory_bank.memory.store import Memory
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.retrieval.hybrid_index import HybridIndex
from memory_bank.retrieval.passages import PassageSearch
from memory_bank.retrieval.retriever import Retriever
from memory_bank.text.furniture import FurnitureDetector, Role, merged_role
from tests.support.fake_engine import fake_engine
from ui.graph_data import build_graph

BODY = ("The policy enforcement point enables, monitors and terminates connections between a subject and an "
        "enterprise resource. It asks the policy decision point for every access decision.")
TOC = ("Table of Contents\n1 Introduction ........................................ 1\n"
       "2 Policy Enforcement Point .............................. 4\n3.1 Policy Decision Point ............ 7")
ACRONYMS = ("Appendix A—Acronyms API Application Programming Interface PDP Policy Decision Point PE Policy Engine "
            "PEP Policy Enforcement Point PKI Public Key Infrastructure ZTA Zero Trust Architecture")
REFERENCES = ("References\n[NIST] National Institute of Standards and Technology (2020) Zero Trust Architecture. "
              "https://doi.org/10.6028/NIST.SP.800-207\n[Gilman] Gilman E, Barth D (2017) Zero Trust Networks "
              "(O'Reilly Media, Sebastopol, CA).")
NOTICE = ("Patent Disclosure Notice\nNOTICE: The Information Technology Laboratory has requested that holders of "
          "patent claims whose use may be required for compliance disclose such patent claims.")


def _pages(*texts: str) -> list[tuple[int | None, str]]:
    return [(i + 1, t) for i, t in enumerate(texts)]


# ---- detection on small texts ---------------------------------------------------------------------------------

def test_each_kind_of_furniture_is_told_from_its_shape() -> None:
    detector = FurnitureDetector(_pages("Zero Trust Architecture\n\nScott Rose", NOTICE, TOC, *[BODY] * 8,
                                        REFERENCES, ACRONYMS))
    assert detector.role("Zero Trust Architecture\n\nScott Rose", 1) is Role.COVER
    assert detector.role(NOTICE, 2) is Role.NOTICE
    assert detector.role(TOC, 3) is Role.CONTENTS
    assert detector.role(REFERENCES, 12) is Role.REFERENCES
    assert detector.role(ACRONYMS, 13) is Role.ACRONYMS
    assert detector.role(BODY, 5) is Role.BODY


def test_line_lists_index_and_acronym_pairs() -> None:
    pairs = "API Application Programming Interface\nPDP Policy Decision Point\nPEP Policy Enforcement Point"
    index = "Index\naccess control, 12, 45-47\nenforcement point, 3\npolicy engine, 9, 10"
    detector = FurnitureDetector(_pages(BODY, BODY, BODY, BODY, BODY, index))
    assert detector.role(pairs, 3) is Role.ACRONYMS
    assert detector.role(index, 6) is Role.INDEX
    # one acronym-led line is a sentence, not a list
    assert detector.role("ZTA Deployment Cycle\n\n" + BODY, 3) is Role.BODY
    # a table's rows of figures: the comma of "3,000" separates thousands, it leads to no page
    counts = ("Services | approximate employee counts: 39,000\nHardware | approximate employee counts: 3,000\n"
              "General and administrative | approximate employee counts: 13,000")
    assert detector.role(counts, 4) is Role.BODY


def test_body_text_is_not_furniture() -> None:
    """Notice words deep in the body, a licence mentioned in an introduction, a mixed cluster where the body
    text is the larger part, upper-case field tables: all body."""
    detector = FurnitureDetector(_pages(*[BODY] * 20))
    assert detector.role("Any mention of commercial products does not imply a recommendation or endorsement.",
                         15) is Role.BODY
    assert detector.role("Anybody can use the library under the terms of the GNU Lesser General Public License. "
                         "The tools are licensed under the GNU General Public License.", 2) is Role.BODY
    assert detector.role("List of Tables\nTable B-1: Gaps .................... 46\n1 Introduction\n" + BODY * 2,
                         3) is Role.BODY
    assert detector.role("2 CARD16 MAJOR_VERSION 1 2 CARD16 MINOR_VERSION 2 4 CARD32 ALIAS_LIST_OFFSET 4 CARD32 "
                         "PARENT_LIST_OFFSET 4 CARD32 LITERAL_LIST_OFFSET", 12) is Role.BODY
    text = FurnitureDetector([(None, "# Budget\n\nThe budget covers identity management licences.")])
    assert text.role("The budget covers identity management licences.") is Role.BODY


def test_a_merge_keeps_body_if_any_side_is_body() -> None:
    assert merged_role([Role.CONTENTS, Role.BODY]) is Role.BODY
    assert merged_role([Role.REFERENCES, Role.ACRONYMS]) is Role.REFERENCES
    assert merged_role([]) is Role.BODY


# ---- the NIST PDF through the real pipeline (offline engine, hashing embedder: fast) --------------------------

@pytest.fixture(scope="module")
def nist_bank(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("nist"))
    bank.ingest_file(nist_pdf)
    return bank


def _source(bank: MemoryBank, node_id: str) -> str:
    return "\n".join(e.text for e in bank.memory.tree.entries_for(node_id))


def test_nist_furniture_pages_are_marked(nist_bank: MemoryBank) -> None:
    nodes = nist_bank.memory.graph.nodes()
    by_role = {role: [n for n in nodes if n.role is role] for role in Role}
    assert any(1 in n.pages() for n in by_role[Role.COVER])
    assert any("patent claims" in _source(nist_bank, n.id) for n in by_role[Role.NOTICE])
    assert any("Trademark Information" in _source(nist_bank, n.id) for n in by_role[Role.NOTICE])
    assert len(by_role[Role.CONTENTS]) >= 5 and all(min(n.pages()) <= 9 for n in by_role[Role.CONTENTS])
    assert any("PEP Policy Enforcement Point" in _source(nist_bank, n.id) for n in by_role[Role.ACRONYMS])
    assert len(by_role[Role.REFERENCES]) >= 10 and all(min(n.pages()) >= 51 for n in by_role[Role.REFERENCES])


def test_nist_body_sections_are_not_marked(nist_bank: MemoryBank) -> None:
    """Every node from the Introduction (PDF p. 10) to the last section before the references (p. 50) is body,
    and so are the abstract and the Appendix B gap analysis."""
    for node in nist_bank.memory.graph.nodes():
        text = _source(nist_bank, node.id)
        if 10 <= min(node.pages()) <= 50 or text.startswith(("Abstract", "Appendix B", "B.4")):
            assert node.role is Role.BODY, (node.pages(), text[:80])


def test_nist_roles_survive_export_and_import(nist_bank: MemoryBank) -> None:
    first = nist_bank.export()
    again = MemoryBank.from_export(json.dumps(first), nist_bank.settings, embedder=HashingEmbedder(),
                                   engine=fake_engine())
    assert again.export() == first
    roles = {n["role"] for n in first["query_graph"]["nodes"]}
    assert {"body", "cover", "notice", "contents", "acronyms", "references"} <= roles
    assert {n.role for n in again.snapshot().nodes} == roles


def test_an_export_without_roles_imports_as_body(nist_bank: MemoryBank) -> None:
    old = nist_bank.export()
    for node in old["query_graph"]["nodes"]:
        del node["role"]
    again = MemoryBank.from_export(json.dumps(old), nist_bank.settings, embedder=HashingEmbedder(),
                                   engine=fake_engine())
    assert {n.role for n in again.snapshot().nodes} == {"body"}


# ---- ranking ---------------------------------------------------------------------------------------------------

def _memory(*nodes: tuple[str, str, Role]) -> tuple[Memory, GraphOps, Retriever]:
    memory, embedder = Memory(), HashingEmbedder()
    index = HybridIndex(embedder.dim)
    ops = GraphOps(memory, index, embedder, EventBus())
    built = [Node(id=i, summary=text, context=text[:30], keywords=[], role=role) for i, text, role in nodes]
    for node, vector in zip(built, embedder.embed([n.embedding_text() for n in built])):
        node.embedding = vector
    ops.add_nodes(built, [RawEntry(text, {"source": "doc"}) for _, text, _ in nodes])
    return memory, ops, Retriever(memory.graph, index, embedder, k=1, alpha=0.5)


def test_body_text_ranks_above_furniture_with_the_same_words() -> None:
    question = "How does a policy enforcement point interact with the policy decision point?"
    memory, _, retriever = _memory(("toc", "Policy Enforcement Point ....... 4 Policy Decision Point ....... 7",
                                    Role.CONTENTS),
                                   ("body", "The policy enforcement point asks the policy decision point.", Role.BODY),
                                   ("other", "Budgets are approved by the board every March.", Role.BODY))
    assert [n.id for n, _ in retriever.ranked(question, k=1)] == ["body"]
    assert [n.id for n, _ in retriever.ranked(question, k=3)][:2] == ["body", "toc"]
    assert [p.node_ids[0] for p in PassageSearch(memory).search(question, 1)] == ["body"]


def test_merged_node_is_body_when_a_side_is_body() -> None:
    _, ops, _ = _memory(("a", "Table of contents ..... 3", Role.CONTENTS), ("b", "Body text here.", Role.BODY))
    node, _ = ops.merge(["a", "b"], summary="s", context="c", keywords=[], description="dup")
    assert node.role is Role.BODY


def test_the_answer_cites_body_text_before_furniture() -> None:
    question = "What is a policy enforcement point?"
    evidence = [Evidence("PEP Policy Enforcement Point PDP Policy Decision Point", "acr", prior=1.0,
                         role=Role.ACRONYMS),
                Evidence("A policy enforcement point is the system that enables, monitors and terminates "
                         "connections between a subject and an enterprise resource.", "body", prior=0.5)]
    answer = Answerer(HashingEmbedder()).answer(question, evidence)
    assert answer.found and {e.node_id for e in answer.used} == {"body"}
    alone = Answerer(HashingEmbedder()).answer(question, evidence[:1])
    assert alone.found and alone.used[0].node_id == "acr"  # with no body evidence, furniture still answers


def test_a_line_read_under_a_table_of_contents_heading_is_no_body_sentence() -> None:
    """A 10-K's cover line runs into its contents heading ("… September 24, 2022 TABLE OF CONTENTS Part I"): body by
    its shape, furniture by the section it was read in, so it is never the filler of an answer."""
    from memory_bank.text.furniture import section_role

    assert section_role("TABLE OF CONTENTS") is Role.CONTENTS and section_role("References") is Role.REFERENCES
    assert section_role("Item 7. Management's Discussion") is None
    question = "How many employees did Acme have at the end of fiscal 2022?"
    cover = Evidence("Acme Inc. Form 10-K For the Fiscal Year Ended September 24, 2022 TABLE OF CONTENTS Part I",
                     "toc", prior=1.0, section=("TABLE OF CONTENTS",))
    count = Evidence("As of September 24, 2022, the Company had approximately 164,000 full-time equivalent "
                     "employees.", "body", prior=0.5, section=("Human Capital",))
    ranked = Answerer(HashingEmbedder()).rank(question, [cover, count])
    assert ranked is not None and [ranked.pool[i].node_id for i in ranked.body()] == ["body"]


def test_a_filings_index_of_exhibits_is_no_body_sentence_at_any_depth_of_its_section() -> None:
    """"S-8 4.1 8/23/18 10.1* Employee Stock Purchase Plan …" names a document filed elsewhere: read under the item
    that holds the exhibit index (as deep in the section path as the filing puts it), it never fills an answer on
    employees."""
    from memory_bank.text.furniture import section_role

    for title in ("Item 15. Exhibit and Financial Statement Schedules", "ORACLE CORPORATION INDEX OF EXHIBITS",
                  "Exhibit Index", "ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES"):
        assert section_role(title) is Role.CONTENTS, title
    for title in ("Exhibit 31.1", "Financial Statement Schedules", "Price Index of Exhibits in Museums", "PART IV"):
        assert section_role(title) is None, title  # an exhibit itself, a schedule, a body title
    question = "How many employees did Acme have?"
    index = Evidence("S-8 4.1 8/23/18 10.1* Employee Stock Purchase Plan, as amended and restated as of March 10, "
                     "2015.", "exhibits", prior=1.0,
                     section=("PART IV", "Item 15. Exhibit and Financial Statement Schedules"))
    count = Evidence("As of September 24, 2022, the Company had approximately 164,000 full-time equivalent "
                     "employees.", "body", prior=0.5, section=("PART I", "Human Capital"))
    ranked = Answerer(HashingEmbedder()).rank(question, [index, count])
    assert ranked is not None and [ranked.pool[i].node_id for i in ranked.body()] == ["body"]


def test_a_how_many_question_finds_the_passage_that_counts_among_many_that_repeat_the_noun() -> None:
    plans = [(f"plan{k}", f"In fiscal 2022 the Acme Employee Stock Plan {k} gave equity grants to employees at the "
              f"end of each quarter.", Role.BODY) for k in range(6)]
    memory, _, _ = _memory(*plans, ("staff", "As of September 24, the Company had approximately 164,000 full-time "
                                             "equivalent employees, working in offices, plants and retail stores "
                                             "across countries and regions.", Role.BODY))
    hits = PassageSearch(memory).search("How many employees did Acme have at the end of fiscal 2022?", 1)
    assert [p.node_ids[0] for p in hits] == ["staff"]
    plain = PassageSearch(memory).search("Which plans give employees equity grants?", 1)
    assert plain[0].node_ids[0].startswith("plan")  # only a count question asks for the count's marks


# ---- drawing -----------------------------------------------------------------------------------------------------

def test_graph_draws_furniture_faded_small_and_labelled() -> None:
    def view(node_id: str, role: str) -> NodeView:
        return NodeView(id=node_id, context=node_id, summary="s", keywords=(), kind="text", timestamp=1.0,
                        source_names=("doc.pdf",), source_labels=("doc.pdf, p. 1",), pages=(1,), merged_from=(),
                        role=role)

    data = build_graph([view("body", "body"), view("toc", "contents")], [("body", "toc")])
    drawn = {n["id"]: n for n in data.nodes}
    body, toc = drawn["body"], drawn["toc"]
    assert toc["size"] < body["size"]
    assert toc["color"]["background"] != body["color"]["background"]
    assert toc["font"]["color"] and "color" not in body["font"]
    assert {"text": "furniture: contents", "kind": "furniture"} in toc["tip"]["badges"]
    assert data.legend["furniture"] == ["contents"]


def test_a_filings_prose_on_the_rights_it_holds_is_no_notice() -> None:
    """Apple's Item 1 on an early page: "patents, designs, copyrights, trademarks, trade secrets" named in a list
    made its intellectual property paragraphs notices, so "No single intellectual property right is solely
    responsible …" was never cited. A line that states rights ("All registered trademarks or trademarks belong to
    their respective organizations.") is still one."""
    prose = ("The Company currently holds a broad collection of intellectual property rights relating to certain "
             "aspects of its hardware devices, accessories, software and services. This includes patents, designs, "
             "copyrights, trademarks, trade secrets and other forms of intellectual property rights in the U.S. and "
             "various foreign countries.")
    detector = FurnitureDetector(_pages(*[BODY] * 20))
    assert detector.role(prose, 3) is Role.BODY  # an early page, where one notice word makes a notice
    assert detector.role("All registered trademarks or trademarks belong to their respective organizations.", 2) \
        is Role.NOTICE
