"""The loop's mechanics with a rule-based engine: ingestion, linking, merge, conflict, cross-validation,
citations, export round trip. The real engines have their own tests; here the rules are visible in the data."""

from __future__ import annotations

import json

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.errors import ImportFormatError, InputError
from memory_bank.events import ConflictFlagged, NodesMerged
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.support.fake_engine import Execute, fake_engine

TEXT = """ALPHA systems were first deployed FACT:year=1990 according to the archive.

The BETA protocol is unrelated to anything else here.

ALPHA systems were first deployed FACT:year=1995 according to a later survey.

DUP The GAMMA gateway routes traffic between sites.

DUP The GAMMA gateway routes traffic between sites and regions.

Operators of ALPHA machines trained for six months."""


@pytest.fixture()
def bank(tmp_path):
    b = MemoryBank(Settings(llm_concurrency=2), embedder=HashingEmbedder(), engine=fake_engine(),
                   workdir=tmp_path / "work")
    yield b
    b.clear()


def test_ingest_links_merges_and_flags(bank: MemoryBank) -> None:
    events = []
    bank.subscribe(events.append)
    ids = bank.ingest_text(TEXT, source="notes.txt")
    snap = bank.snapshot()
    assert len(ids) == 6
    assert snap.counts["nodes"] == 5  # the two DUP paragraphs became one node
    merged = [n for n in snap.nodes if n.merged_from]
    assert len(merged) == 1 and "regions" in merged[0].summary
    assert any(isinstance(e, NodesMerged) for e in events)
    assert [e for e in events if isinstance(e, ConflictFlagged)]
    assert snap.counts["pending_conflicts"] == 1
    assert snap.edges, "ALPHA paragraphs share a keyword and must be related"
    # the merged node keeps both raw entries
    assert len(bank.deep_retrieve(merged[0].id).entries) == 2


def test_run_cross_validates_then_answers(bank: MemoryBank) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    result = bank.run("When were ALPHA systems first deployed?")
    types = [t.type.value for t in result.insight_doc.completed_tasks]
    assert types[0] == "CROSS_VALIDATE" and types[-1] == "NORMAL"
    snap = bank.snapshot()
    assert snap.counts["pending_conflicts"] == 0
    resolved = [c for c in snap.conflicts if c.status == "resolved"]
    winner = next(n for n in snap.nodes if n.id == resolved[0].merged_into)
    assert "1990" in winner.summary and "1995" not in winner.summary
    assert result.answer.startswith("answer to") and result.citations
    assert result.citations[0].source == "notes.txt"
    assert result.termination == "done"


def test_follow_up_reuses_memory(bank: MemoryBank) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    bank.run("first question")
    before = bank.snapshot().counts["entries"]
    second = bank.run("a follow-up question")
    assert bank.snapshot().counts["entries"] == before
    assert second.insight_doc.task_goal == "a follow-up question"


def test_retrieve_returns_the_hits_first_then_their_neighbours(bank: MemoryBank) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    nodes = bank.retrieve("Operators trained for six months", k=1)
    assert len(nodes) >= 2, "the top hit's related neighbours come along"
    assert nodes[0].id == bank.ranked("Operators trained for six months", k=1)[0][0].id, "relevance order"
    prompt = bank.memory_prompt("Operators trained")
    assert prompt.startswith("<memory>") and prompt.endswith("</memory>") and "[node:" in prompt


def test_export_import_export_is_identical(bank: MemoryBank) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    bank.run("When were ALPHA systems first deployed?")
    first = bank.export()
    text = json.dumps(first)
    again = MemoryBank.from_export(text, bank.settings, embedder=HashingEmbedder(), engine=fake_engine())
    assert again.export() == first
    assert again.snapshot().counts == bank.snapshot().counts
    assert again.retrieve("GAMMA gateway", k=1)


def test_import_rejects_bad_files(bank: MemoryBank) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    good = bank.export()
    with pytest.raises(ImportFormatError, match="not a JSON"):
        MemoryBank.from_export(b"{broken", bank.settings, embedder=HashingEmbedder(), engine=fake_engine())
    bad = json.loads(json.dumps(good))
    bad["query_graph"]["edges"].append({"a": "nope", "b": bad["query_graph"]["nodes"][0]["id"]})
    with pytest.raises(ImportFormatError, match="missing node"):
        MemoryBank.from_export(bad, bank.settings, embedder=HashingEmbedder(), engine=fake_engine())
    bad = json.loads(json.dumps(good))
    del bad["query_graph"]["nodes"][0]["summary"]
    with pytest.raises(ImportFormatError, match="summary"):
        MemoryBank.from_export(bad, bank.settings, embedder=HashingEmbedder(), engine=fake_engine())


def test_export_has_no_secrets(tmp_path) -> None:
    settings = Settings(serper_api_key="sk-serper-SECRET", llm_api_key="sk-llm-SECRET")
    b = MemoryBank(settings, embedder=HashingEmbedder(), engine=fake_engine(), workdir=tmp_path / "w")
    b.ingest_text("ALPHA one.\n\nBETA two.")
    text = json.dumps(b.export())
    assert "SECRET" not in text
    assert "llm_api_key" in b.export()["settings"]["secrets_configured"]


