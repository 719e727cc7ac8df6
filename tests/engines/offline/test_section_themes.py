"""A name a whole part of the documents keeps saying is what that part is about: a sentence of it need not say it
to answer ("How many NFL teams …?" of an article on a football game), but a name put in another's slot is still a
swap however often the section says it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.offline.executor import OfflineExecutor
from memory_bank.engines.offline.ranking import Ranked, SentenceModel
from memory_bank.engines.offline.themes import cover_themes, section_themes
from memory_bank.engines.protocol.figures import TableIndex
from memory_bank.engines.protocol.memory_block import MemoryBlockBuilder
from memory_bank.retrieval.embedding import HashingEmbedder

TEN = ("The Carolina Panthers became one of only ten teams to have completed a regular season with only one loss.")
DEFEAT = ("The American Football Conference champion Denver Broncos defeated the National Football Conference "
          "champion Carolina Panthers 24–10 to earn their third Super Bowl title.")


def _ranked(question: str, texts: list[str], themes: tuple[str, ...]) -> Ranked:
    pool = [Evidence(t, "n0", position=i, section=("Super Bowl 50",), themes=themes) for i, t in enumerate(texts)]
    return Ranked(pool, np.zeros((len(pool), len(SentenceModel.names()))), [0.0] * len(pool),
                  list(range(len(pool))), set(), question=question)


def test_a_theme_of_the_section_is_no_unmet_name_but_a_swap_stays_a_swap() -> None:
    question = "How many NFL teams have had only one loss by the end of a regular season?"
    assert _ranked(question, [TEN], ()).near_miss(0) == ["NFL"]  # the sentence alone never says it
    assert _ranked(question, [TEN], ("NFL",)).near_miss(0) == []
    swapped = "Which team did the Carolina Panthers defeat to earn their third Super Bowl title?"
    assert _ranked(swapped, [DEFEAT], ("Carolina", "Panthers")).near_miss(0) == ["Panthers"]


@dataclass(frozen=True)
class _Entry:
    text: str


@dataclass(frozen=True)
class _Node:
    id: str


class _View:
    """The two reads section_themes makes of a view: the passages of a section and their raw text."""

    def __init__(self, passages: dict[tuple[str, ...], list[str]]) -> None:
        self.passages = passages

    def in_section(self, path: tuple[str, ...]) -> list[_Node]:
        return [_Node(f"{path[0]}/{i}") for i in range(len(self.passages.get(path, [])))]

    def entries_for(self, node_id: str) -> list[_Entry]:
        path, i = node_id.split("/")
        return [_Entry(self.passages[(path,)][int(i)])]


def test_a_theme_is_said_in_a_fifth_of_the_section_s_passages_and_in_five_at_least() -> None:
    game = [f"The NFL scheduled game {i} of the season." for i in range(6)] + [
        f"Play {i} went on." for i in range(14)] + ["The Thals mutated."]
    view = _View({("Game",): game, ("Short",): ["NFL one.", "NFL two.", "NFL three."]})
    question = "How many NFL teams beat the Thals in the Short season?"
    assert section_themes(question, [("Game",), ("Short",), ()], view) == {("Game",): ("NFL",)}  # type: ignore[arg-type]
    view.passages[("Game",)] += [f"Another play {i}." for i in range(10)]  # 6 of 31: under a fifth
    assert section_themes(question, [("Game",)], view) == {}  # type: ignore[arg-type]


_WEEK = ("In week {i} the NFL scheduled the Panthers against opponent number {i}, and the crowd filled the stadium "
         "long before kickoff. The coaches prepared a plan for drive {i} with new formations, the kickers practised "
         "field goals from every distance, and the linemen studied film of rival number {i} for hours each night. "
         "Reporters wrote about the weather of week {i}, the injuries, the travel and the noise of the fans.")
def test_a_name_is_a_theme_by_the_word_that_meets_it() -> None:
    """"Peyton Manning" is met by "Manning": an article saying "Manning" throughout has the whole name as a theme,
    or "Peyton" alone would be left unmet by "Manning finished the year …"."""
    view = _View({("Game",): [f"Manning threw pass {i}." for i in range(6)] + [f"Play {i}." for i in range(14)]})
    question = "What was the passer rating for Peyton Manning that he finished out with for the season?"
    themes = section_themes(question, [("Game",)], view)  # type: ignore[arg-type]
    assert themes == {("Game",): ("Peyton", "Manning")}
    rating = "Manning finished the year with a career-low 67.9 passer rating."
    assert _ranked(question, [rating], themes[("Game",)]).near_miss(0) == []


GAME = "\n\n".join(["# Super Bowl 50", *(_WEEK.format(i=i) for i in range(1, 9)), TEN + " " + _WEEK.format(i=9)
                     .replace("the NFL", "the league")])


def test_the_executor_s_evidence_carries_the_themes_of_its_section(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(GAME, "game.md")
    question = "How many NFL teams have had only one loss by the end of a regular season?"
    selection = MemoryBlockBuilder(bank.view).select(question, bank.settings.memory_budget_tokens)
    evidence = OfflineExecutor(bank.embedder, bank.view, TableIndex(bank.view)).evidence(selection)
    ten = [ev for ev in evidence if "only ten teams" in ev.text]
    assert ten and ten[0].themes == ("NFL",), [(ev.text, ev.themes) for ev in evidence]


def test_a_name_the_cover_says_is_the_whole_document_s_theme(nist_pdf: Path, tmp_path: Path) -> None:
    """NIST's cover says "U.S. Department of Commerce" and its body "federal agencies": a reader's "U.S. federal
    agencies" is met; a name said in the body but not on the cover is no theme of the document."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_file(nist_pdf)
    view = bank.view
    assert cover_themes("How long have U.S. federal agencies been urged to adopt zero trust?", view) == {
        "NIST.SP.800-207.pdf": ("U.S",)}
    assert cover_themes("How long have FICAM programs been urged to adopt zero trust?", view) == {}
    question = "How long have U.S. federal agencies been encouraged to adopt security built on zero trust principles?"
    selection = MemoryBlockBuilder(view).select(question, bank.settings.memory_budget_tokens)
    evidence = OfflineExecutor(bank.embedder, view, TableIndex(view)).evidence(selection)
    decade = [i for i, ev in enumerate(evidence) if "for more than a decade" in ev.text]
    assert decade and "U.S" in evidence[decade[0]].themes, [(ev.text, ev.themes) for ev in evidence]
    pool = evidence[decade[0]:decade[0] + 1]
    ranked = Ranked(pool, np.zeros((1, len(SentenceModel.names()))), [0.0], [0], set(), question=question)
    assert ranked.near_miss(0) == []
