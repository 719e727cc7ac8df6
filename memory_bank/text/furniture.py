"""Document furniture: the parts of a document that are about the document, not about its subject.

A cover, a legal notice, a table of contents, an acronym list, an index or a reference list repeats the words of
the body (every section title, every term) without explaining anything, so it wins lexical retrieval for many
questions and answers none of them. Memory keeps it (deep retrieval shows it, a question about an acronym may
need it) but marks it, so ranking can put body text first and the graph can draw it quietly.

The rules are classical and engine-independent: they read the text a node was made from and where it sits in
its document. The text is cut into lines (PDF paragraphs are one line each); each line gets a role from its
shape (dot leaders, "[label] Author (year)", a run of ACRONYM expansion pairs, a heading such as "References",
notice wording on an early page); lines of a weak shape count only in a run of three; a furniture heading
carries its role to the lines after it; then the text takes the role that covers at least half of its
characters. Tuned on NIST SP 800-207, two GNU manuals (libtasn1, shared-mime-info) and the text samples, where no
body section is marked.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from enum import Enum


class Role(str, Enum):
    """What part of its document a node's text is: the body, or one kind of furniture."""

    BODY = "body"
    COVER = "cover"
    NOTICE = "notice"
    CONTENTS = "contents"
    ACRONYMS = "acronyms"
    INDEX = "index"
    REFERENCES = "references"

    @property
    def is_furniture(self) -> bool:
        return self is not Role.BODY


CAPITALS_SHARE = 0.6  # of a sentence's letters: set in capitals, a caption or a heading ("CONSOLIDATED STATEMENTS …")
CAPITALS_MIN_LETTERS = 20  # fewer letters are an acronym or a short name, not a caption