def test_bad_input_keeps_memory(bank: MemoryBank, tmp_path) -> None:
    bank.ingest_text(TEXT, source="notes.txt")
    before = bank.snapshot().counts
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="empty.pdf"):
        bank.ingest_file(empty)
    result = bank.run("question", files=[empty])
    assert any("empty.pdf" in str(e) for e in result.errors)
    assert bank.snapshot().counts["nodes"] >= before["nodes"] - 1  # a resolved conflict merges two into one


def test_image_waits_in_temp_until_recognised(bank: MemoryBank, tmp_path) -> None:
    from PIL import Image

    path = tmp_path / "chart.png"
    Image.new("RGB", (40, 30), "white").save(path)
    bank.add_image(path)
    assert bank.images.pending()
    result = bank.run("what does the chart show?")
    assert [t.type.value for t in result.insight_doc.completed_tasks][0] == "IMAGE_RECOGNITION"
    assert not bank.images.pending()
    image_nodes = [n for n in bank.snapshot().nodes if n.kind == "image"]
    assert image_nodes
    dr = bank.deep_retrieve(image_nodes[0].id)
    assert dr.entries[0].attachments[0].content.startswith("data:image/png;base64,")
    bank.clear()
    assert not (tmp_path / "work").exists()


def test_cancel_stops_and_keeps_memory(tmp_path) -> None:
    from memory_bank.control import CancelToken

    ex = Execute()
    bank = MemoryBank(Settings(), embedder=HashingEmbedder(), engine=fake_engine(ex), workdir=tmp_path / "w")
    bank.ingest_text(TEXT, source="notes.txt")
    token = CancelToken()
    token.cancel()
    result = bank.run("anything", cancel=token)
    assert result.termination == "cancelled"
    assert bank.snapshot().counts["nodes"] == 5
    assert not ex.seen, "a cancelled run executes no task"


def test_cancel_during_ingestion_stops_between_items_and_the_next_ingest_works(tmp_path) -> None:
    from memory_bank.errors import RunCancelled
    from memory_bank.events import Progress

    bank = MemoryBank(Settings(llm_concurrency=1), embedder=HashingEmbedder(), engine=fake_engine(),
                      workdir=tmp_path / "w")
    bank.ingest_text("ALPHA kept.", source="first.txt")

    def cancel_on_structure(event) -> None:  # noqa: ANN001
        if isinstance(event, Progress) and event.stage == "structure" and event.done == 1:
            bank.cancel()

    unsubscribe = bank.subscribe(cancel_on_structure)
    long_text = "\n\n".join(f"Paragraph {i} about OMEGA." for i in range(50))
    with pytest.raises(RunCancelled):
        bank.ingest_text(long_text, source="long.txt")
    unsubscribe()
    assert bank.snapshot().counts["nodes"] == 1, "nothing half-built is stored; what was there stays"
    assert bank.ingest_text("BETA after the cancel.", source="later.txt")


def test_image_file_is_described_at_once_but_waits_for_its_task_in_a_run(bank: MemoryBank, tmp_path) -> None:
    from PIL import Image

    path = tmp_path / "photo.png"
    Image.new("RGB", (20, 20), "red").save(path)
    ids = bank.ingest_file(path)
    assert ids and bank.node(ids[0]).kind == "image" and not bank.images.pending()
    result = bank.run("what is in the photo?", files=[path])
    assert result.insight_doc.completed_tasks[0].type.value == "IMAGE_RECOGNITION"
    assert not bank.images.pending()


def test_conflicts_left_at_the_round_cap_do_not_end_an_answered_run_early(tmp_path) -> None:
    """A 10-K flags tens of conflicts and settling each takes a round: at the cap the question is answered all
    the same, the rest stay pending (shown as such), and the run is "done", not "max_rounds"."""
    bank = MemoryBank(Settings(llm_concurrency=2, max_rounds=1), embedder=HashingEmbedder(), engine=fake_engine(),
                      workdir=tmp_path / "work")
    try:
        bank.ingest_text(TEXT + "\n\nThe DELTA relay was released FACT:month=May by the lab.\n\n"
                                "The DELTA relay was released FACT:month=June by the lab.", source="notes.txt")
        assert bank.snapshot().counts["pending_conflicts"] == 2
        result = bank.run("When were ALPHA systems first deployed?")
        assert [t.type.value for t in result.insight_doc.completed_tasks] == ["CROSS_VALIDATE"]
        assert result.answer.startswith("answer to") and result.termination == "done"
        assert bank.snapshot().counts["pending_conflicts"] == 1
    finally:
        bank.clear()


def test_the_round_cap_cutting_the_answer_s_own_work_is_said(tmp_path) -> None:
    bank = MemoryBank(Settings(llm_concurrency=2, max_rounds=1), embedder=HashingEmbedder(), engine=fake_engine(),
                      workdir=tmp_path / "work")
    try:
        bank.ingest_text(TEXT, source="notes.txt")
        result = bank.run("When were ALPHA systems first deployed?")  # one round: the conflict; then the cap
        assert result.termination == "max_rounds" and result.answer.startswith("answer to")
    finally:
        bank.clear()
