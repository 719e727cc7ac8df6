"""Answers a careful reader accepts, on the real NIST PDF: a verdict first for a yes/no question, an item of a
list by its place (or "not found" when the list is shorter), and "not found" for a question about something the
documents never mention, with the closest thing they do say labelled as such."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.list_answer import _best_listing, _subject_unsaid
from memory_bank.engines.offline.ranking import Ranked, SentenceModel
from memory_bank.engines.offline.specifics import asked_years, misdated, specific_terms
from memory_bank.engines.offline.verdict import is_yes_no, verdict
from memory_bank.engines.protocol.not_found import NOT_FOUND, is_not_found
from memory_bank.memory.outline import Outline, OutlineChild
from memory_bank.memory.query_graph import Node, Source
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.text.asks import asked_part, asks_for_items, item_noun
from memory_bank.text.tokens import stems
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def nist_bank(nist_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> MemoryBank:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path_factory.mktemp("nist"))
    bank.ingest_file(nist_pdf)
    return bank


NOTES = ("Zero trust notes\n\nIn a zero trust architecture, network location alone does not imply trust: assets "
         "on the enterprise network meet the same security requirements as any other. The policy engine makes the "
         "final decision to grant access to a resource, and the policy administrator carries it out.\n")


def test_a_yes_no_question_gets_its_verdict_first(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(NOTES, "notes.txt")
    no = bank.run("Is network location alone enough to trust an asset in a zero trust architecture?").answer
    assert no.startswith("No. ") and "does not imply trust" in no, no
    yes = bank.run("Does the policy engine make the final decision to grant access to a resource?").answer
    assert yes.startswith("Yes. ") and "final decision" in yes, yes


@pytest.mark.parametrize(("question", "asks_verdict"), [
    ("Is the UMC pro-life or pro-choice?", False),
    ("Is the budget 5 million or 9 million?", False),
    ("Is network location enough, or not?", True),
    ("Do the zero trust tenets apply to anonymous public or consumer-facing business processes?", True),
    # a setting or a condition before the auxiliary still asks for a verdict
    ("Under a ZTA, can visitors on an enterprise campus reach the enterprise's internal resources?", True),
    ("If a ZTA is built on one provider's proprietary formats, can the enterprise easily move to another?", True),
    ("In fiscal 2022, did Apple pay a dividend?", True),
    ("In which year did Apple first pay a dividend?", False),
    ("When Tesla died, who inherited his papers?", False),
])
def test_a_choice_between_alternatives_is_no_yes_no_question(question: str, asks_verdict: bool) -> None:
    assert is_yes_no(question) is asks_verdict


def test_a_choice_is_answered_by_the_sentence_without_a_verdict(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(NOTES, "notes.txt")
    answer = bank.run("Is the final decision to grant access made by the policy engine or the administrator?").answer
    assert not answer.startswith(("Yes", "No")) and "final decision" in answer, answer


def test_an_item_past_the_end_of_the_list_is_not_found_and_says_how_long_the_list_is(nist_bank: MemoryBank) -> None:
    answer = nist_bank.run("What does the eighth tenet of zero trust require?").answer
    assert is_not_found(answer) and "7 tenets" in answer and "no eighth" in answer, answer
    first = nist_bank.run("What does the first tenet of zero trust say?").answer
    assert not is_not_found(first) and "All data sources and computing services are considered resources" in first


def test_a_currency_asked_by_name_is_mentioned_by_its_symbol(tmp_path: Path) -> None:
    """"… in Euros?" of a text that writes "€53,423": the documents do mention it (the symbol is no word)."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("Pay\n\nThe basic pay for a starting teacher is €27,814, rising to €53,423 for a teacher "
                     "with 25 years service.\n", "pay.txt")
    assert bank.view.mentions(["€", "£"]) == {"€": True, "£": False}
    answer = bank.run("What is the pay for a teacher with 25 years service, in Euros?").answer
    assert "never mention" not in answer and "53,423" in answer, answer
    pounds = bank.run("What is the pay for a teacher with 25 years service, in Pounds?").answer
    assert is_not_found(pounds) and "never mention “Pounds”" in pounds, pounds


