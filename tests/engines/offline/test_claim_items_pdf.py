"""A list of claims (threats, risks, benefits) shows each item with the sentence of its sub-section that states it,
on real pages of NIST SP 800-207 §5: "What are the threats associated with zero trust architecture?" showed each
sub-section's first sentence, which is sometimes context ("5.2 Denial-of-Service or Network Disruption: In ZTA, the
PA is the key component for resource access."). Items that are things keep the sentence that says what they are."""

from __future__ import annotations

import pytest

from memory_bank import MemoryBank
from memory_bank.retrieval.embedding import CachedEmbedder
from tests.support.pdf_pages import bank_of_pages


@pytest.fixture(scope="module")
def threats(tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> MemoryBank:
    # PDF pages 37-40: "5 Threats Associated with Zero Trust Architecture" and its sub-sections 5.1-5.7
    return bank_of_pages("NIST.SP.800-207.pdf", [36, 37, 38, 39], tmp_path_factory.mktemp("threats"),
                         embedder=embedder)


def _items(answer: str) -> dict[str, str]:
    lines = [line.removeprefix("- ") for line in answer.splitlines()[1:]]
    return {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in lines if ":" in line}


def test_each_threat_is_shown_by_the_sentence_stating_it(threats: MemoryBank) -> None:
    answer = threats.run("Which threats to a zero trust architecture does the publication describe?").answer
    items = _items(answer)
    assert len(items) == 7, answer
    context = {"5.1 Subversion of ZTA Decision Process": "In ZTA, the policy engine and policy administrator are",
               "5.2 Denial-of-Service or Network Disruption": "In ZTA, the PA is the key component",
               "5.7 Use of Non-person Entities (NPE) in ZTA Administration": "Artificial intelligence and other"}
    for title, opening in context.items():
        assert not items[title].startswith(opening), (title, items[title])
    assert items["5.2 Denial-of-Service or Network Disruption"].startswith("If an attacker disrupts"), answer
    assert "risk" in items["5.7 Use of Non-person Entities (NPE) in ZTA Administration"], answer
    for sentence in items.values():  # whole sentences, none a remedy
        assert sentence[:1].isupper() and sentence.endswith((".", ")")), sentence
        assert "mitigate" not in sentence.lower(), sentence
        # nor one leaning on a sentence not shown ("Likewise, a compromised PA could allow access …")
        assert not sentence.startswith(("Likewise", "Like ", "This ", "These ", "It ")), sentence
