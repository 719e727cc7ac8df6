"""A name of the question that the sentence puts another name in place of: an entity-swap near miss.

"On what date did WXYZ-TV in Chicago sign on the air?" read against "WENR-TV in Chicago signed on the air on
September 17, while WXYZ-TV in Detroit went on the air on October 9, 1948": every word of the question is said,
so no word check refuses it, but where the question has "WXYZ-TV in Chicago" the sentence has "WXYZ-TV in
Detroit". The same shape on the other side: "What was Lake Victoria formerly called?" against "Lake Turkana
(formerly called Lake Rudolf)". A slot is a name's neighbour in the question: a word and a preposition before it
("street in Burbank") or the plain word after it ("Panthers defeat"); the sentence swaps the name when it fills
that slot with another name and never says the question's own pairing. Names only: a common word in the same
place is a paraphrase as often as a swap. Measured on bench/near_miss_signals.py (the gold answer sentences of
the dev articles against the near misses' tempting sentences) and bench/squad_near_miss.py.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata

from ...text.tokens import STOPWORDS, hyphenated, stem

# letters of any script ("Ögedei" is a name), not "_": a file's name is its words ("APPLE_2022_10K.pdf")
_TOKEN = re.compile(r"[^\W_](?:[^\W_]|[\-‐‑‒–—.,&])*[^\W_]|[^\W_]")
_ARTICLES = frozenset({"a", "an", "the"})
_PREPOSITIONS = frozenset({"in", "of", "at", "on", "for", "from", "by", "with", "to"})
_CLAUSE = re.compile(r"[,;:](?=\s)|\s[—–-]\s")
_BREAK = "0break0"  # stands for a clause break among the words: matches no word, names nothing
# the other name this close to the question's own is an apposition or one longer name ("Gothenburg, Sweden")
_APART = 2
# words after a slot's context that still pair the name with it: "nominated for a BAFTA Television Award for Best
# Actor", "the FCC repealed the Financial Interest and Syndication Rules"
_WITHIN = 6
_ACTIVE = frozenset({"did", "does", "do"})  # "Which team did X defeat?": X is the subject, not the one defeated
# a name and its number ("AS-202", "Apollo 13", "Super Bowl 50"): a sentence on its sibling ("AS-201") is no answer
# the capitalised word a number is attached to ("AS-202", "Apollo 13", "Super Bowl 50": "Bowl"): only that word is
# compared, and a pattern taking the whole run of capitalised words before it went quadratic on a long run of them
_NUMBERED = re.compile(r"\b([A-Z][A-Za-z]*)[ -](\d+)\b")
_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                     "sept", "oct", "nov", "dec"})


def _tokens(text: str) -> list[str]:
    """Words without articles or a possessive "'s": "the Lunar Module's propulsion" -> Lunar, Module, propulsion;
    a comma, colon or dash between clauses as `_BREAK`, so words it separates are never next to each other ("the
    Netherlands, depicting the hunt" does not put "Netherlands" before "depicting")."""
    out = []
    for match in _TOKEN.finditer(_CLAUSE.sub(f" {_BREAK} ", text.replace("’", "'"))):
        word = re.sub(r"'s$", "", match.group(0).rstrip(".,"))
        if word and word.lower() not in _ARTICLES:
            out.append(word)
    return out


def _key(word: str) -> str:
    return stem(hyphenated(word))


def _content(word: str) -> bool:
    return word.lower() not in STOPWORDS and len(word) > 2 and word != _BREAK


def _name(word: str, index: int) -> bool:
    """Capitalised past a text's first word, or holding a digit ("AS-201", "1948")."""
    return word != _BREAK and (any(c.isdigit() for c in word) or (index > 0 and word[:1].isupper()))


def _same(a: str, b: str) -> bool:
    """One name written two ways: "15-1"/"15–1", "Khwarezmian"/"Khwarazmian", "Mongolian"/"Mongol"."""
    a, b = hyphenated(a), hyphenated(b)
    shared = len(os.path.commonprefix([a, b]))
    return (a == b or shared >= 5 or (shared >= 4 and min(len(a), len(b)) <= 6)
            or difflib.SequenceMatcher(None, a, b).ratio() >= 0.8)


def _slots(question: list[str]) -> list[tuple[str, list[str], str]]:
    """(name, the words beside it, its side) for each name of the question that has a slot: a content word and a
    preposition before it ("before"), or a plain content word after it: "subject" when an active "did/does/do"
    stands before the name ("did the Carolina Panthers defeat": the Panthers did it), "after" otherwise ("was
    the Rules repealed", "Old Testament translation"). An acronym is left to the word checks (it is said many
    ways: "V&A", "Victoria and Albert Museum")."""
    out = []
    for i, word in enumerate(question):
        if not _name(word, i) or word.lower() in STOPWORDS or (word.isupper() and len(word) > 1):
            continue
        if i >= 2 and question[i - 1].lower() in _PREPOSITIONS and _content(question[i - 2]):
            out.append((word, question[i - 2:i], "before"))
        if i + 1 < len(question) and _content(question[i + 1]) and not _name(question[i + 1], i + 1):
            active = any(w.lower() in _ACTIVE for w in question[max(0, i - _WITHIN):i])
            out.append((word, [question[i + 1]], "subject" if active else "after"))
    return out


def _said_in_slot(keys: list[str], context: list[str], name: str, side: str) -> bool:
    """Does the text pair the name with its slot as the question does: the same words in the same order, a few
    words between the slot before and the name ("stake in European sports channel Eurosport"), or the word after
    it put before it: by an "of" ("Old Testament translation" as "translation of the Old Testament"), or, unless
    the name is the subject of an active verb, any way ("the Rules were repealed" as "repealed the … Rules";
    "the Panthers defeat" is not "defeated the Panthers")."""
    name_key, width = _key(name), len(context)
    for m in range(len(keys) - width + 1):
        if keys[m:m + width] != context:
            continue
        if side == "before":
            following = keys[m + width:m + width + _WITHIN]
        elif keys[m - 1:m] == [name_key]:
            return True
        elif side == "after" or keys[m + 1:m + 2] == ["of"]:
            following = keys[m + 1:m + 1 + _WITHIN]
        else:
            continue
        if name_key in (following[:following.index(_BREAK)] if _BREAK in following else following):
            return True
    return False


def swapped_names(question: str, sentence: str, near: str, topic: str) -> list[str]:
    """The question's names whose slot the sentence fills with another name, where neither the sentence nor
    its neighbours (`near`) say the question's pairing. The slot before a name (a word and a preposition: "WXYZ-TV
    in Chicago") binds tighter than the word after it ("Chicago signed on"): a name whose slot before is said as
    asked is met, one whose slot before holds another name is swapped whatever follows it. A name of the topic
    (the section's title) is what the passage is about, not a constraint ("animals of Kenya" in a section on Kenya
    said as "animals of Africa")."""
    asked = _tokens(question)
    said = _tokens(sentence)
    keys = [_key(w) for w in said]
    near_keys = [_key(w) for w in _tokens(near)]
    topic_keys = {_key(w) for w in _tokens(topic)}
    slots: dict[str, list[tuple[list[str], str]]] = {}
    for name, beside, side in _slots(asked):
        if _key(name) not in topic_keys:
            slots.setdefault(name, []).append(([_key(w) for w in beside], side))
    out: list[str] = []
    # "United States" said as "U.S." is the asked name, not another one in its place
    asked_keys = {_key(w) for w in asked} | _run_initials(asked)
    for name, beside in slots.items():
        for context, side in sorted(beside, key=lambda slot: slot[1] != "before"):
            if _said_in_slot(near_keys, context, name, side):
                break
            if _other_name_in_slot(said, keys, context, side, name, asked_keys):
                out.append(name)
                break
    return out


def _run_initials(tokens: list[str]) -> set[str]:
    """The initials of each run of two or more capitalised words past the first ("United States" -> "US"), as a
    text abbreviates them ("U.S.")."""
    out: set[str] = set()
    run: list[str] = []
    for i, word in enumerate([*tokens, _BREAK]):
        if i > 0 and word != _BREAK and word[:1].isupper() and word.isalpha():
            run.append(word)
            continue
        if len(run) >= 2:
            out.add("".join(w[0] for w in run).upper())
        run = []
    return out


def _other_name_in_slot(said: list[str], keys: list[str], context: list[str], side: str, name: str,
                        asked: set[str]) -> bool:
    """Does the sentence put a name the question does not say where the question has `name`, beside the same
    words? Not when that name is the asked one written another way, or stands beside it (one longer name)."""
    width = len(context)
    for j in range(len(said) - width + 1):
        if keys[j:j + width] != context:
            continue
        k = j + width if side == "before" else j - 1
        if not 0 <= k < len(said):
            continue
        other = said[k]
        if (_name(other, k) and _content(other) and _key(other) not in asked
                and other.replace(".", "").upper() not in asked
                and other[:1].isdigit() == name[:1].isdigit() and not _same(other, name)
                and not any(_key(w) == _key(name) for w in said[max(0, k - _APART):k + _APART + 1])):
            return True
    return False


def renumbered(question: str, sentence: str) -> list[str]:
    """The question's numbered names ("AS-202") of which the sentence names only another number ("AS-201
    launched on February 26 … splashed down … in the Atlantic ocean"): the sentence is about a sibling. A date
    ("December 12") and a year are not numbered names."""
    out = []
    for match in _NUMBERED.finditer(question):
        base, number = match.group(1), match.group(2)
        if base.lower() in _MONTHS or (len(number) == 4 and number[:2] in ("19", "20")):
            continue
        given = {m.group(2) for m in _NUMBERED.finditer(sentence) if m.group(1) == base}
        if given and number not in given:
            out.append(match.group(0))
    return out


# "did <name> <verb>": the name is the question's agent ("In what year did Andreas Schimper suggest …?")
_ACTIVE_AGENT = re.compile(r"\b(?:did|does|do)\s+((?:the\s+)?(?:[A-Z][\w\-'’]*\s+){1,4})((?:[a-z]+\b\W*){0,2})")
# "<verb> by <agent>": the agent phrase ends at a clause break or a clause's opening word ("suggested by the Russian
# biologist Konstantin Mereschkowski in 1905 after Andreas Schimper observed …": Schimper is not the one suggesting)
_BY_AGENT = re.compile(r"\b([a-z]+)\s+by\s+([^,;.:()]*)")
_CLAUSE_OPENING = re.compile(r"\b(?:after|before|while|when|whereas|although|who|which|that|because)\b")
_AGENT_WORDS = 10
_VERB_PREFIX = 5  # "suggest" / "suggested", "headline" / "headlined"
_ADVERBS = frozenset({"first", "also", "ever", "later", "once", "never", "then", "still", "originally", "initially",
                      "eventually", "finally", "again", "even", "already"})


def other_agent(question: str, sentence: str) -> list[str]:
    """The question's agent ("did Andreas Schimper suggest") when the sentence says the asked act was done by
    other names ("first suggested by the Russian biologist Konstantin Mereschkowski"): an entity swap in the
    agent's place, which `swapped_names` does not see since the passive puts the agent after its verb. Met when
    the agent phrase names the asked agent among others ("headlined by … Coldplay with … Beyoncé and Bruno Mars"),
    accents aside."""
    match = _ACTIVE_AGENT.search(question)
    # the verb: the first word after the name that is not an adverb ("did Schimper first suggest")
    verbs = [w for w in re.findall(r"[a-z]+", match.group(2))
             if w not in STOPWORDS and w not in _ADVERBS and not w.endswith("ly")] if match else []
    if not match or not verbs:
        return []
    agent = {_folded(w) for w in match.group(1).split() if w[:1].isupper()}
    verb = stem(verbs[0])
    if not agent or len(verb) < 3:
        return []
    for act in _BY_AGENT.finditer(sentence):
        word = act.group(1)
        if stem(word) != verb and not (len(verb) >= _VERB_PREFIX and word.startswith(verb[:_VERB_PREFIX])):
            continue
        phrase = _CLAUSE_OPENING.split(act.group(2))[0].split()[:_AGENT_WORDS]
        names = {_folded(w) for w in phrase if w[:1].isupper()}
        if names and not names & agent:
            return [" ".join(w for w in match.group(1).split() if w[:1].isupper())]
    return []


def _folded(word: str) -> str:
    """A name's word without its possessive, case or accents: "Beyonce" is "Beyoncé"."""
    word = re.sub(r"['’]s$", "", word)
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c)).lower()