def test_a_question_about_something_never_mentioned_is_not_found_with_the_closest_passage(
        nist_bank: MemoryBank) -> None:
    result = nist_bank.run("What security capabilities does TIC 4.0 add for zero trust architectures?")
    assert result.answer.startswith(f"{NOT_FOUND} They never mention “4.0”."), result.answer
    assert "The closest they come (NIST.SP.800-207.pdf" in result.answer and result.citations
    mesh = nist_bank.run("How does the peer-to-peer mesh deployment model of zero trust work?").answer
    assert is_not_found(mesh) and "peer-to-peer" in mesh


def test_the_closest_passage_says_something_of_the_question(nist_bank: MemoryBank) -> None:
    """A standard on zero trust says nothing of revenue: no "closest" line at all, and never one of the open
    questions its survey asks (a question is not something the documents say)."""
    revenue = nist_bank.run("What is 2022 revenue?").answer
    assert revenue == f"{NOT_FOUND} They never mention “2022”.", revenue
    order = nist_bank.run("What did the 2021 executive order require of zero trust?").answer
    closest = order.split("The closest they come")[1].lower()
    assert any(word in closest for word in ("executive", "order", "requir", "zero trust")), order
    assert not order.rstrip().endswith("?"), order


def test_terms_the_documents_do_say_are_not_taken_for_absent(nist_bank: MemoryBank) -> None:
    assert nist_bank.view.mentions(["ZTA", "3.4.1", "agent/gateway", "consumer facing", "Zero-Trust"]) == dict.fromkeys(
        ["ZTA", "3.4.1", "agent/gateway", "consumer facing", "Zero-Trust"], True)
    assert nist_bank.view.mentions(["4.0", "peer-to-peer", "3.4.9"]) == dict.fromkeys(
        ["4.0", "peer-to-peer", "3.4.9"], False)


