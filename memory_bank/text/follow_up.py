"""Follow-up questions in one task: a question whose subject is only a pronoun ("Is it improving, and why?",
"What does it do?", "Why did they change?") or is left out ("How many are there?", "And in 2023?") is read
against the task's previous question: "it" is what that question asked about, "How many are there?" counts its
items, "And in 2023?" is that question asked of 2023.

Answered alone, such a question names nothing to look for ("not found", or a sentence that happens to say
"improve"). The reading is a guess, so it is said with the answer (`FollowUp.note`) and a wrong one is seen. A
question that names anything of its own (a word beyond the short vocabulary of follow-ups) is read as asked: a
task's first question, and every question that says what it asks about, are unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .asks import ORDINALS
from .tokens import STOPWORDS, bare_stems
from .trends import CHANGE_WORDS

MAX_WORDS = 12  # a follow-up leaning on the previous question is short: a longer one says what it asks
MAX_CHARS = 120  # ... in characters too ("Is it ???…" of 100,000 marks has three words)
PREVIOUS_CHARS = 300  # of the previous question, the part its subject is read from (a user may paste anything)
SUBJECT_WORDS = 10  # the subject read off it, at most
NEW_SUBJECT_WORDS = 5  # "What about Apple?": the new subject, at most

_POINTERS = ("it", "they", "them", "this", "that", "these", "those", "he", "she", "him", "her")
POSSESSIVES = ("its", "their")  # "What was its margin?": whose margin is the previous question's subject
# the words a follow-up asks with, beyond function words and the verbs of change (stemmed)
_FOLLOW_WORDS = frozenset(bare_stems(
    "why how many much mean means work works happen happened stand say says said cause caused drive drove driven "
    "explain compare compared else again exactly now then still really also fiscal year years going expected "
    "expect continue continued about tell describe detail details elaborate further differ relate interact"))
# a request rather than a question: what it asks about follows its opening words
_REQUEST = re.compile(r"(?:please\s+)?(?:tell\s+me\s+(?:more\s+|something\s+)?about|explain|describe|elaborate\s+on|"
                      r"say\s+more\s+about|summari[sz]e)\s")
_WH = frozenset({"what", "which", "who", "whom", "whose", "how", "why", "when", "where"})
_AUX = frozenset({"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will",
                  "would", "should", "may", "might", "must", "isn't", "aren't", "wasn't", "weren't", "doesn't",
                  "don't", "didn't", "hasn't", "haven't", "can't", "won't"})
_VERB_AFTER = frozenset({"do", "does", "did", "can", "could", "will", "would", "should", "may", "might", "must",
                         "doesn't", "don't", "didn't", "can't", "won't"})  # the main verb ends the subject's run
_TIME_PREPOSITIONS = frozenset({"in", "for", "during", "as", "at", "over", "through", "since", "from", "between",
                                "by", "on", "of"})
_TIME_WORDS = frozenset({"fiscal", "year", "years", "quarter", "quarters", "half", "fy", "january", "february",
                         "march", "april", "may", "june", "july", "august", "september", "october", "november",
                         "december"})
_CLAUSE_WORDS = frozenset({"that", "which", "who", "whose", "where", "when", "according", "compared", "relative",
                           "versus", "vs", "than", "and", "or", "if", "because"})
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_COPULAS = frozenset({"is", "are", "was", "were"})
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her"})  # a noun phrase opens with one
_EDGES = "\"'“”‘’()[]{}.,;:!?"


@dataclass(frozen=True)
class FollowUp:
    """A question read against the previous one: `asked` as typed, `question` as read; `pointer` the pronoun
    read as `subject` ("it" -> "Oracle's cloud services revenue"), "" when the words were left out."""

    asked: str
    question: str
    pointer: str = ""
    subject: str = ""

    def note(self) -> str:
        """The reading, said before the answer: a possessive's in the whole question ("the margin of …")."""
        if self.pointer and self.pointer.lower() not in POSSESSIVES:
            return f"Reading “{self.pointer}” as “{self.subject}”."
        return f"Reading “{self.asked}” as “{self.question}”."


