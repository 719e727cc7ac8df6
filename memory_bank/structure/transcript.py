"""Conversations pasted as text: "Name: text" turns, optionally in dated sessions.

A conversation cut like prose loses who said what and when: a 200-word window starts mid-turn, and the session
date sits lines above the turn that a "when did ..." question needs. Read as a transcript, every turn is a unit
chunking never cuts (its speaker kept in its text, "Caroline: I went to ..."), and every session is a section
whose title carries its date as written ("Session 3 (8 May 2023)"), so each node made from a turn cites the
session and its date. A Markdown heading among the turns ("## Item 2: Office leases" in chat-style minutes)
opens a section of its own.

Recognition is deliberately conservative, because a document misread as a conversation loses its lists and
tables:
enough lines must open with a name and a colon, at least two names must speak more than once, such lines must
make up most of the text, and document labels ("Note:", "Budget:", "Present:") never count as speakers.
Everything is one pass over the lines, and a giant turn is cut into pieces of bounded size, so a 5 MB paste
or 100,000 turns cost linear time.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .model import DocStructure, Section, Unit

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE = re.compile(rf"\b(?:\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}"
                   rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})",
                   re.IGNORECASE)
_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’.\-]{0,24}(?:[ \t][A-Z0-9À-ÖØ-Þ][\w'’.\-]{0,24}){0,2}"
# "Caroline: text", "**Caroline:** text", "- Caroline: text", "[10:32] Caroline: text"
_TURN = re.compile(rf"^[ \t]*(?:[-*>][ \t]+)?(?:\[?\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:[ \t]*[AaPp]\.?[Mm]\.?)?\]?[ \t]+)?"
                   rf"(?:\*\*|__)?(?P<name>{_NAME})(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+(?P<text>\S.*)$")
# "Session 3 — 8 May 2023", "## Session 3 (May 8, 2023)", "Session 3: 1:56 pm on 8 May, 2023", "Session 3"
_SESSION = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+)?[*_]*session[ \t]+(?P<number>\d{1,6})[*_]*"
                      r"(?P<rest>(?:[ \t]*[—–\-:,|(\[].*)?)$", re.IGNORECASE)
_DECORATION = " \t\r-–—=*_#|:,()[]"
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(?P<title>.+?)[ \t#]*$")
_DATE_PREFIX = re.compile(r"^(?:date|session date|day)[ \t]*:[ \t]*", re.IGNORECASE)
# What may stand beside a date on a line of its own: a weekday, a time, "at", "on" ("1:56 pm on 8 May, 2023").
_DATE_FILLER = re.compile(r"(?:[\s,.]|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:at|on)\b"
                          r"|\b\d{1,2}(?::\d{2}){1,2}(?:\s*[ap]\.?m\.?)?|\b\d{1,2}\s*[ap]\.?m\.?)*", re.IGNORECASE)
# Labels of documents, forms and e-mails: a line "Note: ..." is never a turn, however often it recurs.
_LABELS = frozenset("""
a abstract action actions address agenda answer answers args attendees author background budget caution cc bcc
category chair comment comments conclusion cons cost date deadline decision decisions definition description
duration email example examples figure fix from goal goals important input ingredients issue item location
method minutes name note notes objective output owner parameters phone present price priority problem pros q
question questions re reference references result results returns role solution source sources status step
subject subtotal summary table tip title to topic total type update version warning
""".split())


@dataclass(frozen=True)
class TranscriptLimits:
    """`min_turns`/`min_share`: how much of the text must be turns of recurring speakers (a share of its lines,
    or of its blank-line paragraphs when turns are wrapped); `max_speakers`: more recurring names than this is a
    glossary or a form, not a conversation; `max_turn_chars`: a longer turn is cut into pieces this long (at a
    sentence end or a space), so chunking never meets a 5 MB paragraph."""

    min_turns: int = 4
    min_share: float = 0.5
    min_words: float = 3.0  # mean words per turn: form fields ("Role: chair") are shorter
    max_speakers: int = 12
    max_turn_chars: int = 8_000


def read_transcript(text: str, limits: TranscriptLimits | None = None) -> DocStructure | None:
    """The text as turns in sessions, or None when it does not read as a conversation."""
    limits = limits or TranscriptLimits()
    lines = text.splitlines()
    speakers = _speakers(lines, limits)
    if speakers is None:
        return None
    reader = _Reader(speakers, limits)
    for line in lines:
        reader.add(line)
    return reader.finish()


def session_header(line: str) -> tuple[int, str | None] | None:
    """(number, date as written) when the line opens a session: "Session 3 — 8 May 2023" or "Session 3"; a
    date standing alone ("--- 2023-05-08 ---", "[1:56 pm on 8 May, 2023]") is `bare_date`'s."""
    if len(line) > 120:
        return None
    match = _SESSION.match(line)
    if match is None:
        return None
    rest = match.group("rest").strip(_DECORATION)
    return int(match.group("number")), (rest if _DATE.search(rest) else None)