def test_a_name_asked_in_the_singular_or_misspelt_is_mentioned(tmp_path: Path) -> None:
    """"What is the name of the Bronco's head coach?" of a text on the Broncos is no question about something the
    documents never mention."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("Coaches\n\nThe Denver Broncos hired Gary Kubiak as head coach after John Fox left.\n", "nfl.txt")
    assert bank.view.mentions(["Bronco", "Bronc", "Broncoses"]) == {"Bronco": True, "Bronc": False,
                                                                    "Broncoses": False}
    # a long name misspelt by a letter is the name; one two letters apart is another
    bank.ingest_text("Digs\n\nLouis Leakey dug at Olorgesailie; the team later toured Australia.\n", "digs.txt")
    assert bank.view.mentions(["Ologesailie", "Austria", "Leaky"]) == {"Ologesailie": True, "Austria": False,
                                                                       "Leaky": False}
    answer = bank.run("What is the name of the Bronco's head coach, who was hired after John Fox?").answer
    assert "never mention" not in answer and "Kubiak" in answer, answer


@pytest.mark.parametrize(("question", "sentence", "expected"), [
    ("Did the survey find the ecosystem mature enough?", "The ecosystem is not mature enough for adoption.", "No"),
    ("Does the policy engine make the final decision?", "The policy engine makes the ultimate decision.", "Yes"),
    ("Isn't the policy engine the one that decides?", "The policy engine decides on every request.", "Yes"),
    ("Is it true that location does not imply trust?", "Network location does not imply trust.", "Yes"),
    ("Does the engine grant access?", "If the request is not authorized by the administrator, nothing happens "
     "in the data plane; otherwise the engine grants access to the resource.", "Yes"),
    ("Did net sales in Japan grow in 2022?", "Japan net sales decreased during 2022 due to the weak yen.", "No"),
    ("Did net sales in Japan fall in 2022?", "Japan net sales decreased during 2022 due to the weak yen.", "Yes"),
    ("Is cloud revenue growing?", "Cloud revenue growth depends on the renewal of our customer contracts.", "Yes"),
    ("Was the tax rate lower than the statutory rate?", "The effective tax rate of 16.2% was lower than the "
     "statutory federal income tax rate of 21%.", "Yes"),
    # an identity asked: a part or a difference is a no, an alias a yes
    ("Is the policy engine the same thing as the policy decision point?", "The policy decision point (PDP) is "
     "broken down into two logical components: the policy engine and policy administrator.", "No"),
    ("Is a PEP identical to a gateway?", "A PEP differs from a gateway in where it sits.", "No"),
    ("Is cloud services revenue the same thing as license support revenue?", "Cloud and license revenues include "
     "the sale of: cloud services and license support; and cloud licenses.", "No"),
    ("Is the engine the same as the administrator?", "The engine is not the same as the administrator.", "No"),
    ("Is the Form 10-K the same as the annual report?", "The Form 10-K, also known as the annual report, is filed "
     "each year.", "Yes"),
    # a negated judgement bears on the clause it judges, however far the asked words sit in it
    ("Should an enterprise get its whole zero trust architecture from a single vendor?", "Furthermore, it might "
     "not be desirable to use a single-vendor solution to achieve zero trust and thereby risk vendor lock-in.", "No"),
    ("Is it wise to keep every old firewall rule?", "It is not wise in most enterprises to keep every old rule.",
     "No"),
    ("Can the engine run in the cloud?", "The engine can run in the cloud; it is not necessary to keep it on the "
     "premises.", "Yes"),
])
def test_the_verdict_is_the_polarity_where_the_sentence_speaks_of_what_is_asked(question: str, sentence: str,
                                                                                 expected: str) -> None:
    assert is_yes_no(question)
    assert verdict(question, sentence) == expected


def test_what_a_question_sets_aside_is_not_what_it_asks_for() -> None:
    question = "Besides the core components, which data sources provide input to the policy engine?"
    assert asked_part(question).startswith("which data sources") and item_noun(question) == "sources"
    # a set-aside naming several things runs to the comma before the question word: "… administrator and
    # enforcement point, how many data sources are there?" was asked for those two and answered "not found"
    assert asked_part("Besides the policy engine, administrator and enforcement point, how many data sources are "
                      "there?") == "how many data sources are there?"
    assert asked_part("Besides price, what matters?") == "what matters?"
    assert asks_for_items("What does the eighth tenet require?") and item_noun("What does the eighth tenet "
                                                                               "require?") == "tenet"
    assert not is_yes_no("What are the tenets?")


def test_specific_terms_are_names_numbers_acronyms_and_hyphenated_words() -> None:
    assert specific_terms("What does TIC 4.0 add to NIST's peer-to-peer model in Kenya?") == [
        "TIC", "4.0", "NIST", "peer-to-peer", "Kenya"]
    assert specific_terms("What are the basic tenets of zero trust?") == []
    # a noun of a verb and its particle is an everyday word a reader paraphrases ("accesses … records")
    assert specific_terms("How many record look-ups in a day raise an alert before the roll-out?") == []
    assert specific_terms("Is a peer-to-peer check-up required?") == ["peer-to-peer"]


def test_an_item_of_a_list_held_only_in_part_is_not_called_missing(nist_bank: MemoryBank) -> None:
    """An outline keeps the first items of a long list and its count: its later items exist, unread."""
    from memory_bank.engines.offline.list_answer import Item, Listing

    executor = nist_bank.engine.executor
    node = next(n for n in nist_bank.memory.graph.nodes() if n.kind == "section")
    listing = Listing(node, "Requirements", [Item("1.", "The first requirement."), Item("2.", "The second one.")],
                      5, True)
    for position, word in ((-1, "last"), (4, "fourth")):
        answer = executor.structured.pointed(f"What does the {word} requirement say?", listing, position, []).answer
        assert not is_not_found(answer) and "The first requirement." in answer and "3 more" in answer, answer
    sixth = executor.structured.pointed("What does the sixth requirement say?", listing, 6, []).answer
    assert is_not_found(sixth) and "5 requirements" in sixth and "no sixth" in sixth, sixth


def test_a_question_pasted_full_of_names_is_bounded(nist_bank: MemoryBank) -> None:
    names = " ".join(f"Zq{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}xv" for i in range(5000))
    question = f"What does {names} say?"
    assert len(specific_terms(question)) == 16  # each is searched for in every passage: a few, not thousands
    answer = nist_bank.run(question).answer
    assert is_not_found(answer) and "and 13 more names" in answer and len(answer) < 2000, answer[:300]


REPORT = """# Northwind annual report