def read_follow_up(question: str, previous: str) -> FollowUp | None:
    """`question` read against the task's `previous` question, or None when it names what it asks about (or
    there is no previous question, or nothing to read it as)."""
    words = question[:MAX_CHARS + 1].split(maxsplit=MAX_WORDS)
    if len(question) > MAX_CHARS or not previous.strip() or not words or len(words) > MAX_WORDS:
        return None
    asked = " ".join(words)
    previous = " ".join(previous[:PREVIOUS_CHARS].split())
    subject = subject_of(previous)
    pointed = _pointed_item(words, subject)
    if pointed:
        return FollowUp(asked, pointed)
    if not _leans_on_previous(question):
        owned = _owned_by(words, subject)
        if owned:
            return FollowUp(asked, owned[1], owned[0], subject)
        other = _asked_of(previous, subject, _new_subject(words))
        return FollowUp(asked, other) if other else None
    pointer = next((i for i, w in enumerate(words) if _bare(w).lower() in _POINTERS), None)
    if pointer is not None and subject:
        word = _bare(words[pointer])
        if word.lower() in ("it", "this", "that") and " and " in subject:
            return None  # one thing pointed at, two things named: which one is not said
        said = subject[0].upper() + subject[1:] if pointer == 0 else subject
        read = [*words[:pointer], words[pointer].replace(word, said, 1), *words[pointer + 1:]]
        return FollowUp(asked, " ".join(read), word, subject)
    lower = [_bare(w).lower() for w in words]
    at = lower.index("how") + 2 if "how" in lower else 0
    counted = _counted(subject)
    if at and lower[at - 1: at] == ["many"] and counted:
        # "How many are there?": "How many tenets of zero trust are there?"
        return FollowUp(asked, " ".join([*words[:at], counted, *words[at:]]))
    years = [w for w in lower if _YEAR.match(w)]
    if len(set(years)) == 1 and pointer is None:  # "And in 2023?": the previous question, of 2023
        dated = _redated(previous, years[0])
        return FollowUp(asked, dated) if dated else None
    return None


def _owned_by(words: list[str], subject: str) -> tuple[str, str] | None:
    """A question about something of the previous subject's ("What was its margin?", "Why did their sales
    fall?"): its own subject opens with "its"/"their" and it names nothing else (no name after its first word);
    read as (the pronoun, "What was the margin of Oracle's hardware business?")."""
    own = subject_of(" ".join(words)).split()
    if not subject or len(own) < 2 or own[0].lower() not in POSSESSIVES or any(
            _bare(w)[:1].isupper() for w in words[1:]):
        return None
    at = next((i for i in range(len(words) - len(own) + 1)
               if [_bare(w) for w in words[i:i + len(own)]] == own), None)
    if at is None:
        return None
    owner = _owner(subject)
    if not _agrees(own[0].lower(), owner):
        return None
    end = at + len(own) - 1
    tail = words[end][len(words[end].rstrip(_EDGES)):]  # "margin?": the mark goes after the owner
    owned = f"the {' '.join(own[1:])} of {owner}{tail}"
    return own[0], " ".join([*words[:at], owned, *words[end + 1:]])


def _pointed_item(words: list[str], subject: str) -> str:
    """One item of the list the previous question asked for, by its place ("What does the third one say?", "Tell
    me more about the second" after "What are the tenets of zero trust?"): that question's item named in full
    ("the third tenet of zero trust"), so the list answer finds it; "" when the question names anything more."""
    lower = [_bare(w).lower() for w in words]
    at = next((i for i in range(1, len(lower)) if lower[i - 1] == "the" and lower[i] in ORDINALS), None)
    said = subject.split()
    if len(said) > 2 and said[0].lower() == "the" and said[1].lower() in ORDINALS:
        kind = " ".join(said[2:])  # the previous question pointed into the list too: the same kind of item
    elif is_plural(subject):
        kind = _singular(_undetermined(subject))
    else:
        return ""
    if at is None:
        return ""
    end = at + 1 + (lower[at + 1: at + 2] in (["one"], ["item"], ["point"])) + 2 * (lower[at + 1: at + 3] == [
        "of", "them"])
    rest = [*words[:at - 1], *words[end:]]
    if not rest or not (_leans_on_previous(" ".join(rest)) or (end > at + 1 and _one_verb(rest))):
        return ""
    tail = words[end - 1][len(words[end - 1].rstrip(_EDGES)):]
    item = f"the {lower[at]} {kind}{tail}"
    return " ".join([*words[:at - 1], item, *words[end:]])


def _counted(subject: str) -> str:
    """What "How many are there?" counts of the previous subject: its plural ("tenets of zero trust"), or the
    kind of item a pointed one is ("the third tenet of zero trust" -> "tenets of zero trust"); "" for one thing."""
    said = subject.split()
    if len(said) > 2 and said[0].lower() == "the" and said[1].lower() in ORDINALS:
        kind = said[2:]
        at = _head(kind)
        head = kind[at]
        plural = head[:-1] + "ies" if head.endswith("y") and head[-2:-1] not in "aeiou" else \
            head + "es" if head.endswith(("s", "x", "ch", "sh")) else head + "s"
        return " ".join([*kind[:at], plural, *kind[at + 1:]])
    return _undetermined(subject) if is_plural(subject) else ""


def _singular(subject: str) -> str:
    """"basic tenets of zero trust" -> "basic tenet of zero trust": its head, the word `_plural` reads."""
    words = subject.split()
    at = _head(words)
    head = words[at]
    if head.endswith("ies"):
        head = head[:-3] + "y"
    elif head.endswith(("sses", "xes", "ches", "shes")):
        head = head[:-2]
    else:
        head = head[:-1]
    return " ".join([*words[:at], head, *words[at + 1:]])


