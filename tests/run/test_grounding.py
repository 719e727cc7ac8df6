"""An answer that cites nothing (a small local model rarely writes `[node:id]`) is traced to the nodes that hold
its sentences; an answer no memory sentence holds stays uncited."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.models import ExecutionInput, ExecutionResult
from memory_bank.run.grounding import ground

NOTES = sorted((Path(__file__).resolve().parents[2] / "samples" / "northwind").glob("*.md"))
SUPPORTED = "The board approved the Northwind project with a budget of 5 million dollars for the fiscal year 2021."


@pytest.fixture(scope="module")
def notes_bank(embedder, tmp_path_factory):
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path_factory.mktemp("notes"))
    for path in NOTES:
        bank.ingest_file(path)
    yield bank
    bank.clear()


def test_each_claim_is_cited_to_the_sentence_that_says_it(notes_bank) -> None:
    nodes = list(notes_bank.memory.graph.nodes())
    answer = f"Per the minutes, {SUPPORTED[0].lower()}{SUPPORTED[1:]} Jonas Berg asked for the pilot report first."
    cited = ground(answer, nodes, notes_bank.memory.tree.entries_for)
    assert cited and cited[0].source == "board-minutes.md" and cited[0].quote == SUPPORTED
    assert all(c.node_id in notes_bank.memory.graph for c in cited) and len(cited) <= 3


def test_only_the_first_screens_of_a_long_answer_are_traced(notes_bank) -> None:
    """Tracing weighs every claim against every shown sentence: a megabyte answer is traced in its first
    `MAX_GROUNDED_CHARS` characters, where an answer's claims are, not word by word to its end."""
    from memory_bank.run.grounding import MAX_GROUNDED_CHARS

    nodes = list(notes_bank.memory.graph.nodes())
    filler = "Kangaroos migrate across the Nullarbor every winter season. " * (MAX_GROUNDED_CHARS // 60 + 1)
    assert ground(f"{SUPPORTED} {filler}", nodes, notes_bank.memory.tree.entries_for)
    assert ground(f"{filler}{SUPPORTED}", nodes, notes_bank.memory.tree.entries_for) == []


def test_an_answer_no_sentence_holds_stays_uncited(notes_bank) -> None:
    nodes = list(notes_bank.memory.graph.nodes())
    assert ground("Kangaroos migrate across the Nullarbor every winter season.", nodes,
                  notes_bank.memory.tree.entries_for) == []
    assert ground("Yes.", nodes, notes_bank.memory.tree.entries_for) == []


class _Uncited:
    """An executor that answers like the 1.5B model: right, but with no [node:id]."""

    def run(self, inp: ExecutionInput) -> ExecutionResult:
        return ExecutionResult(answer=SUPPORTED, success=True, summary="answered")


def test_the_run_cites_an_uncited_llm_answer(embedder, tmp_path) -> None:
    probe = MemoryBank(Settings(engine="offline"), embedder=embedder, workdir=tmp_path / "probe")
    engine = replace(probe.engine, executor=_Uncited())
    bank = MemoryBank(Settings(engine="offline"), embedder=embedder, engine=engine, workdir=tmp_path / "work")
    result = bank.run("Who approved the Northwind budget?", files=NOTES)
    assert result.answer == SUPPORTED
    assert "board-minutes.md" in {c.source for c in result.citations}
    assert all(c.node_id in bank.memory.graph for c in result.citations)
    bank.clear()
    probe.clear()