## Risk factors

We expect to continue to receive such claims as:

- we continue to expand into new businesses and acquire companies;
- the number of products in our industry grows;
- the volume of issued patents continues to increase.

## Competition

We face intense competition in all aspects of our business. Our offerings compete directly with some of the
largest companies in the world, including Acme Corporation, Globex Inc., Initech and Umbrella Group.

## Services

Northwind sells two services:

- consulting services, which help customers deploy our products;
- support services, which keep our products running.

Cloud revenues grew 40% in 2023, while support revenues grew 2%.
"""


def test_a_list_of_something_else_is_not_the_answer_to_a_which_question(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(REPORT, "report.md")
    named = bank.run("Which companies does Northwind name as its main competitors?").answer
    assert "acquire companies" not in named and "The documents give" not in named, named
    choice = bank.run("Which grew faster in 2023: cloud revenues or support revenues?").answer
    assert "The documents give" not in choice and "40%" in choice, choice


CENSUS = ("Kenya census\n\nKenya covers 581,309 km2, and had a population of approximately 45 million people in "
          "July 2014. Its capital and largest city is Nairobi.\n\nThe census office\n\nIn 2004 the census office "
          "moved to a new building in Nairobi, beside the national archives.\n")


def test_a_question_dated_by_a_year_its_passage_does_not_give_is_not_found(tmp_path: Path) -> None:
    """A SQuAD 2.0 style near miss: every word of the question matches the passage but its year, which the
    documents do mention elsewhere (so it is no never-mentioned name)."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(CENSUS, "kenya.txt")
    right = bank.run("What was Kenya's population in July 2014?").answer
    assert not is_not_found(right) and "45 million" in right, right
    near = bank.run("What was Kenya's population in July 2004?")
    assert is_not_found(near.answer) and "never mention" not in near.answer, near.answer
    # the near miss is shown for what it is: the closest thing the documents say, labelled and cited
    closest = near.answer.splitlines()[1]
    assert closest.startswith("The closest they come (kenya.txt") and "45 million" in closest, near.answer
    assert near.citations and "45 million" in near.citations[0].quote
    off_topic = bank.run("What is the boiling point of liquid nitrogen in kelvin?")
    assert off_topic.answer == NOT_FOUND and not off_topic.citations  # nothing on its subject: nothing shown


def test_the_years_a_question_asks_about_and_a_passage_that_gives_others() -> None:
    assert asked_years("How many died of plague in the 1730s, and in 1801?") == ("173", "1801")
    assert misdated(asked_years("How many died in the 1730s?"), "In the 1630s about 7,000 died of plague.")
    assert not misdated(asked_years("What happened in the 1970s?"), "In 1974 the museum acquired a wing.")
    assert not misdated(asked_years("Who won in 2010-11?"), "In the 2010–11 season the network came third.")
    assert not misdated(asked_years("Who was the 2015 MVP?"), "Cam Newton was named the MVP.")  # gives no year



def test_a_year_its_section_gives_is_no_near_miss() -> None:
    """A passage leaves out the year its section is about ("the regular season" of an article on the 2015
    season): only a passage whose section does not give the year either is a near miss."""
    season = [Evidence("Super Bowl 50 decided the champion of the 2015 season.", "n0", section=("Super Bowl 50",)),
              Evidence("The Broncos went 12–4, best since 2001.", "n1", section=("Super Bowl 50",)),
              Evidence("Kenya had 45 million people in July 2014.", "n2", section=("Kenya",))]
    ranked = Ranked(season, np.zeros((3, len(SentenceModel.names()))), [0.0] * 3, [1, 0, 2], set(),
                    asked_years("How many games did the Broncos lose in the 2015 season?"))
    assert not ranked.misdated(1) and ranked.misdated(2)  # the Kenya passage and its section give only 2014
    ranked.years = asked_years("What was Kenya's population in July 2004?")
    assert ranked.misdated(2) and ranked.misdated(1)


