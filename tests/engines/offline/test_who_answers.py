"""A "who" answer opens with the name it asks for ("Who is Apple's independent auditor?": Ernst & Young LLP, not
the auditor's report saying what "we" are)."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.answering import Answerer
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.question_types import WHO, asked_title, expected_type, has_type, holds_title
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.testing.documents import write_pdf
from memory_bank.text.tokens import stems


def test_a_sentence_saying_what_we_are_names_no_one_a_who_question_asks_for() -> None:
    question = "Who is Apple's independent auditor?"
    asked = set(stems(question))
    assert expected_type(question) == WHO
    we = ("We are a public accounting firm registered with the PCAOB and are required to be independent with "
          "respect to Apple Inc.")
    assert not has_type(we, WHO, asked)
    assert has_type(we, "name", asked)  # "Where ...?" may be answered by the place such a sentence names
    assert has_type("The Company's independent registered public accounting firm, Ernst & Young LLP, has issued an "
                    "audit report.", WHO, asked)
    assert has_type("She married Jay Z in 2008.", WHO, set(stems("Who did Beyonce marry?")))


def test_a_who_answer_opens_with_the_sentence_that_names_someone() -> None:
    served = Evidence("We have served as Apple Inc.'s auditor since 2009.", "r", position=3)
    named = Evidence("The Company's independent registered public accounting firm, Ernst & Young LLP, has issued an "
                     "audit report on the Company's internal control over financial reporting.", "m", position=0)
    answer = Answerer(HashingEmbedder()).compose("Who is Apple's independent auditor?", [served, named], [0, 1], 1.0)
    assert answer.text.startswith("The Company's independent registered public accounting firm, Ernst & Young LLP")
    assert served.text in answer.text and answer.used[0] is named
    caption = Evidence("Figure 3: Device Agent/Gateway Model.", "f", position=0)
    acts = Evidence("If the request is authorized, the policy administrator configures the channel.", "f", position=1)
    plain = Answerer(HashingEmbedder()).compose("Who configures the channel?", [acts, caption], [0, 1], 1.0)
    assert plain.text.startswith(acts.text)  # it names who acts, in words: it stays first


def test_a_report_that_says_we_is_answered_with_its_signer(tmp_path: Path) -> None:
    """An auditor's report names its author only in its "/s/" signature: "Who audits …?" opens with that name,
    and cites the signature's page."""
    report = [[["Report of Independent Registered Public Accounting Firm"],
               ["To the Stockholders and the Board of Directors of Northwind Traders Inc."],
               ["We have audited the accompanying consolidated balance sheets of Northwind Traders Inc. as of "
                "June 30, 2023 and 2022, and the related consolidated statements of operations and cash flows."],
               ["Our responsibility is to express an opinion on these financial statements based on our audits."]],
              [["/s/ Halvorsen & Brandt LLP"],
               ["We have served as the Company's auditor since 2004."],
               ["Denver, Colorado"]],
              [["Northwind Traders sells furniture and kitchen goods through its own stores and online."]]]
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path / "work")
    bank.ingest_file(write_pdf(tmp_path / "report.pdf", report))
    result = bank.run("Who audits the financial statements of Northwind Traders?")
    assert result.answer.startswith("Halvorsen & Brandt LLP"), result.answer
    assert any(2 in c.pages for c in result.citations)
    # a "who" answer that names its subject is left as it is
    assert bank.run("Who sells furniture and kitchen goods?").answer.startswith("Northwind Traders sells")


def test_a_title_or_a_month_names_no_one() -> None:
    asked = set(stems("Who is Oracle's Chief Executive Officer?"))
    assert not has_type("He served as our Chief Executive Officer from June 1977, when he founded Oracle, until "
                        "September 2014.", WHO, asked)
    assert not has_type("Management, including the Company's Chief Executive Officer and Chief Financial Officer, "
                        "does not expect that the controls will prevent all errors.", WHO, asked)
    assert has_type("Ms. Catz has been our Chief Executive Officer since September 2014.", WHO, asked)


def test_the_holder_of_an_office_is_named_beside_it() -> None:
    assert asked_title("Who is Apple's Chief Executive Officer?") == "Chief Executive Officer"
    assert asked_title("Who is the chief medical officer of Apple?") == "chief medical officer"
    assert asked_title("Who founded Oracle?") is None and asked_title("What does the officer do?") is None
    title = "Chief Executive Officer"
    for holder in ("By: /s/ Timothy D. Cook Timothy D. Cook Chief Executive Officer",
                   "Safra A. Catz, the Chief Executive Officer (Principal Executive and Financial Officer) of Oracle "
                   "Corporation, certifies that:",
                   "The council is led by Safra Catz, our Chief Executive Officer."):
        assert holds_title(holder, title), holder
    for mention in ("Much of the Company's future success depends on key personnel, including its Chief Executive "
                    "Officer, executive team and other highly skilled employees.",
                    "Special meetings may only be called by the Board of Directors, the Chair of the Board of "
                    "Directors or the Chief Executive Officer.",
                    "He served as our Chief Executive Officer from June 1977 until September 2014."):
        assert not holds_title(mention, title), mention
