"""Hostile questions and degenerate evidence on the answer path: each is answered (or "not found") at once, never
after hours. A pattern tried at every split of a long run of spaces, marks or commas is quadratic (or worse) in
it; the deadline guard only catches such a hang, and the rewritten patterns are checked against the old ones'
matches on random strings, so no ordinary answer changes."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline import counted_list, question_types, verdict
from memory_bank.engines.offline.counted_list import enumerated_count
from memory_bank.engines.offline.evidence import Evidence
from memory_bank.engines.protocol.not_found import is_not_found
from memory_bank.retrieval.embedding import HashingEmbedder
from tests.reliability.support import within_deadline

from .texts import LIGHTHOUSE

DEADLINE = 30.0  # a hang, not speed: each input below took minutes to hours before
SPACES = " " * 200_000

# the patterns as they were, to check that the rewrites match what they matched
_OLD = {
    "enumerated": re.compile(r"\b(?:consists? of|comprises?|(?:is|are) (?:composed|made up) of)\s+"
                             r"(?P<items>[^.;:]+?,[^.;:]+\band\s+[^.;:,]+)\.?$", re.IGNORECASE),
    "choice_end": re.compile(r"\bor\s+(?!not\b)(?:[\w'’-]+\s+){0,1}[\w'’-]+\s*\?*\s*$", re.IGNORECASE),
    "definition": re.compile(r"^\s*what(?: is|'s| are) (?:an? |the )?(?P<term>[\w\- ]{2,60}?)\s*\??\s*$",
                             re.IGNORECASE),
    "role": re.compile(r"^\s*what (?:(?:does|do) (?:an? |the )?(?P<term>[\w\- ]{2,40}?) do|is the (?:role|job|"
                       r"function|purpose|responsibility) of (?:an? |the )?(?P<of>[\w\- ]{2,40}?)(?: in [^?]*)?)"
                       r"\s*\??\s*$", re.IGNORECASE),
}
_NEW = {"enumerated": counted_list._ENUMERATED, "choice_end": verdict._CHOICE_END,
        "definition": question_types._DEFINITION_Q, "role": question_types._ROLE_Q}
_PIECES = ["consists of", "comprise", "is made up of", "are composed of", "and", "or", "not", " ", "  ", ",", ", ",
           ".", ";", ":", "a", "b", "c d", "\n", "?", "'", "-", "Apple", "x,and", "what is ", "what does ", " do",
           "what is the role of ", " in ", "the "]


def _found(match: re.Match[str] | None) -> tuple[int, dict[str, str | None]] | None:
    # the groups that took part: a group the rewrite added (the enumeration's verb of division) is unset alike
    return None if match is None else (match.start(), {k: v for k, v in match.groupdict().items() if v is not None})


def _edge(name: str, old: re.Match[str] | None) -> bool:
    """The one place an enumeration's rewrite reads differently, on no real sentence: items that open with a
    comma, or whose last item is only spaces (both came to fewer than three items before, so no answer)."""
    items = old.group("items") if old is not None and name == "enumerated" else ""
    return items.lstrip()[:1] == "," or items.rsplit("and", 1)[-1].strip() == ""


@pytest.mark.parametrize("name", sorted(_NEW))
def test_a_rewritten_pattern_matches_what_the_old_one_matched(name: str) -> None:
    rng = random.Random(11)
    for _ in range(20_000):
        text = "".join(rng.choices(_PIECES, k=rng.randint(1, 12)))
        search = "search" if name in ("enumerated", "choice_end") else "match"
        old, new = getattr(_OLD[name], search)(text), getattr(_NEW[name], search)(text)
        assert _found(old) == _found(new) or _edge(name, old), repr(text)


def test_a_yes_no_question_ending_in_a_run_of_spaces_is_read_at_once() -> None:
    """"… or x" and the spaces: the choice's end was tried at every split of them between two optional runs."""
    assert within_deadline(lambda: verdict.is_yes_no(f"Is it improving or x{SPACES}!"), DEADLINE) is True


def test_a_definition_question_ending_in_a_run_of_spaces_is_read_at_once() -> None:
    assert within_deadline(lambda: question_types.defined_term(f"What is x{SPACES}and what is y!"), DEADLINE) is None
    assert question_types.defined_term("What is the policy engine?") == "policy engine"


def test_how_many_over_a_sentence_of_thousands_of_commas_is_counted_at_once() -> None:
    """A hostile document's sentence: "… consist of" and 60,000 commas, with no "and" to end the list."""
    named = "The reportable segments consist of " + "a, " * 60_000 + "!"
    assert within_deadline(lambda: enumerated_count("How many segments are there?", [Evidence(named, "n1")]),
                           DEADLINE) is None
    five = Evidence("The reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of "
                    "Asia Pacific.", "n2")
    answer = enumerated_count("How many segments are there?", [five])
    assert answer is not None and answer.text.startswith("There are 5 segments:")


@pytest.mark.parametrize("question", [
    f"What is the lighthouse{SPACES}and{SPACES}what is the keeper!",  # defined_term on the runs: hours
    f"Is the lighthouse built of stone or x{SPACES}!",
    f"What is the role of the keeper{SPACES}?",
])
def test_a_question_with_a_long_run_of_spaces_gets_an_answer_through_the_bank(question: str, tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(LIGHTHOUSE, "lighthouse.txt")
    answer = within_deadline(lambda: bank.run(question).answer, DEADLINE)
    assert answer.strip() and (is_not_found(answer) or "lighthouse" in answer.lower()), answer


REVENUE = ("Total revenues increased 7% in fiscal 2023 due primarily to growth in cloud services revenues. "
           "During fiscal 2022, management approved plans to further improve efficiencies in our operations.")


@pytest.mark.parametrize("question", ["Is it improving, and why?", "Why did it change?", "What drove the increase?"])
def test_a_change_question_naming_nothing_asks_what_it_is_about(question: str, tmp_path: Path) -> None:
    """It got "Yes." and the first sentence saying "improve" (a restructuring plan's): now the question is said to
    name nothing; one that names its subject is answered as before."""
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(REVENUE, "filing.txt")
    answer = bank.run(question).answer
    assert is_not_found(answer) and "does not say what it asks about" in answer, answer
    named = bank.run("Did total revenues increase in fiscal 2023, and why?").answer
    assert not is_not_found(named) and "cloud services" in named, named


class _Counting:
    """A pattern's stand-in that records how many characters each search is given."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.sizes = pattern, []

    def search(self, text: str) -> re.Match[str] | None:
        self.sizes.append(len(text))
        return self.pattern.search(text)


def test_a_long_question_of_capitalised_words_is_not_read_back_to_its_start_for_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Who is the chief financial officer? /s/ A B Director …" 50,000 characters long took minutes: whether each
    capitalised word opens a sentence was read off everything before it. Only the words just before it say so."""
    from memory_bank.engines.offline import specifics

    counting = _Counting(specifics._SENTENCE_END)
    monkeypatch.setattr(specifics, "_SENTENCE_END", counting)
    terms = specifics.specific_terms("Who is the chief financial officer? " + "/s/ Ab Cd Director " * 3000)
    assert terms and max(counting.sizes) <= 2 * specifics._LOOK_BACK
    assert specifics.specific_terms("Oracle says it invests in Oracle Cloud Infrastructure (OCI). Toward how many "
                                    "aims?") == ["Oracle", "Cloud", "Infrastructure", "OCI"]