def in_capitals(text: str) -> bool:
    """A sentence set in capitals is a table's caption or a heading ("ORACLE CORPORATION CONSOLIDATED STATEMENTS
    OF STOCKHOLDERS' EQUITY …"): it names what follows and answers no question itself."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= CAPITALS_MIN_LETTERS and sum(c.isupper() for c in letters) >= CAPITALS_SHARE * len(letters)


NAME_RUN_WORDS = 20  # a sentence of this many words or more ...
NAME_RUN_SHARE = 0.75  # ... this share of them capitalised is a list of names, not prose
_NAME_WORD = re.compile(r"[(\"“]*[A-Z0-9]")


def name_run(text: str) -> bool:
    """A run of names read as one sentence: an exhibit's list of subsidiaries and their places of incorporation
    ("Name of Subsidiary Place of Incorporation Oracle America, Inc. Delaware Oracle International Corporation
    California …"). It says where each subsidiary is incorporated, not what a question about the company asks,
    and it matches a "where" question's words and type better than the sentence that answers it."""
    words = text.split()
    return len(words) >= NAME_RUN_WORDS and sum(bool(_NAME_WORD.match(w)) for w in words) >= NAME_RUN_SHARE * len(words)


def merged_role(roles: Iterable[Role]) -> Role:
    """A node merged from others is body if any of them was: body text must never be demoted by a merge."""
    roles = list(roles)
    return Role.BODY if not roles or Role.BODY in roles else roles[0]


_NUMBERING = r"(?:(?:appendix|annex|chapter|part|section)\s+[A-Z0-9]{1,3}\s*[.:—–-]?\s*|[A-Z0-9]{1,2}(?:\.\d+)*\.?\s+)?"
_HEADINGS = {
    Role.CONTENTS: r"(?:table of )?contents|list of (?:figures|tables|appendices|illustrations|exhibits)",
    Role.ACRONYMS: r"(?:list of |glossary of )?(?:acronyms|abbreviations)(?:,? (?:and|&) (?:acronyms|abbreviations"
                   r"|symbols|terms))?",
    Role.REFERENCES: r"references|bibliography|works cited|literature cited|cited works|further reading",
    Role.INDEX: r"(?:subject |author |name |general |concept |function (?:and data )?)?index",
    Role.NOTICE: r"(?:patent (?:disclosure )?|legal |copyright )?notices?|disclaimers?|copyright|trademarks?"
                 r"(?: information)?|copying(?: information)?|licen[cs]e|(?:gnu )?free documentation license",
}
# the list of a filing's exhibits, under its own heading or the item that holds it ("Item 15. Exhibit and Financial
# Statement Schedules", "ORACLE CORPORATION INDEX OF EXHIBITS")
_EXHIBIT_INDEX = re.compile(r"(?:item\s+\d{1,2}[a-z]?\.?\s+)?(?:[\w&.,'’]+\s+){0,4}?"
                            r"(?:(?:index|list) (?:of|to) exhibits|exhibits? index|"
                            r"exhibits?(?:\s*,|\s+and|\s+&)(?:\s+and)?\s+financial statement schedules)\s*:?",
                            re.IGNORECASE)
_HEADING = {role: re.compile(rf"#*\s*{_NUMBERING}(?:{names})\s*:?", re.IGNORECASE) for role, names in _HEADINGS.items()}
# a dot or ellipsis leader and the page number it leads to; an entry runs from the previous one's end to here
# (linear: a leader starts only where its run of dots starts and never gives dots back, so a long run of dots
# without a page number is one failed attempt, not one per dot)
# Each search pattern below opens with a lookahead on the characters its matches can start with: the same matches
# (checked over every code point, case-folding included), and the regex engine skips other characters at C speed
# (a book's paragraphs: about half the cost of telling them apart)
_LEADER = re.compile(r"(?=[.…])(?:(?<!\.)(?<!\.\s)(?:\.\s?){4,}+|(?<!…)(?<!…\s)(?:…\s?){2,}+)\s*"
                     r"(?:\d{1,4}|[ivxlcdm]{1,7})\b", re.IGNORECASE)
_NUMBERED_ENTRY = re.compile(r"\s*(?:\d|[A-Z]\.\d|appendix|annex|chapter|part|list of|figure|table)", re.IGNORECASE)
_TOC_LINE = re.compile(r"(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?|appendix\s+\w+[.:—–-]?)\s+.{2,100}?\s+"
                       r"(?:\d{1,4}|[ivxlc]{1,6})", re.IGNORECASE)
_MD_TOC_LINE = re.compile(r"\s*(?:[-*+]|\d+\.)\s*\[[^\]]+\]\(#[^)]*\)\s*")
# (a table row, "Hardware | approximate employee counts: 3,000", is none: its comma separates thousands)
_INDEX_LINE = re.compile(r"[^\W\d][^,\n|]{0,60}(?<!\d),\s*\d{1,4}(?:[-–]\d{1,4})?(?:,\s*\d{1,4}(?:[-–]\d{1,4})?)*\.?")
_YEAR = re.compile(r"\b(?:1[6-9]|20)\d\d[a-z]?\b")
_URL = re.compile(r"(?=[hfwd])(?:https?://|ftp://|www\.|doi:\s?|doi\.org/)\S+", re.IGNORECASE)
_REF_LABEL = re.compile(r"\s*\[[^\]\n]{1,30}\]\s*\S")
_REF_AUTHOR = re.compile(r"\s*(?:\d{1,3}[.)]\s+)?[A-Z][\w'’\-]+,?\s+(?:[A-Z]{1,3}|(?:[A-Z]\.\s?){1,3})\s*[,.(]")
_REF_VENUE = re.compile(r"\bpp?\.\s?\d|\bvol\.|\bproceedings\b|\bjournal\b|\bpress\b|\bpublish", re.IGNORECASE)
_ACRONYM = re.compile(r"[A-Z][A-Za-z0-9&/\-]{1,11}")
_SMALL = frozenset({"of", "and", "the", "for", "to", "in", "on", "a", "an", "or", "with", "by", "as", "at", "via"})
# Notice wording: one of these on an early page makes a notice; elsewhere it takes three notice words in a line
# (a licence text in an appendix). "license" alone is no notice: an introduction says what licence software has.
_NOTICE = re.compile(r"\bpatent (?:claims?|holders?|infringement|search|disclosure)\b|\bcopyright\b|©|\(c\)\s*(?:19|20)"
                     r"\d\d|\ball rights reserved\b|\btrademarks?\b|\bdisclaim(?:er|ers|s|ed)?\b|\b(?:not intended "
                     r"to|does not) imply (?:a )?(?:recommendation|endorsement)\b|\bpermission is granted to\b|"
                     r"\bwithout (?:any )?warranty\b|\bno representation is made\b", re.IGNORECASE)
# A word every notice phrase above holds, matched under the same rules: where none is, the slow search is skipped
# (it was half the cost of telling a book's paragraphs apart)
_NOTICE_WORD = re.compile(r"(?=[pc©(rtdiw])(?:patent|copyright|©|\(c\)|rights reserved|trademark|disclaim|imply|"
                          r"permission|warranty|representation)", re.IGNORECASE)
# kinds of rights named in a list ("patents, designs, copyrights, trademarks, trade secrets", "patent, design,
# copyright and trademark applications"): a filing's business prose about what it owns, no notice of rights
_RIGHT = r"(?:patents?|designs?|copyrights?|trademarks?|trade\s+secrets?)"
_RIGHTS_RUN = re.compile(rf"\b{_RIGHT}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){_RIGHT}\b)+", re.IGNORECASE)


def _rights_listed(text: str) -> str:
    """The text without runs naming two kinds of rights or more; "registered trademarks or trademarks belong to
    their respective organizations" names one kind, and stays."""
    def kinds(match: re.Match[str]) -> str:
        named = {w.lower().rstrip("s")[:5] for w in re.findall(r"[A-Za-z]+", match.group(0)) if w.lower() not in
                 ("and", "or", "secret", "secrets")}
        return " " if len(named) >= 2 else match.group(0)
    return _RIGHTS_RUN.sub(kinds, text)


_LICENSE = re.compile(r"\blicen[cs](?:e[sd]?|ing)\b", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})", re.IGNORECASE)