def _head(words: list[str]) -> int:
    """The place of a noun phrase's head: the word before its first "of"/"in"/"for"/"on", or its last word."""
    return next((i for i, after in enumerate([*words[1:], ""]) if after in {"", "of", "in", "for", "on"}), 0)


def _new_subject(words: list[str]) -> str:
    """What "What about Apple?", "And Oracle?", "How about the PEP?" ask the previous question of: the few words
    after the opening, naming something (no question word, verb, pronoun or preposition of their own); ""."""
    lower = [_bare(w).lower() for w in words]
    at = 1 if lower[:1] == ["and"] else 0
    if lower[at: at + 2] in (["what", "about"], ["how", "about"]):
        at += 2
    rest = [_bare(w) for w in words[at:]]
    if not at or not 0 < len(rest) <= NEW_SUBJECT_WORDS or not rest[-1] or rest[0].lower() in _TIME_PREPOSITIONS:
        return ""
    if any(w.lower() in _WH | _AUX | set(_POINTERS) | set(POSSESSIVES) or _YEAR.match(w) for w in rest):
        return ""
    return " ".join(rest) if any(w.lower() not in STOPWORDS for w in rest) else ""


def _asked_of(previous: str, subject: str, new: str) -> str:
    """The previous question asked of `new`: a name takes the place of the subject's owner ("Oracle's total
    revenue" -> "Apple's total revenue"), a thing that of what the owner has ("Oracle's net income"); a subject
    without an owner ("the PA") is replaced whole; "" when there is nothing to replace."""
    if not new or not subject or subject not in previous or new.lower() == subject.lower():
        return ""
    words = subject.split()
    owner = next((i for i, w in enumerate(words) if w.endswith(("'s", "’s"))), None)
    named = all(w[:1].isupper() for w in new.split() if w.lower() not in STOPWORDS)
    names = [i for i, w in enumerate(words) if i and w[:1].isupper() and words[i - 1].lower() not in _DETERMINERS]
    if owner is None and named and len(names) == 1 and new.split()[0].lower() not in _DETERMINERS:
        # "the risks Apple faces": the name is what changes
        said = " ".join([*words[:names[0]], new, *words[names[0] + 1:]])
    elif owner is None and " and " in f" {subject} ":
        return ""  # two things joined: one new thing takes neither's place
    elif owner is None:
        said = new
    elif named:
        mark = words[owner][-2:]
        said = " ".join([new + mark, *words[owner + 1:]])
    else:
        said = " ".join([*words[:owner + 1], _undetermined(new)])
    return previous.replace(subject, said, 1)


def _agrees(possessive: str, owner: str) -> bool:
    """Does the pronoun agree with the owner it would stand for: "its" one thing, "their" several or a named
    one (a company is "their" too)? "their first plan" does not stand for "material"."""
    if possessive == "its":
        return not is_plural(owner)
    return is_plural(owner) or any(w[:1].isupper() for w in owner.split())


def _owner(subject: str) -> str:
    """Who owns what a possessive names: a thing of a named one ("the margin of Oracle's hardware business", a
    reading of "its margin") leaves its owner, "Oracle's hardware business", for the next "its"; a subject
    naming no one ("the tenets of zero trust") is its own owner."""
    first, of, rest = subject.partition(" of ")
    named = any(w[:1].isupper() or w.endswith(("'s", "’s")) for w in rest.split())
    return rest if of and first.lower().startswith("the ") and len(first.split()) <= 4 and named else subject


def _one_verb(rest: list[str]) -> bool:
    """An item pointed at as "the third one" or "the last of them" stands for itself, so the question may ask one
    thing of it in its own verb ("What does the last one require?"); a second word, or a name, asks more."""
    named = [w for w in rest[1:] if w[:1].isupper()]
    return not named and len([w for w in bare_stems(" ".join(rest)) if w not in _FOLLOW_WORDS]) <= 1


def _leans_on_previous(question: str) -> bool:
    """Every word it has beyond function words asks how, why, whether it changed, or of which year: it names
    nothing (pronouns are function words)."""
    return all(w in _FOLLOW_WORDS or w.startswith(CHANGE_WORDS) or _YEAR.match(w) for w in bare_stems(question))