def test_an_answer_never_says_a_sentence_again_inside_another() -> None:
    """A table's caption read once alone and once with the table's first words is one thing said, not two
    sentences of an answer (Oracle's "How does Oracle return capital …?" was the equity statement's caption
    twice)."""
    caption = "ORACLE CORPORATION CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY For the Years Ended May 31, 2023"
    pool = [Evidence(caption + " Common Stock and Additional Paid in", "t", position=0),
            Evidence(caption, "u", position=0),
            Evidence("Dividends were declared each quarter.", "d", position=0)]
    answer = Answerer(HashingEmbedder()).compose("How does Oracle return capital?", pool, [0, 1, 2], 1.0)
    assert answer.text.count("CONSOLIDATED STATEMENTS") == 1, answer.text
    assert "Dividends were declared" in answer.text


def test_a_caption_set_in_capitals_does_not_lead_an_answer() -> None:
    """"ORACLE CORPORATION CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY …" names the table that follows and
    answers nothing: a body sentence leads instead; the caption is cited only when nothing else answers."""
    caption = Evidence("ORACLE CORPORATION CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY For the Years Ended "
                       "May 31, 2023", "t", position=0)
    prose = Evidence("We declared cash dividends of $1.60 per share and repurchased 26 million shares.", "p",
                     position=0)
    short = Evidence("The NIST ZTA team met twice.", "s", position=0)  # an acronym or two is no caption
    ranked = Ranked([caption, prose, short], np.zeros((3, len(SentenceModel.names()))), [2.0, 1.0, 0.5], [0, 1, 2],
                    set(), question="How does Oracle return capital to its stockholders?")
    assert ranked.body() == [1, 2] and ranked.lead() == 1
    alone = Ranked([caption], np.zeros((1, len(SentenceModel.names()))), [2.0], [0], set(), question="x")
    assert alone.lead() == 0


RISKS = ("# Northwind annual report\n\n## Risk Factors\n\n"
         "### Business Risks\n\nNorthwind must introduce new products often to stay competitive. "
         "Northwind depends on component manufacturing and logistics provided by outsourcing partners, many of "
         "them located abroad. If these outsourcing partners suffer disruptions, the supply of finished goods can "
         "be reduced or stop.\n\n"
         "### Financial Risks\n\nNorthwind expects its quarterly sales to fluctuate with the seasons.\n\n"
         "### Legal Risks\n\nNorthwind could be harmed by unfavourable results of lawsuits.\n")


def test_a_question_qualifying_the_items_by_a_subject_the_list_never_says_gets_that_sentence(
        tmp_path: Path, embedder: object) -> None:
    """The risk categories do not answer for the risk of relying on outsourcing partners: the sentence inside one
    category does; asked without the qualifier, the categories are the list."""
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    bank.ingest_text(RISKS, "report.md")
    listed = bank.run("What risks does Northwind face?").answer
    assert listed.startswith("The documents give 3 risks"), listed
    qualified = bank.run("What risks does Northwind face from its reliance on outsourcing partners?").answer
    assert "The documents give" not in qualified and "outsourcing partners" in qualified, qualified
    # a name alone qualifies them: no category says Lumen
    bank.ingest_text("## Acquisitions\n\nNorthwind bought Lumen in 2022. The main risk Northwind faces from Lumen is "
                     "that integrating its plants may cost more than planned.\n", "deals.md")
    named = bank.run("What risks does Northwind face from Lumen?").answer
    assert "The documents give" not in named and "Lumen" in named, named
    titled = bank.run("What Risks Does Northwind Face?").answer  # title case: a capital makes no name
    assert titled.startswith("The documents give 3 risks"), titled



