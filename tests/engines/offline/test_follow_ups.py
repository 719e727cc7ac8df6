"""Follow-ups a reader asks of a list or of an acronym, on the real NIST PDF: "… and how can they be mitigated?"
is asked of every threat in its own sub-section; "What does 'PA' stand for and what does it do?" gets the long form
the document defines, then what the PA does."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.acronym_answer import asked_acronym
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.item_details import asked_of, cue_stems, leans_on_list
from memory_bank.engines.offline.list_answer import ListConfig, _best_listing
from memory_bank.engines.offline.list_pointers import _counts_them
from memory_bank.memory.outline import Outline, OutlineChild, OutlineItem, OutlineList
from memory_bank.memory.query_graph import Node
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.text.question_parts import question_parts
from memory_bank.text.tokens import stems


@pytest.fixture(scope="module")
def nist_bank(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("nist"))
    bank.ingest_file(nist_pdf)
    return bank


def _item_lines(answer: str) -> dict[str, str]:
    return {line[2:].split(":", 1)[0]: line for line in answer.splitlines() if line.startswith("- ")}


def test_a_follow_up_asked_of_each_threat_is_answered_from_that_threats_own_sub_section(
        nist_bank: MemoryBank) -> None:
    result = nist_bank.run("What threats to a zero trust architecture are discussed and how can they be mitigated?")
    lines = _item_lines(result.answer)
    assert result.answer.startswith("The documents give 7 threats"), result.answer
    assert "Mitigating associated risks means the PE and PA components" in lines["5.1 Subversion of ZTA Decision "
                                                                                  "Process"], result.answer
    assert "To mitigate associated risks, enterprises should evaluate" in lines[
        "5.6 Reliance on Proprietary Data Formats or Solutions"], result.answer
    # one screen: a whole list is shown up to `whole_share` of the budget, past it an item is named by its title
    # (each threat's line now says the threat, a longer sentence than its sub-section's opening: 433 words)
    config = ListConfig()
    assert len(result.answer.split()) <= config.whole_share * config.detail_words
    cited = {c.node_id for c in result.citations}
    assert len(cited) >= 4  # the section, and the passages each detail was read from


def test_when_is_each_a_good_fit_reads_each_deployment_models_own_words(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What deployment models for ZTA are described, and when is each a good fit?").answer
    lines = _item_lines(answer)
    assert len(lines) == 4, answer
    assert "useful for enterprises" in lines["3.2.2 Enclave-Based Deployment"], answer
    for line in lines.values():  # each item: its opening sentence and one more, both whole
        assert line.rstrip().endswith((".", ")")) and "…" not in line


def test_how_many_asked_after_a_list_is_the_lists_count_not_a_not_found(nist_bank: MemoryBank) -> None:
    """As a user in the app: "What are the tenets of zero trust, and how many are there?" gave the seven tenets,
    then "- how many are there? Not found in the documents." (or, ranked by other vectors, a sentence that says
    "many"). The list's first line says how many: the part adds no line."""
    answer = nist_bank.run("What are the tenets of zero trust, and how many are there?").answer
    first, *items = answer.splitlines()
    assert first.startswith("The documents give 7 tenets"), answer
    assert [line.split(".")[0] for line in items] == [str(n) for n in range(1, 8)], answer
    assert _counts_them("how many are there in total?") and not _counts_them("how many are met by VPNs?")


def test_an_acronym_question_gets_the_long_form_the_document_defines_then_what_it_does(
        nist_bank: MemoryBank) -> None:
    result = nist_bank.run("What does 'PA' stand for and what does it do?")
    first, second = result.answer.splitlines()
    assert first.startswith("- PA stands for Policy administrator. (NIST.SP.800-207.pdf"), result.answer
    # what it does: the document's own entry for the PA in its list of components, without the list's bullet
    assert second.startswith("- Policy administrator (PA): This component is responsible for establishing"), \
        result.answer
    alone = nist_bank.run("What does PEP stand for?").answer
    assert alone.startswith("PEP stands for Policy enforcement point."), alone
    never = nist_bank.run("What does XYZQ stand for?").answer  # not defined there: no long form made up
    assert "stands for" not in never


