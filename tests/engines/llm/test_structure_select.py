"""Summaries by selection (issue 29): under the local model the structure agent names the sentences to keep
instead of writing a summary. The summary is the text's own sentences, the model's picks first; the reply is a
few tokens an item; the schema lets each item name only its own sentences. Counted, never timed."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium

from memory_bank import MemoryBank
from memory_bank.engines.llm.engine import build_llm_engine
from memory_bank.engines.llm.openai_client import OpenAIClient
from memory_bank.engines.llm.structure import StructureAgent
from memory_bank.engines.llm.structure_select import SelectingStructureAgent
from memory_bank.engines.models import StructureInput
from memory_bank.engines.offline.nlp import sentences
from memory_bank.engines.offline.structure import OfflineStructurer
from memory_bank.events import RuleDecided
from memory_bank.retrieval.embedding import CachedEmbedder
from memory_bank.settings import Settings
from memory_bank.tools.base import ToolBox
from tests.support.fake_openai import FakeOpenAI, ok
from tests.support.scripted_llm import ScriptedLLM, batch_items

NIST = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "pdf" / "NIST.SP.800-207.pdf"

FACTS = ["The committee met on 4 March 2021 in Oslo.", "The weather that morning was mild and grey.",
         "Several members arrived a little late.", "Coffee was served before the session began.",
         "The chair opened with a short welcome.", "The room was larger than the one used last year.",
         "The board approved a budget of 5 million dollars.", "Lunch was taken in the hotel restaurant.",
         "The pilot will start in the Bergen office in June.", "The meeting closed at four in the afternoon."]
BUDGET = StructureInput(content=" ".join(FACTS), context="Steering board meeting", keywords=["board"])
SHORT = StructureInput(content=" ".join(FACTS[:6]), context="Arrival", keywords=["arrival"])


def picks(*items: tuple[str, list[int]]) -> str:
    return json.dumps({"items": [{"id": i, "keep": k} for i, k in items]})


def test_the_summary_is_the_picked_sentences_as_written_picks_first(fake: FakeOpenAI, client: OpenAIClient) -> None:
    fake.push(ok(picks(("c1", [7, 5]), ("c2", [1]))))
    agent = SelectingStructureAgent(client, fake.settings(), OfflineStructurer())
    budget, short = agent.run_batch([BUDGET, SHORT])
    assert len(fake.chat_requests) == 1
    said = sentences(budget.summary)  # type: ignore[union-attr]
    assert set(said) <= set(FACTS), "every sentence of the summary is one of the text's, as written"
    assert FACTS[6] in said and FACTS[4] in said, "the model's picks are kept"
    assert said == [f for f in FACTS if f in said], "in the text's order"
    words = len(budget.summary.split())  # type: ignore[union-attr]
    assert 0.3 * len(BUDGET.content.split()) <= words <= 0.5 * len(BUDGET.content.split())
    offline = sentences(OfflineStructurer().run(BUDGET).summary)
    assert FACTS[4] not in offline, "the pick changed what the memory keeps"
    assert FACTS[0] in sentences(short.summary)  # type: ignore[union-attr]

    request = fake.chat_requests[0]
    texts = [item["text"] for item in batch_items(request.messages[-1]["content"])]
    assert texts[0].startswith("[1] The committee met") and "[10] The meeting closed" in texts[0]
    schema = request.response_format["json_schema"]["schema"]  # type: ignore[index]
    alternatives = schema["$defs"]["Picks"]["anyOf"]
    ranges = {a["properties"]["id"]["enum"][0]: a["properties"]["keep"]["items"]["enum"] for a in alternatives}
    assert ranges == {"c1": list(range(1, 11)), "c2": list(range(1, 7))}, "each item may name only its sentences"
    assert request.body["max_tokens"] < 200, "a few tokens an item, not a written summary"


def test_a_sentence_number_the_item_does_not_have_is_asked_again(fake: FakeOpenAI, client: OpenAIClient) -> None:
    """A remote endpoint may ignore the schema: the item is re-asked, naming its range; the other is kept."""
    fake.push(ok(picks(("c1", [7, 14]), ("c2", [2]))), ok(picks(("c1", [7]))))
    budget, short = SelectingStructureAgent(client, fake.settings(), OfflineStructurer()).run_batch([BUDGET, SHORT])
    assert len(fake.chat_requests) == 2
    again = fake.chat_requests[1].messages[-1]["content"]
    assert "sentences 1 to 10" in again and "no sentence 14" in again
    assert [item["id"] for item in batch_items(again)] == ["c1"]
    assert FACTS[6] in budget.summary and FACTS[1] in short.summary  # type: ignore[union-attr]


def test_the_local_model_selects_and_a_remote_one_writes(fake: FakeOpenAI) -> None:
    assert Settings(llm_provider="local").summaries_by_selection()
    assert not Settings(llm_provider="openai").summaries_by_selection()
    assert not Settings(llm_provider="local", summary_mode="write").summaries_by_selection()
    assert Settings(summary_mode="select").summaries_by_selection()
    client = OpenAIClient(fake.settings())
    chosen = build_llm_engine(fake.settings(summary_mode="select"), client, ToolBox([]),
                              extractive=OfflineStructurer()).structure
    written = build_llm_engine(fake.settings(), client, ToolBox([])).structure
    assert isinstance(chosen, SelectingStructureAgent) and isinstance(written, StructureAgent)


def _selecting_bank(fake: FakeOpenAI, embedder: CachedEmbedder, tmp_path: Path, pages: list[int]) -> MemoryBank:
    """A bank on *LLM for everything* with summaries by selection, having read `pages` of the NIST PDF."""
    part = pdfium.PdfDocument.new()
    part.import_pages(pdfium.PdfDocument(str(NIST)), pages)
    path = tmp_path / "NIST.SP.800-207.pdf"
    part.save(str(path))
    bank = MemoryBank(fake.settings(summary_mode="select").with_preset("llm"), embedder=embedder,
                      workdir=tmp_path / "w")
    bank.ingest_file(path)
    return bank


def test_a_real_pdf_under_selection_keeps_only_its_own_sentences(embedder: CachedEmbedder, tmp_path: Path) -> None:
    """Three pages of the NIST PDF through *LLM for everything* with selection: every node's summary is made of
    the document's own sentences, and no structure call asks for room to write."""
    with FakeOpenAI(handler=ScriptedLLM()) as fake:
        bank = _selecting_bank(fake, embedder, tmp_path, [9, 10, 11])
        structure = [r for r in fake.chat_requests if r.agent == "structure"]
        nodes = bank.memory.graph.nodes()
        raw = " ".join(bank.memory.source_text(n.id) for n in nodes)
        bank.clear()
    assert structure and all(r.body["max_tokens"] <= 64 + 16 * 60 for r in structure)
    flat = " ".join(raw.split())
    # a list's items are sentences of their own: one kept after another's ("… functionality. • Section 5 …") is
    # read as such (a list a page break cut is one list, its items kept apart from the page's footnotes)
    kept = [part.strip() for n in nodes for s in sentences(n.summary) for part in s.split(" • ")]
    assert nodes and all(part.lstrip("• ") in flat for part in kept), "no sentence the PDF lacks"


def test_document_furniture_is_summarised_without_a_call(embedder: CachedEmbedder, tmp_path: Path) -> None:
    """The NIST PDF's front matter (cover, notices, table of contents) under *LLM for everything*: its furniture
    clusters are summarised offline, said so in the run log, and no structure prompt carries their text."""
    with FakeOpenAI(handler=ScriptedLLM()) as fake:
        bank = _selecting_bank(fake, embedder, tmp_path, list(range(8)))
        prompts = " ".join(r.messages[-1]["content"] for r in fake.chat_requests if r.agent == "structure")
        furniture = [n for n in bank.memory.graph.nodes() if n.role.is_furniture]
        texts = {n.id: bank.memory.source_text(n.id) for n in furniture}
        ruled = [e.reason for e in bank.events.log() if isinstance(e, RuleDecided) and e.agent == "structure"]
        bank.clear()
    assert {n.role.value for n in furniture} >= {"contents"}, "the table of contents is furniture"
    lines = [line for t in texts.values() for line in t.splitlines() if len(line) > 30]
    assert lines and not any(json.dumps(line)[1:-1] in prompts for line in lines)
    assert sum("furniture" in r for r in ruled) >= len(furniture) - sum(len(t.split()) <= 40 for t in texts.values())