_WEAK_RUN = 3  # a weak line shape counts only among this many of the same in a row
_SHARE = 0.5  # the share of a text's characters a furniture role must cover to mark it
_COVER_WORDS = 150  # a cover page holds at most this many words, none of them in a prose paragraph
_PROSE_WORDS = 15


def _is_acronym(word: str) -> bool:
    return bool(_ACRONYM.fullmatch(word)) and sum(c.isupper() for c in word) >= 2


def section_role(title: str) -> Role | None:
    """The furniture a section is by its heading ("TABLE OF CONTENTS", "References", "Index", a filing's index of
    exhibits): a line read under it points elsewhere or lists, whatever its own shape ("Apple Inc. Form 10-K For the
    Fiscal Year Ended September 24, 2022 TABLE OF CONTENTS Part I" is body text by its shape; "S-8 4.1 8/23/18
    10.1* Employee Stock Purchase Plan …" names a document filed elsewhere, it says nothing of employees)."""
    line = " ".join(title.split())
    return Role.CONTENTS if _EXHIBIT_INDEX.fullmatch(line) else _heading_role(line)


def in_furniture_section(section: Sequence[str]) -> bool:
    """Is a passage read under a furniture heading at any level of its section path (an index of exhibits, a
    table of contents): what it says points elsewhere, whatever its own shape."""
    return any(section_role(title) for title in section)


def _heading_role(line: str) -> Role | None:
    if len(line.split()) > 8:
        return None
    return next((role for role, pattern in _HEADING.items() if pattern.fullmatch(line)), None)


def _leader_share(line: str) -> float:
    """The share of the line in leader entries ("Introduction ........ 4"), in one linear pass (a lazy
    `.*?leader` searched from every position was quadratic: minutes on one 60 kB line)."""
    return sum(len(entry) for entry in _leader_entries(line)) / max(1, len(line))


def _leader_entries(text: str) -> list[str]:
    """Each leader entry: from the previous entry's end (or the start of its own line) to its page number."""
    entries, end = [], 0
    for match in _LEADER.finditer(text):
        start = max(end, text.rfind("\n", end, match.start()) + 1)
        entries.append(text[start:match.end()])
        end = match.end()
    return entries


