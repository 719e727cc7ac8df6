"""Bounded work on hostile text: no super-linear step on unbounded input, and an ingestion time budget that stops
between chunks, keeps what was built and says so. Work is checked by what runs (which matcher, how many chunks),
never by a timing; the deadline guard only catches a hang."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline import contradiction
from memory_bank.errors import MemoryBankError
from memory_bank.events import ErrorRaised
from memory_bank.retrieval.embedding import HashingEmbedder
from memory_bank.text import furniture

from .support import make_bank, within_deadline

_rng = random.Random(7)
REPETITIVE = {
    "one character, 60 kB": "x" * 60_000,
    "one word, 60 kB": "a " * 30_000,
    "one word a line": "a\n" * 30_000,
    "two words alternating": "ab cd " * 10_000,
    "50-word vocabulary": " ".join(_rng.choice([f"w{i}" for i in range(50)]) for _ in range(12_000)),
    "one sentence repeated": "The pump moves water every hour. " * 2_000,
    "dots without a page number": "Intro " + ". " * 30_000,
}


class _Refused:
    def __init__(self, *_args, **_kwargs) -> None:  # noqa: ANN002, ANN003
        raise AssertionError("the quadratic matcher ran on a repetitive text")


@pytest.mark.parametrize("name", sorted(REPETITIVE))
def test_a_repetitive_text_is_aligned_without_the_quadratic_matcher(name: str, monkeypatch) -> None:  # noqa: ANN001
    text = REPETITIVE[name]
    edited = text[: len(text) // 2] + " 1990 " + text[len(text) // 2:]
    ours, theirs = contradiction.align_tokens(text), contradiction.align_tokens(edited)
    pairs = sum(k.key == m.key for k in ours[:200] for m in theirs[:200])
    if pairs * (len(ours) // 200) * (len(theirs) // 200) > contradiction.MAX_PAIRS:
        monkeypatch.setattr(contradiction, "SequenceMatcher", _Refused)
    within_deadline(lambda: contradiction.align(ours, theirs), 60)


def test_ordinary_prose_still_uses_the_exact_matcher() -> None:
    a = contradiction.align_tokens("The bridge was built in 1875 and it is one of the oldest in the region. "
                                   "Its stone arches span the river at the old ford.")
    b = contradiction.align_tokens("The bridge was built in 1920 and it is one of the oldest in the region. "
                                   "Its stone arches span the river at the old ford.")
    assert [(s.ours, s.theirs) for s in contradiction.align(a, b).distinct] == [("1875", "1920")]


def test_the_anchored_alignment_still_finds_an_edit_in_a_long_copy() -> None:
    """What the bounded fallback keeps: the long shared runs of an edited copy and the edit between them."""
    rng = random.Random(3)
    words = [f"w{rng.randrange(5_000)}" for _ in range(3_000)]
    edited = [*words[:1_500], "1995", *words[1_501:]]
    words[1_500] = "1990"
    ops = contradiction.word_opcodes(words, edited, max_pairs=0)
    assert ("replace", 1_500, 1_501, 1_500, 1_501) in ops
    assert sum(i2 - i1 for op, i1, i2, _, _ in ops if op == "equal") == 2_999
    assert ops == contradiction.SequenceMatcher(None, words, edited, autojunk=False).get_opcodes()


def test_leader_entries_are_read_in_one_pass_as_before() -> None:
    old = re.compile(r".*?(?:(?:\.\s?){4,}|(?:…\s?){2,})\s*(?:\d{1,4}|[ivxlcdm]{1,7})\b", re.IGNORECASE)
    rng = random.Random(5)
    for _ in range(2_000):
        text = "".join(rng.choices(["Intro", " ", ".", ". ", "…", "12", "iv", "\n", "2.1", "x"], k=rng.randint(1, 40)))
        assert furniture._leader_entries(text) == [m.group() for m in old.finditer(text)], repr(text)
    within_deadline(lambda: furniture._leader_share("x" * 200_000), 30)


@pytest.mark.parametrize("name", ["one character, 60 kB", "one word, 60 kB", "50-word vocabulary",
                                  "dots without a page number"])
def test_a_repetitive_document_is_ingested_by_the_offline_engine(name: str, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(), embedder=HashingEmbedder(), workdir=tmp_path / "w")
    ids = within_deadline(lambda: bank.ingest_text(REPETITIVE[name], source="repetitive.txt"), 120)
    assert ids and bank.snapshot().counts["nodes"] >= 1


def _long_notes(paragraphs: int = 60) -> str:
    return "\n\n".join(f"Paragraph {i} about the ALPHA{i} site describes its pumps and valves in detail. " * 8
                       for i in range(paragraphs))


def test_the_ingestion_time_budget_stops_between_chunks_and_keeps_what_was_built(tmp_path: Path) -> None:
    bank = make_bank(tmp_path / "w", ingest_time_budget=1e-9, agent_window=512)
    events = []
    bank.subscribe(events.append)
    ids = within_deadline(lambda: bank.ingest_text(_long_notes(), source="long.txt"))
    [report] = bank.reports
    assert ids and report.node_ids == ids, "the first chunk's nodes are kept"
    assert report.stopped and "INGEST_TIME_BUDGET" in report.stopped.message and "1 of" in report.stopped.message
    assert any(isinstance(e, ErrorRaised) and "INGEST_TIME_BUDGET" in e.message for e in events)
    full = make_bank(tmp_path / "full", agent_window=512)
    assert len(full.ingest_text(_long_notes(), source="long.txt")) > len(ids)


def test_a_run_records_the_budget_stop_in_its_errors(tmp_path: Path) -> None:
    bank = make_bank(tmp_path / "w", ingest_time_budget=1e-9, agent_window=512)
    result = within_deadline(lambda: bank.run("What do the ALPHA sites pump?", text=_long_notes()))
    assert any("INGEST_TIME_BUDGET" in str(e) for e in result.errors)
    assert result.answer and bank.snapshot().counts["nodes"] >= 1


def test_a_bad_budget_setting_is_a_config_error() -> None:
    from memory_bank.errors import ConfigError

    with pytest.raises(ConfigError, match="INGEST_TIME_BUDGET"):
        Settings.from_env({"INGEST_TIME_BUDGET": "soon"}, env_file=None)
    with pytest.raises(MemoryBankError):
        Settings.from_env({"INGEST_TIME_BUDGET": "-1"}, env_file=None)
