"""Who holds an office a filing's signature page names: "Who is Apple's principal accounting officer?", "Who chairs
the board?", "Who are Oracle's directors?".

A 10-K ends with the people who signed it, each with the capacity they signed in ("/s/ Chris Kondo Senior Director
of Corporate Accounting (Principal Accounting Officer) October 27, 2022 CHRIS KONDO"). Its prose rarely says who
holds those offices, so the ranked sentences answered with a sentence that only used the words ("… the Company's
principal executive officer and principal financial officer have concluded …"). The signature lines are read into
(name, capacity) pairs; a "who" question naming an office is answered by the signers whose capacity says every
distinctive word of it (a vice-chair is no chair), cited at the signature page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ...retrieval.view import MemoryView, Passage
from ...text.tokens import stems
from .answering import Answer
from .evidence import Evidence, passage_evidence
from .nlp import MONTHS
from .question_types import asks_who

SEARCHED = 12  # passages searched for signature lines
MAX_SIGNERS = 40  # a signature page read at most this long
MAX_LISTED = 16  # signers named in one answer
MAX_NAME_WORDS = 5
MAX_TITLE_WORDS = 18
DATE_WORDS = 3  # "October 27, 2022" right after the capacity: the date it was signed
# the words of an office; a question names one with them ("principal accounting officer", "chair of the board")
_OFFICE = frozenset(stems("chief executive financial accounting technology operating legal officer principal chair "
                          "board director directors president secretary treasurer controller counsel general vice "
                          "deputy assistant senior lead independent"))
_GENERIC = frozenset(stems("chief officer senior"))  # "Who is the chief officer?" names no office alone
_LESSER = frozenset(stems("vice deputy assistant"))  # a vice-chair is not the chair: said only when asked
# the word naming who holds an office: a question naming none ("accounting firm") asks about no signer
_HOLDERS = frozenset(stems("officer chair director president secretary treasurer controller counsel"))
_PIECES = re.compile(r"[,()]")  # "Senior Vice President, Chief Financial Officer (Principal Financial Officer)"
_HEAD_OF = re.compile(r"\bdirector\s+of\b", re.IGNORECASE)
_CHAIR_STEM = frozenset(stems("chair"))
_BOARD = frozenset(stems("board"))
_DIRECTOR = frozenset(stems("director"))
_HEADS = frozenset(stems("chair president"))  # the offices a vice- or deputy holder does not hold
_CHAIR = re.compile(r"\bchair(?:man|woman|person|s|ed)?\b", re.IGNORECASE)
_SHORT = {"ceo": "chief executive officer", "cfo": "chief financial officer", "cto": "chief technology officer",
          "coo": "chief operating officer", "cao": "chief accounting officer", "clo": "chief legal officer"}
_SHORT_RE = re.compile(r"\b(?:" + "|".join(_SHORT) + r")s?\b", re.IGNORECASE)
_TITLE_WORD = re.compile(r"\b(?:Officer|Director|Chair(?:man|woman|person)?|President|Secretary|Treasurer|"
                         r"Controller|Counsel)\b")
_DATE = re.compile(r"\b(?:" + "|".join(m.capitalize() for m in MONTHS) + r")\s+\d{1,2},\s+(?:19|20)\d\d\b")
_NAME_TOKEN = re.compile(r"^(?:[A-Z][a-zà-ÿ'’\-]+|[A-Z]\.|I{2,3}|IV|Jr\.?|Sr\.?)$")
_CONNECTIVE = frozenset({"of", "the", "and", "&", "for"})
_TITLE_START = frozenset({"Chief", "Senior", "Executive", "Vice", "President", "Director", "Chair", "Chairman",
                          "Chairwoman", "Chairperson", "Principal", "General", "Corporate", "Treasurer", "Secretary",
                          "Controller", "Lead", "Independent", "Deputy", "Assistant"})


@dataclass(frozen=True)
class Signer:
    name: str
    title: str
    date: str
    passage: Passage

    def offices(self) -> list[frozenset[str]]:
        """The offices of the capacity, each as its words: "Executive Vice President, Chief Accounting Officer"
        holds two, neither of them chief executive officer. "Senior Director of Corporate Accounting" heads a
        function (a board's director signs as "Director")."""
        title = _HEAD_OF.sub("head of", _CHAIR.sub("chair", self.title))
        return [frozenset(stems(piece)) & _OFFICE for piece in _PIECES.split(title)]


def asked_office(question: str) -> frozenset[str]:
    """The office a "who" question names, as stems of its words (CEO and the like written out); empty when it
    names none."""
    if not asks_who(question):
        return frozenset()
    written = _SHORT_RE.sub(lambda m: _SHORT[m.group(0).lower().rstrip("s")], question)
    office = frozenset(stems(_CHAIR.sub("chair", written))) & _OFFICE
    # "Who sits on the board (of directors)?" asks for its directors; "Who chairs the board?" for its chair
    return office if _CHAIR_STEM <= office else office - _BOARD | (_DIRECTOR if office & _BOARD else frozenset())


def signers(texts: Iterable[str], passage: Passage) -> list[Signer]:
    """The (name, capacity) pairs of the "/s/" lines of a signature page's text; a firm's signature (no office
    named) is left out."""
    found: list[Signer] = []
    for segment in " ".join(texts).split("/s/")[1:MAX_SIGNERS + 1]:
        tokens = segment.split()
        name = []
        while tokens and len(name) < MAX_NAME_WORDS and tokens[0] not in _TITLE_START \
                and _NAME_TOKEN.match(tokens[0].rstrip(",")) and not (len(name) > 1 and tokens[0] == name[0]):
            name.append(tokens.pop(0).rstrip(","))
        if len(name) < 2:
            continue
        if tokens[:len(name)] == name:  # "By: /s/ Luca Maestri Luca Maestri Senior Vice President, …"
            del tokens[:len(name)]
        rest = " ".join(tokens[:MAX_TITLE_WORDS + DATE_WORDS])
        date = _DATE.search(rest)
        title_words: list[str] = []
        for token in (rest[:date.start()] if date else rest).split()[:MAX_TITLE_WORDS]:
            bare = token.strip("(),")
            if bare.isupper() and len(bare) > 3 or not (bare[:1].isupper() or bare in _CONNECTIVE):
                break  # the name again in capitals ("CHRIS KONDO"), or running prose
            title_words.append(token)
            if token.endswith(")"):  # "(Principal Accounting Officer)" closes the capacity
                break
        title = " ".join(title_words).rstrip(",")
        if _TITLE_WORD.search(title):
            dated = date is not None and len(rest[:date.start()].split()) <= len(title_words) + 1
            found.append(Signer(" ".join(name), title, date.group(0) if dated and date else "", passage))
    return found


class SignedRoles:
    """Answers "who is the <office>?" from the signature pages of the task's filings."""

    def __init__(self, view: MemoryView) -> None:
        self.view = view

    def run(self, question: str) -> Answer | None:
        """The signers holding the office the question names, cited at their signature page; None when it names
        no office, or no signature page names one with every distinctive word of it."""
        office = asked_office(question)
        if not office - _GENERIC or not office & _HOLDERS:
            return None  # "Which accounting firm audits Apple?" names no office, only a word of one
        named = [s for s in self._signers(question) if any(_holds(held, office) for held in s.offices())]
        if not named:
            return None
        first = named[0]
        signed = f" on {first.date}" if first.date else ""
        if len(named) == 1:
            text = f"{first.name}, who signed the filing as {first.title}{signed}"
        else:  # each signer's filing named when the task holds several
            files = len({s.passage.source for s in named}) > 1
            text = (f"{'The filings were signed' if files else 'The filing was signed' + signed} by {len(named)} "
                    "holders of that office: "
                    + "; ".join(f"{s.name}, {s.title}" + (f" ({s.passage.source})" if files else "")
                                for s in named[:MAX_LISTED]))
        used = list({s.passage.entry_id: _evidence(s) for s in named}.values())
        return Answer(text, used, 1.0)

    def _signers(self, question: str) -> list[Signer]:
        """The signers of every filing with signature lines, one filing's when the question names its file
        ("Apple" of APPLE_2022_10K.pdf); each person once, with the longest capacity they signed in."""
        passages = [p for p in self.view.search_passages("/s/ signature Director Officer Principal Chair Board",
                                                         SEARCHED) if "/s/" in p.text]
        asked = set(stems(question))
        mine = [p for p in passages if asked & set(stems(re.sub(r"[_\W]+", " ", p.source)))]
        best: dict[str, Signer] = {}
        for passage in sorted(mine or passages, key=lambda p: (p.source, p.page_start or 0)):
            for s in signers(self._texts(passage), passage):
                key = s.name.casefold()
                if key not in best or (bool(s.date), len(s.title)) > (bool(best[key].date), len(best[key].title)):
                    best[key] = s
        return list(best.values())

    def _texts(self, passage: Passage) -> list[str]:
        """The texts of the passage's section on its page, in reading order: a capacity the text cut into the
        next entry ("/s/ Timothy D. Cook" | "Chief Executive Officer and Director …") is read whole."""
        if not passage.section:
            return [passage.text]
        entries = [e for node in self.view.in_section(passage.section) for e in self.view.entries_for(node.id)
                   if e.metadata.get("page_start") == passage.page_start]
        return [e.text for e in {e.entry_id: e for e in entries}.values()] or [passage.text]


def _holds(held: frozenset[str], asked: frozenset[str]) -> bool:
    """Does a capacity hold the office asked? Every distinctive word of it said, and a vice-chair or vice
    president no chair or president unless asked so (a vice-chair of the board is still one of its directors)."""
    lesser = asked & _HEADS and (held & _LESSER) - asked
    return asked <= held and not lesser


def _evidence(s: Signer) -> Evidence:
    return passage_evidence(f"/s/ {s.name} {s.title}", s.passage)