def _acronym_dense(words: list[str]) -> bool:
    """A flattened acronym list: many ACRONYMS, expansions in Title Case, hardly a lower-case word (a table of
    upper-case field names has acronyms but no Title Case)."""
    if len(words) < 10:
        return False
    bare = [w.strip("(),;:") for w in words]
    # cheapest test first: prose fails it, and every paragraph of a document is asked (counted only until it fails)
    lower, most = 0, 0.12 * len(words)
    for w in bare:
        if w[:1].islower() and w.lower() not in _SMALL:
            lower += 1
            if lower > most:
                return False
    if sum(w[:1].isupper() and w[1:].islower() for w in bare) < 0.3 * len(words):
        return False
    return sum(_is_acronym(w) for w in bare) >= 0.2 * len(words)


def _acronym_pair(words: list[str]) -> bool:
    return 2 <= len(words) <= 12 and _is_acronym(words[0].rstrip(":=–-")) and not words[-1].endswith(".")


def _reference(line: str) -> bool:
    if not _YEAR.search(line):
        return False
    if _REF_LABEL.match(line):
        return True
    return bool(_REF_AUTHOR.match(line)) and bool(_URL.search(line) or _REF_VENUE.search(line))


def _url_dense(line: str, words: list[str]) -> bool:
    urls = len(_URL.findall(line))
    return urls >= 3 and len(words) <= 15 * urls


class _Line:
    """One line of text with the role its shape says, how sure that is, and its size."""

    def __init__(self, text: str, early: bool) -> None:
        self.text, self.size = text, len(text)
        self.heading = _heading_role(text)
        self.role, self.strong, self.neutral = self._classify(early)

    def _classify(self, early: bool) -> tuple[Role, bool, bool]:
        text, words = self.text, self.text.split()
        if self.heading is not None:
            return self.heading, True, False
        if _URL.fullmatch(text) or _PAGE_NUMBER.fullmatch(text):
            return Role.BODY, False, True  # a wrapped URL or a page number: it belongs to the lines around it
        if _leader_share(text) >= 0.6:
            return Role.CONTENTS, True, False
        if _reference(text) or _url_dense(text, words):
            return Role.REFERENCES, True, False
        if _acronym_dense(words):
            return Role.ACRONYMS, True, False
        notices = len(_NOTICE.findall(_rights_listed(text))) if _NOTICE_WORD.search(text) else 0
        if notices and (early or notices + len(_LICENSE.findall(text)) >= 3):
            return Role.NOTICE, True, False
        for role, shape in ((Role.CONTENTS, _TOC_LINE), (Role.CONTENTS, _MD_TOC_LINE), (Role.INDEX, _INDEX_LINE)):
            if shape.fullmatch(text):
                return role, False, False
        if _acronym_pair(words):
            return Role.ACRONYMS, False, False
        return Role.BODY, True, False

    @property
    def heading_like(self) -> bool:
        """A short line without a sentence end: a section title, which ends what a furniture heading began."""
        first = self.text[:1]
        return len(self.text.split()) <= 10 and not self.text.endswith((".", ",", ";")) and (first.isupper()
                                                                                             or first.isdigit())


def _resolve(lines: list[_Line], late: bool) -> None:
    """Weak shapes outside a run, neutral lines, headings' reach and late leader lists settled in place."""
    lone = [i for i, line in enumerate(lines) if not line.strong and not line.neutral and not _in_run(lines, i)]
    for i in lone:
        lines[i].role = Role.BODY
    current: Role | None = None
    for line in lines:
        if line.heading is not None:
            current = line.heading
        elif line.role is Role.BODY and not line.neutral and line.heading_like:
            current = None
        elif current is not None and line.role in (Role.BODY, Role.CONTENTS):
            line.role = current  # under "Index" a leader list is an index; under "Copyright" the holder's line
    if late:
        for line in lines:
            if line.role is Role.CONTENTS and line.heading is None and _unnumbered(line.text):
                line.role = Role.INDEX
    _fill_neutral(lines)