def test_a_list_no_colon_announces_is_found_by_the_kind_the_sentence_before_it_names(
        nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What are the inputs to the trust algorithm?").answer
    assert answer.startswith("The documents give 5 inputs"), answer
    assert "Access request" in answer and "Threat intelligence" in answer, answer


def test_how_to_begin_a_migration_is_answered_by_the_documents_steps(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("How should an enterprise begin migrating to ZTA?").answer
    assert answer.startswith("The documents give 7 steps"), answer
    assert "7.3.1 Identify Actors on the Enterprise" in answer, answer
    # asked as what to do before the change, the same steps
    answer = nist_bank.run("What should an enterprise do before deploying ZTA?").answer
    assert answer.startswith("The documents give 7 steps"), answer


def test_the_words_a_follow_up_leans_on() -> None:
    assert question_parts("What does 'PA' stand for and what does it do?")[1] == "what does PA do?"
    assert question_parts("What is a policy engine and how does it decide access?")[1] == \
        "how does a policy engine decide access?"
    # "they" and "each" stay: the list answer asks them of every item
    assert question_parts("What threats are discussed and how can they be mitigated?")[1] == \
        "how can they be mitigated?"
    assert leans_on_list("when is each a good fit?") and not leans_on_list("when was the policy published?")
    assert asked_of("how can they be mitigated?", "5.2 Denial-of-Service") == "how can Denial-of-Service be mitigated?"
    assert {"mitigat", "reduc"} <= cue_stems("how can they be mitigated?")
    assert asked_acronym("What does 'PA' stand for?") == "PA"
    assert asked_acronym("What is ZTA short for?") == "ZTA"
    assert asked_acronym("What does it mean?") is None and asked_acronym("What does the policy mean?") is None


def _notes_outline() -> Outline:
    notes = ["Products net sales include amortization of the deferred value of software upgrade rights.",
             "Wearables, Home and Accessories net sales include sales of AirPods, Apple TV, Apple Watch, Beats "
             "products, HomePod mini and accessories.",
             "Services net sales include sales from advertising, AppleCare, cloud and payment services."]
    return Outline(title="Products and Services Performance", lists=[OutlineList(
        lead_in="", count=3, items=[OutlineItem(marker=f"({k})", text=t) for k, t in enumerate(notes, start=1)])])


def test_a_question_about_one_item_of_a_list_is_not_answered_with_the_whole_list() -> None:
    node = Node(id="n1", summary="", context="Products and Services Performance", keywords=[], kind="section")
    outline = _notes_outline()
    one = "Which products are in Apple's Wearables, Home and Accessories category?"
    assert _best_listing(one, node, outline) is None  # the note that names the category answers, not the list
    whole = _best_listing("Which products does the company report net sales for?", node, outline)
    assert whole is not None and whole.count == 3


def test_an_answer_does_not_end_on_a_sentence_that_announces_a_list_it_does_not_give() -> None:
    answerer = Answerer(HashingEmbedder())
    pool = [Evidence("Wearables net sales include sales of AirPods and Apple Watch.", "a"),
            Evidence("Wearables net sales increased during 2022 due to higher sales of Apple Watch.", "b"),
            Evidence("Wearables, Home and Accessories includes:", "c")]
    answer = answerer.compose("Which products are in Wearables?", pool, [0, 2, 1], 1.0)
    assert not answer.text.rstrip().endswith(":") and "increased during 2022" in answer.text, answer.text


def test_one_sentence_that_answers_two_parts_is_shown_once(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("Workforce\n\nAs of May 31, 2023, we employed approximately 164,000 full-time employees, of "
                     "which approximately 62,000 were employed in the U.S. and 102,000 internationally. Our "
                     "offices are leased.\n", "workforce.txt")
    answer = bank.run("How many full-time employees did the company have as of May 31, 2023, and how many of them "
                      "were in the U.S.?").answer
    assert answer.count("164,000 full-time employees") == 1, answer


def test_only_a_question_that_asks_or_names_an_amount_may_be_answered_by_a_table_row() -> None:
    from memory_bank.engines.offline.figure_answer import asks_amount

    assert not asks_amount("How does Oracle return capital to its stockholders?")
    assert not asks_amount("Why did the company change its auditor?")
    for question in ("How much did Oracle spend on research and development?", "What were total revenues?",
                     "Which segment had the highest operating margin in 2023?", "How many shares were repurchased?"):
        assert asks_amount(question), question


def test_a_list_that_never_says_the_asked_year_is_not_the_answer() -> None:
    node = Node(id="n1", summary="", context="Products and Services Performance", keywords=[], kind="section")
    asked = "Which new products did Apple announce in the fourth quarter of fiscal 2022?"
    assert _best_listing(asked, node, _notes_outline()) is None
    assert _best_listing("Which products does the company report net sales for?", node, _notes_outline())


def test_a_document_number_in_the_question_is_no_year_the_list_must_say(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("How many basic tenets of zero trust does NIST SP 800-207 list?").answer
    assert answer.startswith("There are 7 tenets"), answer


def test_a_pasted_name_the_documents_never_mention_is_named_short(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What does '" + "A" * 5000 + "' stand for?").answer
    assert answer.startswith("Not found in the documents. They never mention “AAA") and len(answer) < 600, answer[:200]


def test_sub_sections_are_items_of_a_kind_only_their_section_names_in_the_plural() -> None:
    node = Node(id="n1", summary="", context="Segment Information", keywords=[], kind="section")
    about = Outline(title="14. SEGMENT INFORMATION", children=[
        OutlineChild(title="Disaggregation of Revenues", opening="We have considered information regularly reviewed."),
        OutlineChild(title="Geographic Information", opening="Disclosed below is geographic information.")])
    # Oracle's segments are named in a sentence ("three businesses ... which are our operating segments"), not
    # by the two sub-sections of the note about them
    assert _best_listing("What are Oracle's operating segments?", node, about) is None
    assert not about.names_kind(frozenset(stems("segments")))
    parts = Outline(title="Logical Components of Zero Trust Architecture", children=[
        OutlineChild(title="Policy engine (PE)", opening="This component decides."),
        OutlineChild(title="Policy administrator (PA)", opening="This component establishes the path.")])
    listing = _best_listing("What are the logical components of a zero trust architecture?", node, parts)
    assert listing is not None and listing.count == 2 and parts.names_kind(frozenset(stems("components")))


def test_a_comparison_is_answered_by_the_sentence_that_sets_one_against_the_other(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("How does the scope of TIC 3.0 compare with that of a zero trust architecture?").answer
    assert answer.startswith("TIC 3.0 is focused on network-based security protections, whereas ZTA is a more "
                             "inclusive architecture"), answer



def test_a_sentence_that_says_this_model_meets_the_model_its_sub_section_names(embedder) -> None:  # noqa: ANN001
    portal = ("3.2 Deployed Variations", "3.2.3 Resource Portal-Based Deployment")
    gateway = ("3.2 Deployed Variations", "3.2.1 Device Agent/Gateway-Based Deployment")
    evidence = [
        Evidence("In this deployment model, the PEP is a single component that acts as a gateway for subject "
                 "requests.", "n1", section=portal, position=0),
        Evidence("The primary benefit of this model over the others is that a software component does not need "
                 "to be installed on all client devices.", "n1", section=portal, position=1),
        Evidence("This model is also more flexible for BYOD policies and inter-organizational collaboration "
                 "projects.", "n1", section=portal, position=2),
        Evidence("In this model, enterprise assets have a device agent that is used to connect to enclave "
                 "gateways.", "n2", section=gateway, position=0),
        Evidence("The identity-driven approach works well with the resource portal model since device identity "
                 "provides secondary support data.", "n3", section=("3.1 ZTA Approaches",), position=0)]
    answer = Answerer(embedder).answer("What are the benefits of the resource portal deployment model?", evidence)
    assert answer.found and answer.text.startswith("The primary benefit of this model over the others"), answer


_SALES = """# Products and Services Performance

The following table shows net sales by category for 2022 and 2021. Net sales of iPhone{1}, Mac{1}, iPad{1},
Wearables{2} and Services{3} are shown below.

(1) Products net sales include the deferred value of software upgrade rights bundled with each product.

(2) Wearables net sales include sales of AirPods, Apple Watch, Beats products and accessories.

(3) Services net sales include sales from advertising, cloud and payment services.

## iPhone

iPhone net sales increased during 2022 due primarily to higher net sales of new iPhone models.

## Mac

Mac net sales increased during 2022 due primarily to higher net sales of laptops.

## iPad

iPad net sales decreased during 2022 due primarily to lower net sales of iPad Pro.

## Services

Services net sales increased during 2022 due primarily to higher net sales from advertising and cloud services.
"""


@pytest.mark.parametrize("marks", [True, False])
def test_a_tables_footnotes_are_not_the_items_a_list_question_asks_for(tmp_path: Path, marks: bool) -> None:
    """"(1) Products net sales include …" notes rows marked "iPhone (1)": the products are the sub-sections. The
    same numbered lines with no mark pointing at them are a list like any other."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    text = _SALES
    for k in "123":
        text = text.replace(f"{{{k}}}", f" ({k})" if marks else "")
    bank.ingest_text(text, "sales.md")
    answer = bank.run("What products does the company sell?").answer
    if marks:
        assert answer.startswith("The documents give 4 products"), answer
        assert [line.split(":")[0] for line in answer.splitlines()[1:]] == ["- iPhone", "- Mac", "- iPad", "- Services"]
    else:
        assert answer.startswith("The documents give 3 products"), answer


def test_a_qualified_kind_is_answered_by_the_group_its_heading_names() -> None:
    from memory_bank.engines.offline.list_answer import Item, ListAnswerer, Listing, MemoryView

    node = Node(id="n1", summary="", context="Oracle Infrastructure Technologies", keywords=[], kind="section")
    titles = ["Oracle Infrastructure Technologies – Cloud and License Business Offerings",
              "Oracle Cloud Infrastructure", "Oracle Database Licenses",
              "Oracle Infrastructure Technologies – Hardware Business Offerings",
              "Oracle Engineered Systems", "Oracle Servers", "Oracle Storage", "Oracle Hardware Support"]
    listing = Listing(node, "Oracle Infrastructure Technologies", [Item(t, "") for t in titles], len(titles), False)
    answerer = ListAnswerer(cast(MemoryView, None))  # a group is read from the list itself, not the memory
    inner = answerer._inner("What hardware products does Oracle offer?", listing)
    assert inner is not None and [i.label for i in inner.items] == titles[4:]
    assert answerer._inner("What products does Oracle offer?", listing) is None  # no qualifier: the whole list
