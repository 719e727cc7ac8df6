""""How many" asked in a reader's words, on real pages of NIST SP 800-207: a kind of item the document calls by
another word ("stages" of a road map whose sections are "Steps"), a noun no list of kinds knows ("systems"), and a
count the document never states but names item by item inside one sentence ("(e.g., A, B, C)", "several factors:
A, B, and C", "A; B; and C", "both A and B"). Each was "Not found in the documents." before."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.engines.offline.inline_count import counted_phrase, enumeration
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.text.asks import asks_for_items, item_noun, listed_noun, open_count
from memory_bank.text.kinds import kind_forms
from tests.support.pdf_pages import bank_of_pages


def test_a_count_of_a_noun_no_list_of_kinds_knows_names_that_noun() -> None:
    assert open_count("How many separate systems feed data to the policy engine?") == "systems"
    assert open_count("How many logical building blocks make up a ZTA?") == "blocks"
    assert open_count("How many sorts of users might a public-facing service have?") == "users"
    assert open_count("How many tenets are there?") is None  # an item noun: a list question already
    assert open_count("How many of them were in the U.S.?") is None  # nothing counted by name
    assert listed_noun("How many separate systems feed data to the policy engine?") == "systems"
    assert item_noun("How many qualified doctors were registered?") is None  # no sentence answerer reads it as a kind
    assert not asks_for_items("How many separate systems feed data to the policy engine?")  # still a quantity too


def test_a_kind_of_item_is_named_by_any_of_its_words() -> None:
    assert {"step"} in [set(f) for f in kind_forms(frozenset({"stag"}))]
    assert {"use", "scenario"} in [set(f) for f in kind_forms(frozenset({"use", "case"}))]
    assert kind_forms(frozenset({"system"})) == [frozenset({"system"})]  # no other word for it


def test_an_enumeration_inside_a_sentence_is_counted_by_its_items() -> None:
    def count(sentence: str) -> int | None:
        found = enumeration(sentence)
        return len(found.items) if found else None

    assert count("The PA terminates the connection based on policy (e.g., after a time-out, when the workflow has "
                 "been completed, due to a security alert).") == 3
    assert count("It depends on several factors: the importance of the process, the group of subjects affected, "
                 "and the current state of resources.") == 3
    assert count("The control plane is used to maintain and configure assets; judge, grant, or deny access to "
                 "resources; and perform operations to set up paths.") == 3
    assert count("Cloud services have experienced disruptions, both infrastructure as a service and SaaS.") == 2
    assert count("TIC supports ZTA (e.g., encrypted traffic, strong authentication, and others).") == 2  # an open end
    assert count("Zero trust is a set of paradigms that narrow defenses.") is None  # no items
    assert count("Total current assets | 2023: 21,004 | 2022: 31,633") is None  # figures, no named items
    assert count("Several existing federal policies and guidance intersect with the planning, deployment, and "
                 "operation of a ZTA.") is None  # a bare series in running text: no items of the asked kind
    assert count("Some solutions support a broad range of transports (IPv4 and IPv6).") == 2  # in parentheses
    assert count("User identification could include several factors such as username/password, certificates, and "
                 "onetime password.") == 3
    assert count("A blended delivery model consisting of consultants from local geographies, industry specialists "
                 "and consultants from our global delivery and solution centers; and") == 3
    assert count("We invest in OCI to improve features and performance; to expand the catalog of cloud-based "
                 "infrastructure tools and services that we provide; and to provide customers with the ability to "
                 "run workloads across different IT environments, the Oracle Cloud as well as other third-party "
                 "clouds in both hybrid and multicloud deployment models.") == 3  # clauses parted by semicolons
    assert counted_phrase("How many kinds of cloud service does it cite?") == "kinds of cloud service"
    assert counted_phrase("How many kinds of people make up that model?") == "kinds of people"  # no auxiliary
    assert counted_phrase("What are the tenets?") is None


@pytest.fixture(scope="module")
def nist(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 18-20 (§3's data sources), 23 (§3.2.2, enclave-based: "(e.g., user notification, database lookup,
    # salary disbursement)"), 28 (§3.3: the PA's "(e.g., after a time-out, …)"), 30 (§3.4: the control plane's "…;
    # …; and …"), 37 (§5.2: "both infrastructure as a service (IaaS) and SaaS") and 46-50 (§7.3's seven steps)
    pages = [17, 18, 19, 22, 27, 29, 36, 45, 46, 47, 48, 49]
    return bank_of_pages("NIST.SP.800-207.pdf", pages, tmp_path_factory.mktemp("counts"), embedder=embedder)


def test_stages_are_counted_from_the_steps_the_document_lists(nist: MemoryBank) -> None:
    answer = nist.run("How many stages does NIST's road map for bringing zero trust into a perimeter-based network "
                      "lay out?").answer
    assert answer.startswith("There are 7 stages"), answer
    assert "7.3.1 Identify Actors" in answer and "7.3.7 Expanding the ZTA" in answer, answer


def test_systems_feeding_the_policy_engine_are_its_data_sources(nist: MemoryBank) -> None:
    answer = nist.run("How many separate systems feed data to the policy engine?").answer
    assert answer.startswith("There are 8 systems"), answer
    assert "Security information and event management (SIEM) system" in answer, answer


@pytest.mark.parametrize(("question", "opening", "said"), [
    ("In how many example situations does NIST say the policy administrator would issue the command to end a "
     "connection, and what are they?", "There are 3 example situations:", "due to a security alert"),
    ("The enclave-based deployment model can suit an enterprise running cloud micro-services for a single business "
     "process. How many examples of such micro-services does the publication give?", "There are 3 examples",
     "salary disbursement"),
    ("How many jobs is the control plane used for by infrastructure components?", "There are 3 jobs:",
     "judge, grant, or deny access"),
    ("A hosting provider could take a cloud-based policy engine offline. How many kinds of cloud service does the "
     "publication cite as having had outages before, and which?",
     "There are 2 kinds of cloud service:", "both infrastructure as a service (IaaS) and SaaS"),
])
def test_a_count_the_document_names_item_by_item_is_counted(nist: MemoryBank, question: str, opening: str,
                                                            said: str) -> None:
    answer = nist.run(question).answer
    assert answer.startswith(opening) and said in answer, answer


def test_an_enumeration_missing_what_the_question_asks_is_no_count(nist: MemoryBank) -> None:
    """The PA's examples are when it ends a connection; a question asking when the PEP logs one is not answered
    by counting them."""
    answer = nist.run("In how many example situations does NIST say the policy enforcement point would write an "
                      "audit record to the blockchain?").answer
    assert not answer.startswith("There are"), answer


def test_a_which_question_asks_for_items_of_its_head_plural() -> None:
    from memory_bank.engines.offline.inline_items import names_items
    from memory_bank.text.asks import open_kind

    assert open_kind("Which industries does Oracle build industry-specific applications for?") == "industries"
    assert open_kind("What risks does Oracle face?") is None  # an item noun: the lists read it
    assert open_kind("What years did sales grow?") is None  # a time asked
    # one kind asked for, not several items (SQuAD seed 7: the answer moved to a sentence naming several)
    assert open_kind("What kind of chloroplasts did diatoms have but lost?") is None
    assert open_kind("What type of beings does Doctor Who usually take with him on his travels?") is None
    assert names_items("We offer applications to customers in the automotive, communications, construction and "
                       "engineering, consumer goods, energy and water, financial services and retail industries.")
    assert not names_items("Oracle, the company, grew.")


def test_a_word_opening_a_sentence_of_the_question_is_no_name() -> None:
    from memory_bank.engines.offline.specifics import specific_terms

    assert "Toward" not in specific_terms("Oracle says it keeps investing in Oracle Cloud Infrastructure (OCI). Toward "
                                          "how many separate aims is that investment directed?")
    assert "Smith" in specific_terms("In 1998, Mr. Smith went to Washington. Who went?")  # "Mr." ends nothing
    assert "Steel" in specific_terms("What does U.S. Steel make?")


def test_a_measure_read_in_pieces_is_no_enumeration() -> None:
    """"How many employees work at Oracle's Austin, Texas headquarters?" is not answered "There are 3 employees"
    from the pieces of "consists of approximately 0.9 million square feet in Austin, Texas, all of which we own"."""
    assert enumeration("Our headquarters facility consists of approximately 0.9 million square feet in Austin, "
                       "Texas, all of which we own.") is None


def test_examples_count_only_what_the_document_gives() -> None:
    """"How many companies belong to the Oracle Partner Network?" asks for all of them; "a network of companies,
    including cloud and license, hardware and services suppliers, system integrators and resellers" gives some."""
    from memory_bank.engines.offline.inline_count import _ASKS_GIVEN, enumerations

    run = enumerations("The network manages our relationships with a broad-based network of companies, including "
                       "suppliers, system integrators and resellers.")
    assert run and run[0].examples
    assert not _ASKS_GIVEN.search("How many companies belong to the Oracle Partner Network?")
    assert _ASKS_GIVEN.search("How many examples of such micro-services does the publication give?")
    assert _ASKS_GIVEN.search("How many such factors does it give, and what are they?")
    # the publication cites the botnet, not a number of devices: "Botnets such as Mirai …" counts none
    assert not _ASKS_GIVEN.search("How many compromised devices made up the Mirai botnet that the publication cites?")
    assert not enumerations("It consists of consultants, industry specialists and partners.")[0].examples