def test_a_list_that_says_one_word_of_the_questions_subject_is_not_its_answer() -> None:
    """"What steps does Oracle take to protect its customers' data?" was answered with the five revenue recognition
    steps, whose lines say "customer" and nothing else of the question's subject; "Which deployment scenarios or
    use cases lend themselves to zero trust?" is answered by the section titled "Deployment Scenarios/Use Cases"."""
    node = Node(id="n1", summary="", context="", keywords=[], sources=[Source(name="ORACLE_2023_10K.pdf")])
    steps = [frozenset(stems(line)) for line in (
        "identification of the contract, or contracts, with a customer;",
        "identification of the performance obligations in the contract;", "determination of the transaction price;")]
    head = frozenset(stems("Revenue Recognition We recognize revenue in five steps:"))
    assert _subject_unsaid("What steps does Oracle take to protect its customers' data?",
                           frozenset(stems("steps")), node, head, steps)
    assert not _subject_unsaid("What are the steps of revenue recognition?", frozenset(stems("steps")), node, head,
                               steps)
    scenarios = [frozenset(stems(line)) for line in (
        "Enterprise with Satellite Facilities", "Multi-cloud/Cloud-to-Cloud Enterprise",
        "Enterprise with Contracted Services and/or Nonemployee Access")]
    titled = frozenset(stems("4 Deployment Scenarios/Use Cases"))
    assert not _subject_unsaid("Which deployment scenarios or use cases lend themselves to zero trust?",
                               frozenset(stems("scenarios")), node, titled, scenarios)


FILING = ("# Acme Corporation annual report\n\n## Human Capital\n\nAcme had approximately 12,000 employees. Much of "
          "the Company's success depends on key personnel, including its Chief Executive Officer and its Chief "
          "Financial Officer. He served as our Chief Executive Officer from June 1977 until September 2014.\n\n"
          "## Exhibits\n\n10.2* Form of CEO Performance Award Agreement.\n\n## Signatures\n\n"
          "Pursuant to the requirements of the Securities Exchange Act of 1934, this report has been signed.\n\n"
          "By: /s/ Jane Roe Jane Roe Chief Executive Officer\n\n"
          "By: /s/ John Doe John Doe Chief Financial Officer\n")


def test_who_holds_a_title_asked_by_its_acronym_is_read_from_the_signatures(tmp_path: Path, embedder: object) -> None:
    """A filing writes "Chief Executive Officer" and says "CEO" once, in an exhibit's title: the question is
    searched and answered in the filing's words, and the signature line ("By: /s/ Jane Roe …", short and
    without a stop like a heading) is evidence of who holds the title; a sentence naming only titles and a
    month names no one."""
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path)
    bank.ingest_text(FILING, "acme-10k.md")
    ceo = bank.run("Who is Acme's CEO?").answer
    assert "Jane Roe" in ceo and not is_not_found(ceo), ceo
    cfo = bank.run("Who is Acme's CFO?").answer
    assert "John Doe" in cfo and not is_not_found(cfo), cfo


def test_who_wrote_the_document_and_when_are_read_from_its_front_matter(nist_bank: MemoryBank) -> None:
    """The cover is furniture, never a body sentence's filler; asked about the document itself, it is the answer."""
    from memory_bank.engines.offline.front_matter import asks_about_document

    authors = nist_bank.run("Who are the authors of NIST SP 800-207?").answer
    assert "Scott Rose" in authors and "Sean Connelly" in authors and "p. 1" in authors, authors
    assert nist_bank.run("When was this publication published?").answer.startswith("August 2020. ")  # the date first
    inside = nist_bank.run("Who wrote the trust algorithm?").answer  # something inside the document
    assert "front matter" not in inside, inside
    assert asks_about_document("Who wrote the 95 Theses?") == ("author", " the 95 Theses")
    assert asks_about_document("What does the PEP do?") is None
    assert asks_about_document("When was it published?") == ("date", " it ")


