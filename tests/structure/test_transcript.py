"""Conversations pasted as text are read as turns in dated sessions; prose and Markdown are left to the document
reader; every reading is bounded, whatever the paste."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_bank.loaders.document import Document
from memory_bank.structure.build import StructureBuilder
from memory_bank.structure.chunking import chunk_units
from memory_bank.structure.transcript import TranscriptLimits, read_transcript

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "northwind"

CHAT = """Conversation between Caroline and Melanie

Session 1 — 8 May 2023
Caroline: Hey Mel! Good to see you! How have you been?
Melanie: Hey Caroline! I'm swamped with the kids and work.
What's up with you? Anything new?
Caroline: I went to an LGBTQ support group yesterday and it was so powerful.
Melanie: Wow, that's cool! What happened there?

Session 2 — 25 May 2023
Melanie: I ran a charity race for mental health last Saturday.
Caroline: That's amazing, Mel! How did it feel?
"""


def test_sessions_become_dated_sections_and_turns_keep_speaker_and_date() -> None:
    structure = read_transcript(CHAT)
    assert structure is not None and structure.kind == "transcript"
    assert [s.title for s in structure.sections] == ["Session 1 (8 May 2023)", "Session 2 (25 May 2023)"]
    assert [s.date for s in structure.sections] == ["8 May 2023", "25 May 2023"]
    turns = [u for u in structure.units if u.kind == "turn"]
    assert [u.speaker for u in turns] == ["Caroline", "Melanie", "Caroline", "Melanie", "Melanie", "Caroline"]
    group = turns[2]
    assert group.text.startswith("Caroline: I went to an LGBTQ support group")
    assert group.date == "8 May 2023" and structure.section(group.section).title == "Session 1 (8 May 2023)"
    assert turns[1].text == ("Melanie: Hey Caroline! I'm swamped with the kids and work.\n"
                             "What's up with you? Anything new?")  # a continuation line joins its turn
    assert turns[4].date == "25 May 2023"
    assert structure.units[0].kind == "paragraph" and structure.units[0].section is None  # the title line


@pytest.mark.parametrize(("header", "title", "date"), [
    ("Session 3 (May 8, 2023)", "Session 3 (May 8, 2023)", "May 8, 2023"),
    ("## Session 3 — 1:56 pm on 8 May, 2023", "Session 3 (1:56 pm on 8 May, 2023)", "1:56 pm on 8 May, 2023"),
    ("--- 2023-05-08 ---", "Session 1 (2023-05-08)", "2023-05-08"),
    ("[1:56 pm on 8 May, 2023]", "Session 1 (1:56 pm on 8 May, 2023)", "1:56 pm on 8 May, 2023"),
    ("Session 4\n8 May 2023", "Session 4 (8 May 2023)", "8 May 2023"),
    ("Session 4", "Session 4", None),
])
def test_session_header_styles(header: str, title: str, date: str | None) -> None:
    text = f"{header}\nAnna: Did you book the hotel yet?\nBen: Yes, two nights in Porto.\n" \
           "Anna: Great, I'll bring the maps.\nBen: And I'll bring snacks for the train.\n"
    structure = read_transcript(text)
    assert structure is not None
    assert [(s.title, s.date) for s in structure.sections] == [(title, date)]
    assert all(u.kind == "turn" and u.date == date for u in structure.units)


def test_markdown_headings_among_turns_open_sections() -> None:
    text = ("# Board chat\n\n## Item 1: Northwind\nMaria: The budget is approved for 2021.\n"
            "Jonas: I want the pilot report first.\n\n## Item 2: Office leases\nMaria: Stavanger is extended by two "
            "years.\nJonas: Aisha will negotiate the parking.\n")
    structure = read_transcript(text)
    assert structure is not None
    assert [s.title for s in structure.sections] == ["Board chat", "Item 1: Northwind", "Item 2: Office leases"]
    assert [structure.section(u.section).title for u in structure.units] == ["Item 1: Northwind"] * 2 + [
        "Item 2: Office leases"] * 2


def test_a_plain_chat_without_sessions_is_turns_without_sections() -> None:
    text = "\n".join(["User: How do I reset my router?", "Assistant: Hold the reset button for ten seconds.",
                      "User: The lights are blinking orange now.", "Assistant: Wait two minutes, it is updating."])
    structure = read_transcript(text)
    assert structure is not None and structure.sections == []
    assert [u.speaker for u in structure.units] == ["User", "Assistant", "User", "Assistant"]
    assert all(u.section is None and u.date is None for u in structure.units)


def test_speaker_names_may_be_accented_or_marked_up() -> None:
    text = "\n".join(["**Zoë:** Did you see the match?", "[10:32] Émile Roux: Yes, what a finish!",
                      "**Zoë:** I still can't believe the last goal.", "[10:33] Émile Roux: Nobody saw it coming."])
    structure = read_transcript(text)
    assert structure is not None
    assert [u.speaker for u in structure.units] == ["Zoë", "Émile Roux", "Zoë", "Émile Roux"]


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.md")), ids=lambda p: p.name)
def test_the_sample_markdown_is_not_a_conversation(path: Path) -> None:
    assert read_transcript(path.read_text(encoding="utf-8")) is None


@pytest.mark.parametrize("text", [
    # labels of a report, however often they recur
    "# Plan\n\nNote: the budget is provisional.\n\nBudget: 5 million dollars for 2021.\n\nThe pilot runs in "
    "Stavanger.\n\nNote: figures exclude tax.\n\nBudget: reviewed in March.\n\nStatus: approved by the board.\n\n"
    "Status: pilot running.\n",
    # a form: short values under recurring field names
    "Name: Ada\nRole: chair\n\nName: Jonas\nRole: member\n\nName: Tor\nRole: member\n",
    # prose that happens to hold a few colons
    "The harbour was dredged in 1921. Ships of deeper draught could dock there afterwards.\n"
    "Warning: the old pier is closed. The town council meets monthly.\nIt keeps its minutes in the library.\n"
    "Anyone may attend, but only residents may speak. The railway reached the town in 1889.\n",
    # one voice is not a conversation
    "Ada: I started the log today.\nAda: The wind turned north at noon.\nAda: We reached the island.\n"
    "Ada: The crew is tired but well.\n",
    # an FAQ
    "Q: How do I apply for a permit?\nA: Fill in form 7 at the town hall.\nQ: How long does it take?\n"
    "A: About two weeks, sometimes three.\n",
])
def test_prose_forms_and_faqs_are_not_conversations(text: str) -> None:
    assert read_transcript(text) is None


def test_the_structure_builder_reads_pasted_text_as_a_conversation_but_not_a_pdf() -> None:
    assert StructureBuilder().run(Document.from_text(CHAT, "pasted text")).kind == "transcript"
    assert StructureBuilder().run(Document.from_text(CHAT, "minutes.pdf", kind="pdf")).kind == "document"


def test_transcript_chunks_hold_one_session_and_whole_turns() -> None:
    structure = read_transcript(CHAT)
    chunks = chunk_units(structure, budget_tokens=30)
    for chunk in chunks:
        sessions = {structure.units[p.unit].section for p in chunk.pieces}
        assert len(sessions) == 1
    turns = [u.text for u in structure.units if u.kind == "turn"]
    pieces = [chunk.text[p.start:p.end] for chunk in chunks for p in chunk.pieces if p.kind == "turn"]
    assert pieces == turns  # under the budget every turn is a piece of its own, never cut


# -- bounds ------------------------------------------------------------------------------------------------------


def test_five_megabytes_without_speakers_is_refused() -> None:
    """(Its time is measured by bench/pathological_files.py, not asserted here: timings flake on a shared box.)"""
    one_line = "The quick brown fox jumps over the lazy dog. " * 120_000
    lines = "The quick brown fox jumps over the lazy dog.\n" * 120_000
    for text in (one_line, lines):
        assert read_transcript(text) is None


def test_a_five_megabyte_turn_is_cut_into_bounded_pieces() -> None:
    limits = TranscriptLimits()
    text = ("Caroline: hi there, how are you?\nMelanie: fine thanks, and you?\nCaroline: "
            + "lorem ipsum dolor sit amet. " * 190_000 + "\nMelanie: wow, that was a long one indeed.\n")
    structure = read_transcript(text)
    assert structure is not None
    long_turn = [u for u in structure.units if u.speaker == "Caroline"][1:]
    assert len(long_turn) > 100 and all(len(u.text) <= limits.max_turn_chars for u in long_turn)
    chunks = chunk_units(structure, 4_000)
    assert all(len(c.text) <= 4 * 4_000 for c in chunks)


def _many_turns(count: int) -> str:
    lines = []
    for i in range(count):
        if i % 40 == 0:
            lines.append(f"Session {i // 40 + 1} — {i % 28 + 1} May 2023")
        lines.append(f"{'Caroline' if i % 2 else 'Melanie'}: this is turn number {i} and it says something.")
    return "\n".join(lines)


def test_a_hundred_thousand_turns_are_read_whole() -> None:
    structure = read_transcript(_many_turns(100_000))
    assert len(structure.units) == 100_000 and len(structure.sections) == 2_500
    assert [structure.section(u.section).title for u in structure.units[:41:40]] == [
        structure.sections[0].title, structure.sections[1].title]