def bare_date(line: str) -> str | None:
    """The date of a line that is nothing but a (decorated) date, as written."""
    if len(line) > 120:
        return None
    bare = _DATE_PREFIX.sub("", line.strip(_DECORATION)).strip(_DECORATION)
    found = _DATE.search(bare)
    if found is None or not _DATE_FILLER.fullmatch(bare[:found.start()] + " " + bare[found.end():]):
        return None
    return bare


def _turn(line: str) -> re.Match[str] | None:
    """A "Name: text" line whose name is not a document label."""
    match = _TURN.match(line)
    return match if match is not None and match.group("name").lower() not in _LABELS else None


def _speakers(lines: list[str], limits: TranscriptLimits) -> set[str] | None:
    """The recurring speakers, or None when the text is not a conversation."""
    counts: Counter[str] = Counter()
    words = content = 0
    openers: list[str | None] = []  # the speaker (or None) opening each blank-line paragraph
    previous_blank = True
    for line in lines:
        if not line.strip() or session_header(line) is not None:
            previous_blank = True
            continue
        match = _turn(line)
        name: str | None = match.group("name") if match else None
        if match is not None and name is not None:  # the pattern's name group always takes part in a match
            counts[name] += 1
            words += len(match.group("text").split())
        elif bare_date(line) is not None:
            previous_blank = True
            continue
        content += 1
        if previous_blank:
            openers.append(name)
        previous_blank = False
    recurring = {name for name, count in counts.items() if count >= 2}
    turns = sum(counts[name] for name in recurring)
    if len(recurring) < 2 or len(recurring) > limits.max_speakers or turns < limits.min_turns:
        return None
    if words / sum(counts.values()) < limits.min_words:
        return None
    line_share = turns / content
    block_share = sum(name in recurring for name in openers) / max(1, len(openers))
    return recurring if max(line_share, block_share) >= limits.min_share else None


@dataclass
class _Turn:
    speaker: str
    lines: list[str] = field(default_factory=list)


class _Reader:
    """One pass over the lines: sessions open sections, a recurring speaker's line opens a turn, any other
    line continues the open turn (or, before the first turn, is a paragraph of its own)."""

    def __init__(self, speakers: set[str], limits: TranscriptLimits) -> None:
        self.speakers, self.limits = speakers, limits
        self.sections: list[Section] = []
        self.units: list[Unit] = []
        self.turn: _Turn | None = None
        self.loose: list[str] = []  # lines outside any turn, kept as a paragraph
        self.names: list[str] = []  # each section's title without its date ("Session 3", "Day one")
        self.turns_in_session = 0

    @property
    def session(self) -> Section | None:
        return self.sections[-1] if self.sections else None

    def add(self, line: str) -> None:
        if not line.strip():
            return
        header = session_header(line)
        if header is not None:
            self._header(f"Session {header[0]}", header[1])
            return
        match = _turn(line)
        if match is not None and match.group("name") in self.speakers:
            self._flush()
            self.turn = _Turn(match.group("name"), [line.strip()])
            self.turns_in_session += 1
            return
        date = bare_date(line) if match is None else None
        heading = _HEADING.match(line) if match is None and date is None else None
        if date is not None:
            self._header(None, date)
        elif heading is not None:
            self._header(" ".join(heading.group("title").split()), None)
        elif self.turn is not None:
            self.turn.lines.append(line.strip())
        else:
            self.loose.append(line.strip())

    def _header(self, name: str | None, date: str | None) -> None:
        """A bare date (`name` None) right after a header that had none dates that section ("Session 3", then
        "8 May 2023"); otherwise a header opens a new section: a session ("Session N", numbered in reading
        order when the text does not number it) or a Markdown heading's title."""
        self._flush()
        current = self.session
        if name is None and current is not None and current.date is None and self.turns_in_session == 0:
            self.sections[-1] = _section(current.id, self.names[-1], date)
            return
        self.names.append(name if name is not None else f"Session {len(self.sections) + 1}")
        self.sections.append(_section(f"s{len(self.sections) + 1}", self.names[-1], date))
        self.turns_in_session = 0

    def _flush(self) -> None:
        session = self.session
        section, date = (session.id, session.date) if session else (None, None)
        if self.loose:
            self.units.append(Unit("paragraph", "\n".join(self.loose), section))
            self.loose = []
        turn, self.turn = self.turn, None
        if turn is None:
            return
        for piece in _pieces("\n".join(turn.lines), self.limits.max_turn_chars):
            self.units.append(Unit("turn", piece, section, speaker=turn.speaker, date=date))

    def finish(self) -> DocStructure:
        self._flush()
        return DocStructure("transcript", self.sections, self.units)


def _section(section_id: str, name: str, date: str | None) -> Section:
    title = f"{name} ({date})" if date else name
    return Section(id=section_id, title=title, level=1, parent=None, path=(title,), date=date)


def _pieces(text: str, limit: int) -> list[str]:
    """A turn cut into pieces of at most `limit` characters, at the last sentence end or space before it."""
    pieces: list[str] = []
    start = 0
    while len(text) - start > limit:
        window = text[start:start + limit]
        cut = max(window.rfind(". "), window.rfind("! "), window.rfind("? "))
        cut = cut + 1 if cut > limit // 2 else window.rfind(" ")
        cut = cut if cut > 0 else limit
        pieces.append(text[start:start + cut].strip())
        start += cut
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]
