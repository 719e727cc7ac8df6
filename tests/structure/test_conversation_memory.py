"""A pasted conversation through the product path: nodes hold whole turns of one session, cite the session with
its date, and the memory block for a "when did ..." question shows that date beside the turn that answers it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.structure.transcript import read_transcript

LONG_TURN = ("Melanie: The painting class was the best part of my month, honestly. We started with charcoal sketches "
             "of the lake, then moved to watercolours, and the teacher showed us how to leave the white of the paper "
             "for the light on the water instead of painting it. I kept going back to the same corner of the lake "
             "because the willow there changes colour every hour. My daughter came on the last day and painted a "
             "duck that looked more like a potato, and she was so proud of it that we framed it and hung it in the "
             "hallway. I have signed up for the next term already, and this time I want to try oils, which everyone "
             "says are more forgiving.")

CONVERSATION = f"""Session 1 — 8 May 2023
Caroline: Hey Mel! Good to see you! How have you been lately?
Melanie: Hey Caroline! I'm swamped with the kids and work, but happy.
Caroline: I went to an LGBTQ support group yesterday and it was so powerful.
Melanie: Wow, that's cool! What did you talk about there?
Caroline: Transgender stories, mostly. Hearing them made me feel accepted and brave.
Melanie: I'm so glad you found them. Will you go again next week?
Caroline: Definitely, they meet every Sunday at the community centre.

Session 2 — 25 May 2023
Melanie: I ran a charity race for mental health last Saturday.
Caroline: That's amazing, Mel! How long was the race?
Melanie: Five kilometres along the river. My legs still hurt today.
Caroline: You should be proud. What made you choose that charity?
Melanie: A friend of mine struggled last year, and the charity helped her a lot.
{LONG_TURN}
Caroline: A duck like a potato is the best kind of art.

Session 3 — 9 June 2023
Caroline: I started the adoption paperwork this week. It's a long process.
Melanie: That's huge news! Which agency are you working with?
Caroline: A small one downtown that supports LGBTQ families. They were very kind.
Melanie: Let me know if I can help with anything, even the boring forms.
Caroline: Thanks, Mel. I might need someone to proofread my essay for them.
"""


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryBank]:
    work: Path = tmp_path_factory.mktemp("conversation")
    b = MemoryBank(Settings(), embedder=HashingEmbedder(), workdir=work)
    b.ingest_text(CONVERSATION, source="pasted text")
    yield b
    b.clear()


def _turns() -> dict[str, str]:
    """Each turn's text -> its session's title."""
    structure = read_transcript(CONVERSATION)
    return {u.text: structure.section(u.section).title for u in structure.units if u.kind == "turn"}


def test_every_entry_is_whole_turns_of_one_session_and_cites_it_with_its_date(bank: MemoryBank) -> None:
    turns = _turns()
    nodes = [bank.node(view.id) for view in bank.snapshot().nodes]
    assert nodes and all(node.kind == "text" for node in nodes)
    seen: set[str] = set()
    for node in nodes:
        (source,) = node.sources
        entries = bank.entries_for(node.id)
        assert entries
        for entry in entries:
            pieces = [p.strip() for p in entry.text.split("\n\n") if p.strip()]
            assert all(p in turns for p in pieces), f"an entry cuts a turn: {entry.text!r}"
            sessions = {turns[p] for p in pieces}
            assert sessions == {source.section[-1]}
            assert entry.metadata["section"] == list(source.section)
            assert entry.metadata["date"] in source.section[-1] and entry.metadata["speaker"]
            seen.update(pieces)
        assert source.label().startswith("pasted text, §Session ")
        assert source.label().endswith(" 2023)")
    assert seen == set(turns)  # nothing lost, the long turn included
    assert LONG_TURN in seen


def test_the_memory_block_shows_the_session_date_beside_the_answering_turn(bank: MemoryBank) -> None:
    block = bank.memory_prompt("When did Caroline go to the LGBTQ support group?", budget_tokens=200)
    assert "Caroline: I went to an LGBTQ support group yesterday and it was so powerful." in block
    line = next(i for i, text in enumerate(block.split("\n")) if "support group yesterday" in text)
    before = "\n".join(block.split("\n")[: line + 1])
    assert "Session 1 (8 May 2023)" in before  # the node's header or the line's place names the session


def test_a_topic_line_without_the_session_leaves_the_date_to_the_place(tmp_path: Path) -> None:
    """An LLM writes its own topic lines, which need not name the session: the evidence line's place does."""
    b = MemoryBank(Settings(), embedder=HashingEmbedder(), workdir=tmp_path / "w")
    b.ingest_text(CONVERSATION, source="pasted text")
    for view in b.snapshot().nodes:
        b.node(view.id).context = "what the two friends talked about"
    block = b.memory_prompt("When did Caroline go to the LGBTQ support group?", budget_tokens=200)
    assert "(pasted text, §Session 1 (8 May 2023))" in block
    b.clear()


def test_the_reply_to_a_turn_that_matches_the_question_comes_with_it(bank: MemoryBank) -> None:
    """"Five kilometres along the river" shares no word with the question; the turn it answers does."""
    block = bank.memory_prompt("How long was the charity race?", budget_tokens=110)
    assert "Caroline: That's amazing, Mel! How long was the race?" in block
    assert "Melanie: Five kilometres along the river. My legs still hurt today." in block