def _in_run(lines: list[_Line], i: int) -> bool:
    """Is line i one of `_WEAK_RUN` consecutive weak lines of the same shape?"""
    same = [not x.strong and not x.neutral and x.role is lines[i].role for x in lines]
    for start in range(max(0, i - _WEAK_RUN + 1), i + 1):
        if start + _WEAK_RUN <= len(lines) and all(same[start:start + _WEAK_RUN]):
            return True
    return False


def _unnumbered(text: str) -> bool:
    """Leader entries that are mostly terms, not numbered sections: an index rather than a table of contents."""
    # flattened entries start with the previous entry's page number: "23 asn1_copy_node . . . 11"
    entries = [re.sub(r"^\s*\d{1,4}\s+(?=\S)", "", e) for e in _leader_entries(text)]
    return bool(entries) and sum(bool(_NUMBERED_ENTRY.match(e)) for e in entries) < 0.3 * len(entries)


def _fill_neutral(lines: list[_Line]) -> None:
    """A neutral line takes the role of the line before it, or at the start, of the first line after it."""
    roles = [None if line.neutral else line.role for line in lines]
    first = next((r for r in roles if r is not None), Role.BODY)
    previous = first
    for line, role in zip(lines, roles):
        previous = role or previous
        line.role = previous


def _normalise(text: str) -> str:
    return " ".join(text.split())


class FurnitureDetector:
    """Knows one document's pages (how many, which are covers, which come early) and gives any piece of its
    text a role. Built once per document; `role` is cheap and pure."""

    def __init__(self, pages: list[tuple[int | None, str]]) -> None:
        self.numbered = {number: text for number, text in pages if number is not None}
        self.page_count = len(self.numbered)
        self.full_text = "" if self.page_count else _normalise("\n".join(text for _, text in pages))
        # cover pages joined: the page-break join of paragraphs can put a cover's last line beside the next page's first
        self.cover_text = " ".join(_normalise(self.numbered[n]) for n in sorted(self.numbered)[:2] if self._is_cover(n))

    def _is_cover(self, number: int) -> bool:
        """A first (or, after a cover, second) page of a document of some length with little text and no prose."""
        if self.page_count < 4 or number > 2 or (number == 2 and not self._is_cover(1)):
            return False
        text = self.numbered.get(number, "")
        paragraphs = [p for p in text.split("\n") if p.strip()]
        return (0 < len(text.split()) <= _COVER_WORDS
                and not any(len(p.split()) >= _PROSE_WORDS and p.rstrip().endswith(".") for p in paragraphs))

    def early(self, text: str, page: int | None) -> bool:
        """Front matter: the first pages (15% of the document, at least 3, at most 12), or for text without
        pages the first 10% of it (at least 3,000 characters)."""
        if page is not None and self.page_count:
            return page <= min(12, max(3, math.ceil(0.15 * self.page_count)))
        start = self.full_text.find(_normalise(text)[:80])
        return 0 <= start <= max(3000, 0.1 * len(self.full_text))

    def late(self, page: int | None) -> bool:
        return page is not None and self.page_count >= 4 and page > 0.75 * self.page_count

    def role(self, text: str, page: int | None = None) -> Role:
        """The role of `text` (a node's source text) starting on `page` of this document."""
        early = self.early(text, page)
        lines = [_Line(line, early) for line in (x.strip() for x in text.split("\n")) if line]
        if not lines:
            return Role.BODY
        _resolve(lines, self.late(page))
        sizes: dict[Role, int] = {}
        for line in lines:
            sizes[line.role] = sizes.get(line.role, 0) + line.size
        furniture = {role: size for role, size in sizes.items() if role.is_furniture}
        total = sum(sizes.values())
        if furniture and sum(furniture.values()) >= _SHARE * total:
            return max(furniture, key=lambda role: (furniture[role], role.value))
        return Role.COVER if self._on_cover(lines) else Role.BODY

    def _on_cover(self, lines: list[_Line]) -> bool:
        """Most of the text (by characters, page numbers aside) is words of the cover pages."""
        text = [line for line in lines if not line.neutral]
        if not self.cover_text or not text:
            return False
        found = sum(line.size for line in text if f" {_normalise(line.text)} " in f" {self.cover_text} ")
        return found >= 0.8 * sum(line.size for line in text)