def test_the_closest_passage_is_never_a_short_lead_in_that_says_nothing(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("Census reports\n\nThe census office population reports include:\n\n"
                     "- the county report on households;\n- the age report on the population by age.\n\n"
                     "The population reports of the census office are read by the national planning board.\n",
                     "census.txt")
    answer = bank.run("Which population reports does the census office of Tanzania publish?").answer
    assert answer.startswith(f"{NOT_FOUND} They never mention “Tanzania”."), answer
    closest = answer.splitlines()[1]
    assert "include:" not in closest and "national planning board" in closest, answer



def test_a_list_with_the_asked_kind_among_its_items_lists_its_peers() -> None:
    """"What does Apple's Services category include?" had been answered with the performance section's
    sub-sections (iPhone, Mac, …, Services): "Services" is one of them, so they are its peers, not what it
    includes."""
    node = Node(id="n1", summary="", context="", keywords=[], sources=[Source(name="APPLE_2022_10K.pdf")])
    outline = Outline(title="Products and Services Performance", lists=[], children=[
        OutlineChild(title=title, opening=f"{title} net sales increased during 2022 compared to 2021.")
        for title in ("iPhone", "Mac", "iPad", "Wearables, Home and Accessories", "Services")])
    assert _best_listing("What does Apple's Services category include?", node, outline) is None
    listed = _best_listing("What products and services does Apple report the performance of?", node, outline)
    assert listed is not None and listed.count == 5


def test_names_the_documents_never_say_together_are_named_in_the_not_found(tmp_path: Path) -> None:
    """"R&D in India" of a report that gives R&D only in total and mentions India elsewhere: each name is said,
    the relation asked about is not, and the reader is told so. The report's own name is its subject, not a
    name to read; names said in one passage get the plain "not found"."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text("Research\n\nNorthwind spent 4.2 million dollars on R&D in fiscal 2023, up from 3.9 million, "
                     "mostly on the battery programme and its test laboratories.\n", "northwind_research.txt")
    bank.ingest_text("Markets\n\nNorthwind opened two sales offices in India and one in Brazil during fiscal 2023; "
                     "the offices sell the battery packs to regional carmakers.\n", "northwind_markets.txt")
    apart = bank.run("How much did Northwind spend on R&D in India?").answer
    assert apart.startswith(f"{NOT_FOUND} They mention “R&D” and “India”, but never in one passage.\n"
                            "The closest they come (northwind_research.txt"), apart
    together = bank.run("How many sales offices did Northwind open in Brazil before India?").answer
    assert "never in one passage" not in together, together


def test_an_absolute_asked_of_a_sentence_saying_a_lesser_degree_is_a_no(tmp_path: Path) -> None:
    """"Does MFA remove the risk …?" of NIST's "… best practices reduce the risk of an attacker gaining broad access
    via stolen credentials … This includes the use of multifactor authentication": every other word agrees, the
    degree does not; a reader told "Yes" would be misled. Said as asked, it stays a yes."""
    bank = bank_of_pages("NIST.SP.800-207.pdf", [37], tmp_path)
    remove = bank.run("Does multifactor authentication remove the risk of an attacker using stolen credentials?")
    reduce = bank.run("Does multifactor authentication reduce the risk of an attacker using stolen credentials?")
    bank.clear()
    assert remove.answer.startswith("No. ") and "reduce the risk" in remove.answer, remove.answer
    assert reduce.answer.startswith("Yes. "), reduce.answer
    assert verdict("Does the gateway always block the request?", "The gateway may limit such requests.") == "No"
    assert verdict("Does the gateway always block the request?", "The gateway always blocks it.") == "Yes"


def test_a_long_form_finds_the_sentence_saying_its_acronym(nist_bank: MemoryBank) -> None:
    """"What does a continuous diagnostics and mitigation system tell the policy engine …?" got the CDM item's
    definition and the policy engine's: the sentence that answers says "CDM" ("An enterprise CDM system provides
    the policy engine with the information about the asset making an access request, such as …")."""
    answer = nist_bank.run("What does a continuous diagnostics and mitigation system tell the policy engine about "
                           "an asset that is requesting access?").answer
    assert "patched operating system" in answer and "known vulnerabilities" in answer, answer


def test_a_sections_parts_are_counted_as_sub_sections_or_topics(nist_bank: MemoryBank) -> None:
    """bench/data/doc_qa_dev3.json: "subsections" and "topics" were no kind of item, so no outline was read for
    them ("not found"); a section's parts are its sub-sections whatever they are of."""
    answer = nist_bank.run("How many subsections does Section 6 use to relate ZTA to existing federal guidance?").answer
    assert answer.startswith("There are 7 subsections") and "6.7 ZTA, Cloud Smart" in answer, answer
    answer = nist_bank.run("Appendix B has a section on knowledge gaps and future areas of research. How many topics "
                           "does that section take up?").answer
    assert answer.startswith("There are 3 topics") and "User Experience in a ZTA Environment" in answer, answer
