""""How many X": the thing counted, and the sentences that count it.

A "how many employees" question is answered by a sentence that puts a number before the noun ("approximately
164,000 full-time employees"), not by one that repeats "employees" beside some other figure ("$198 million of
contributions for employees in fiscal 2023"), nor by one that says "many". Word matching alone rewards the
latter, so a count question's word "many" is replaced by a mark, `#n:<stem>`, which a sentence carries for each
word that follows one of its numbers closely: the same idf-weighted coverage then favours the counting sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .tokens import stem, tokenize

_COUNT_Q = re.compile(r"\bhow many ([\w'’\-]+)(?:\s+([\w'’\-]+))?", re.IGNORECASE)
# words after "how many" that are not what is counted ("how many total yards"), or that a sentence rarely
# repeats when it counts them ("how many people" / "7,000 inhabitants")
NOT_COUNTED = frozenset({"total", "more", "other", "different", "additional", "separate", "new", "times", "years",
                         "people", "major", "main", "former", "of", "in", "did", "does", "do", "were", "was", "are",
                         "is", "have", "has",
                         # units, which a sentence abbreviates or joins to its number ("382 kg", "a 16-yard run")
                         "yards", "miles", "kilometres", "kilometers", "meters", "metres", "feet", "tons", "tonnes",
                         "kgs", "kilograms", "pounds", "days", "hours", "minutes", "seconds", "months", "weeks"})
_MODIFIERS = frozenset({"total", "more", "other", "different", "additional", "separate", "new", "major", "main",
                        "former"})
# the wh-phrase's quantity word: a sentence saying "many" or "much" is not the better answer for it
_QUANTITY_WORDS = frozenset({"many", "much"})
_HOW_QUANTITY = re.compile(r"\bhow (?:many|much)\b", re.IGNORECASE)
_NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                 "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|"
                 "thousands|millions|billions|dozens?|several")
_YEAR = r"(?:1[5-9]|20)\d\d(?![\d]|[,.]\d)"
_COUNT = re.compile(rf"(?<![\w$€£.,])(?:(?!{_YEAR})\d[\d,]*(?:\.\d+)?(?![\d,]*(?:\.\d+)?\s*(?:%|percent|per cent))"
                    rf"|\b(?:{_NUMBER_WORDS})\b)(?:\s+(?:million|billion|thousand|hundred))?", re.IGNORECASE)
# a number naming what it follows, not counting what comes after it: "TIC 3.0 defines specific use cases",
# "Section 4 describes three models", "NIST SP 800-207"
_DESIGNATED = re.compile(r"(?:\b[A-Z]{2,}[a-z]?|\b(?:Figure|Table|Section|Appendix|Chapter|Version|Release|Revision|"
                         r"Item|Part|Exhibit|Note|Step|Phase|Level|Tier|Article|Rule|Title|Volume|No\.))\s$")
_NUMERIC = re.compile(rf"^(?:\d[\d.,]*|{_NUMBER_WORDS}|million|billion|thousand|hundred)$")
REACH = 3  # a number counts the words at most this many tokens after it (stopwords left out)
MARK = "#n:"
# a quantity that says "a number of" without giving it ("several policies", "dozens of regions", "thousands of
# users"): it answers "roughly how many" but not "how many", which asks for the number
_VAGUE = re.compile(r"^(?:several|dozens|hundreds|thousands|millions|billions)$", re.IGNORECASE)
# a question that asks for no exact number: "Roughly how many …?", "How many, approximately, …?"
_VAGUE_Q = re.compile(r"\b(?:roughly|approximately|about|around|some|estimated|nearly|almost)\s+how many\b|"
                      r"\bhow many\b[^?]*\b(?:roughly|approximately|more or less|or so)\b", re.IGNORECASE)
_HEAD_WORDS = 3  # the counted phrase: at most this many words after "how many" ("public cloud regions")
_PHRASE_END = re.compile(r"^(?:of|in|on|at|for|to|by|with|from|that|which|who|did|does|do|were|was|are|is|have|"
                         r"has|had|will|would|can|could|should|might|must|exist|there)$")


def counted_word(question: str) -> str | None:
    """The word right after "how many", as written ("employees" of "How many employees did ..."), or None (not
    a count question, or that word is a unit or one a sentence rarely repeats when it counts)."""
    count = _COUNT_Q.search(question)
    return count.group(1) if count and count.group(1).lower() not in NOT_COUNTED else None


def says_count(text: str) -> bool:
    """Does the text give a count: a number that is not money, a share or a year, or a number word?"""
    return next(_counts(text), None) is not None


def _counts(text: str) -> Iterator[re.Match[str]]:
    """The counts of the text, designators left out ("TIC 3.0", "Section 4")."""
    return (m for m in _COUNT.finditer(text) if not _DESIGNATED.search(text, max(0, m.start() - 12), m.start()))


def vague_question(question: str) -> bool:
    """Does the question ask for no exact number ("Roughly how many …?"): a vague quantity may answer it."""
    return _VAGUE_Q.search(question) is not None


def counted_phrase(question: str) -> tuple[str, frozenset[str]] | None:
    """What a "how many" question counts, stemmed: the noun (the last plural of the phrase after "how many", which
    ends at a preposition or a verb: "agencies" of "How many federal agencies have …", "employees" of "How many
    full-time equivalent employees did …"; else its first word, "staff") and the phrase's other words ("federal";
    "employee", "record" of "how many employee record look-ups"). None for a name, a unit, "people" or "times"
    (`NOT_COUNTED`), which a sentence says other ways, and for a phrase of names ("How many D&I Imperatives …")."""
    match = re.search(r"\bhow many\s+(.*)", question, re.IGNORECASE)
    if not match:
        return None
    phrase: list[str] = []
    for word in re.findall(r"[\w'’&\-]+", match.group(1))[:_HEAD_WORDS]:
        if _PHRASE_END.match(word.lower()):
            break
        phrase.append(word)
    nouns = [w for w in phrase if w.lower() not in _MODIFIERS]
    if not nouns or any(w.lower() in NOT_COUNTED for w in nouns):  # "square feet", "people"
        return None
    plural = [w for w in nouns if _plural(w)]
    head = plural[-1] if plural else nouns[0]
    if not head.islower():
        return None
    return stem(head), frozenset(stem(w) for w in nouns if w != head and w.islower())


def counts_head(text: str, head: str, others: frozenset[str] = frozenset(), vague: bool = False) -> bool:
    """Does a count of the text count the `head` noun: say it within `REACH` words after the number ("164,000
    full-time employees"), or say another word of the counted phrase (`others`) and no plural the phrase does not
    say ("exceed 100 records in a day" counts "employee record look-ups"; "Several existing federal policies"
    counts policies, not "federal agencies")? A vague quantity ("several", "dozens") counts only when `vague` (the
    question asks for no exact number)."""
    said = {head, *others}
    for match in _counts(text):
        if not vague and _VAGUE.match(match.group(0).strip()):
            continue
        words = _counted_words(text, match)
        stems_ = {stem(w) for w in words}
        if head in stems_ or (others & stems_ and not any(_plural(w) and stem(w) not in said for w in words)):
            return True
    return False


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def count_marks(text: str) -> frozenset[str]:
    """`#n:<stem>` for each word within `REACH` words (stopwords left out) after a count in `text`: a number
    that is not money, a share or a year ("$198 million", "81%" and "2023" count nothing), or a number word."""
    marks: set[str] = set()
    for match in _counts(text):
        marks |= _followers(text, match)
    return frozenset(marks)


def _followers(text: str, match: re.Match[str]) -> set[str]:
    """The marks of the words one count of the text counts (`_counted_words`)."""
    return {MARK + stem(w) for w in _counted_words(text, match)}


def _counted_words(text: str, match: re.Match[str]) -> list[str]:
    """The words one count of the text counts: up to `REACH` words after it, to the next number."""
    words: list[str] = []
    for follower in tokenize(text[match.end(): match.end() + 80])[:REACH]:
        if _NUMERIC.match(follower):  # the next number counts what follows it
            break
        words.append(follower)
    return words


def sentence_terms(text: str) -> frozenset[str]:
    """A sentence's stems with its count marks: what a question's `question_terms` are looked up in."""
    return frozenset(stem(t) for t in tokenize(text)) | count_marks(text)


def counted_marks(question: str) -> tuple[str, ...]:
    """The marks of what a "how many" question counts: each lowercase word of the two after "how many" that can
    be what is counted ("architectural drawings" marks both), none for a name or a unit."""
    count = _COUNT_Q.search(question)
    if not count:
        return ()
    first, second = count.groups()
    # the second word is what is counted after a modifier ("how many new stores"), not after a verb or "people"
    words = [first, *([second] if second and (first not in NOT_COUNTED or first in _MODIFIERS) else [])]
    return tuple(dict.fromkeys(MARK + stem(w) for w in words if w.islower() and w not in NOT_COUNTED))


def question_terms(question: str) -> list[str]:
    """The question's stems in order, without the quantity word of "how many/much", with the counted words'
    marks after them."""
    terms = [stem(t) for t in tokenize(question)]
    if _HOW_QUANTITY.search(question):
        terms = [t for t in terms if t not in _QUANTITY_WORDS]
    return list(dict.fromkeys(terms + list(counted_marks(question))))