def subject_of(question: str) -> str:
    """What a question asks about, read off its words: "What was Oracle's cloud services revenue in fiscal 2024?"
    -> "Oracle's cloud services revenue"; "What does the policy engine do?" -> "the policy engine"; "" when it
    names nothing. The words after its opening (a question word, an auxiliary) up to a date, a clause or the
    main verb."""
    raw = question.split()[:3 * SUBJECT_WORDS]  # with their marks: a comma before "and" ends the subject
    words = [_bare(w) for w in raw]
    lower = [w.lower() for w in words]
    request = _REQUEST.match(" ".join(lower))
    start = len(request.group(0).split()) if request else 0  # "Tell me more about X": X follows its opening
    while not request and start < len(lower) and lower[start] in _WH | {"many", "much", "kind", "kinds", "of"}:
        start += 1
    aux = lower[start] if not request and start < len(lower) and lower[start] in _AUX else ""
    if aux:
        start += 1
    elif start and not request and (
            later := next((i for i in range(start, len(lower)) if lower[i] in _AUX), None)) is not None:
        return _clean(words[start:later])  # "How many employees did Oracle have …?": "employees"
    end = start
    while end < len(words) and not (_ends_subject(lower, end, start) and not _joins(raw, lower, end, aux)):
        end += 1
    run = words[start:end]
    verb_said = end < len(lower) and lower[end] in _AUX  # "What does the policy engine do": "do" ends the run
    if aux in _VERB_AFTER and not verb_said and len(run) > 1 and run[-1].islower():
        run = run[:-1]  # "How did Oracle's revenue change": its main verb
    return _clean(run)


def _joins(raw: list[str], lower: list[str], i: int, aux: str) -> bool:
    """Does the "and"/"or" at `i` join a second noun phrase to the subject ("Apple's net sales and operating
    income", "the policy engine and the policy administrator") rather than open a clause ("…, and why?", "… and
    how does it work?")? It does after no comma, before a determiner, or in a question of "is"/"are" before any
    word that is not a question word or an auxiliary."""
    if lower[i] not in ("and", "or") or i + 1 >= len(lower) or raw[i - 1].endswith((",", ";", ":")):
        return False
    following = lower[i + 1]
    if following in _DETERMINERS:
        return True
    return aux in _COPULAS and following not in _WH | _AUX | _CLAUSE_WORDS | set(_POINTERS)


def _ends_subject(lower: list[str], i: int, start: int) -> bool:
    word = lower[i]
    if i > start and (word in _CLAUSE_WORDS or word in _AUX):
        return True
    if word in _TIME_PREPOSITIONS:  # "in fiscal 2024", "as of May 31, 2023"
        ahead = lower[i + 1: i + 4]
        return any(_YEAR.match(w) or w in _TIME_WORDS for w in ahead)
    return bool(_YEAR.match(word))


def _clean(run: list[str]) -> str:
    """The run without the verbs of change or of asking it ends on ("… revenue improving"), at most
    `SUBJECT_WORDS` words; "" when no word of it names anything."""
    while run and (run[-1].lower().startswith(CHANGE_WORDS) or bare_stems(run[-1]) <= _FOLLOW_WORDS
                   or (len(run) > 1 and run[-1].islower() and run[-1].endswith(("ed", "ing")))):
        run = run[:-1]
    run = [w for w in run if w][:SUBJECT_WORDS]
    while run and run[-1].lower() in STOPWORDS:  # cut at the limit: "… commercial paper at the" names no "at the"
        run = run[:-1]
    return " ".join(run) if any(w.lower() not in STOPWORDS for w in run) else ""


def is_plural(subject: str) -> bool:
    """Does the subject name things that can be counted ("the tenets of zero trust"): its head, the last word
    before a preposition, is a plural?"""
    head = next((w for w, after in zip(subject.split(), [*subject.split()[1:], ""]) if after in {"", "of", "in",
                                                                                                "for", "on"}), "")
    return head.endswith("s") and not head.endswith(("ss", "'s", "’s"))


def _undetermined(subject: str) -> str:
    """"the tenets of zero trust" -> "tenets of zero trust", as it follows "How many"."""
    first, _, rest = subject.partition(" ")
    return rest if first.lower() in {"the", "a", "an", "its", "their"} and rest else subject


def _redated(previous: str, year: str) -> str:
    """The previous question asked of `year`: its one year replaced, or `year` added when it names none; "" when
    it names several (which one the follow-up replaces is not said)."""
    words = previous.split()
    said = {_bare(w) for w in words if _YEAR.match(_bare(w))}
    if len(said) > 1:
        return ""
    if said:
        old = said.pop()
        return " ".join(w.replace(old, year) if _bare(w) == old else w for w in words)
    # "Is Oracle's cloud revenue improving, and why?" -> "Is … improving in 2023, and why?"
    if not words:
        return ""
    end = next((i for i, w in enumerate(words) if w.endswith((",", ";", "?"))), len(words) - 1)
    word = words[end]
    words[end] = f"{word[:-1]} in {year}{word[-1]}" if word[-1] in ",;?" else f"{word} in {year}"
    return " ".join(words)


def _bare(word: str) -> str:
    return word.strip(_EDGES)
