"""How many bodies run something, answered by the sentence naming them: "How many bodies share the management of
the Trusted Internet Connections initiative, and which are they?" of "TIC is a federal cybersecurity initiative
jointly managed by OMB, DHS, and the General Services Administration (GSA), and is intended to …". The sentence
gives no number and never says "bodies"; it names the agents of its verb, and a reader counts the names."""

from __future__ import annotations

import re

from ...text.counts import counted_phrase
from ...text.tokens import STOPWORDS, bare_stems, stem
from .answering import Answer
from .counted_list import COUNT_WORD, HOW_MANY
from .evidence import Evidence

# kinds of agent a question counts without naming them the way a document does
_AGENTS = bare_stems("bodies organizations organisations agencies entities parties institutions departments "
                     "companies firms")
# "jointly managed by A, B, and C": the agents of running something, a comma list, bounded and read in one pass
_RUN_BY = re.compile(r"\b(?:jointly\s+|co-?)?(?:managed|run|led|operated|administered|overseen|governed|sponsored)"
                     r"\s+by\s++(?P<names>[^.;:]{2,300})", re.IGNORECASE)
_NAME = re.compile(r"^(?:the\s+)?[A-Z][\w&.’'-]*(?:\s+(?:of\s+|and\s+|for\s+)?[A-Z(][\w&.’'()-]*)*$")
MAX_NAMES = 12
# the question must ask who runs it ("… manage the TIC initiative?", "… share the management of …"): a sentence
# naming who manages a thing says nothing of how many agencies deployed it
_RUNS_Q = re.compile(r"\b(?:manag\w*|run|runs|ran|lead|leads|led|operat\w*|administ\w*|oversee\w*|oversaw|"
                     r"govern\w*|sponsor\w*)\b", re.IGNORECASE)
_RUN_WORDS = bare_stems("manage manages managed management run runs lead leads operate operates oversee govern "
                        "sponsor jointly share shares")


def agents_count(question: str, evidence: list[Evidence]) -> Answer | None:
    """The count of the names a sentence gives as the agents running the question's subject, with the sentence;
    None when the question counts no kind of agent or no sentence on its subject names two or more."""
    phrase = counted_phrase(question)
    if phrase is None or not HOW_MANY.search(question) or phrase[0] not in _AGENTS or not _RUNS_Q.search(question):
        return None
    # the question's own word for what it counts ("agencies" of "How many federal agencies …", not "federal")
    noun = next((w for w in re.findall(r"[A-Za-z]+", question) if stem(w.lower()) == phrase[0]), "of them")
    # what is run, said before the agents ("TIC is a federal cybersecurity initiative …"): not the counted phrase's
    # own words ("federal" of "How many federal agencies …")
    subject = {s for s in bare_stems(question) if s not in STOPWORDS} - {phrase[0], *phrase[1]} - _RUN_WORDS
    for ev in evidence:
        run = _RUN_BY.search(ev.text)
        if ev.row or run is None or not subject & bare_stems(ev.text[: run.start()]):
            continue
        names = _names(run.group("names"))
        if 2 <= len(names) <= MAX_NAMES:
            return Answer(f"There are {len(names)} {noun}: {', '.join(names[:-1])} and {names[-1]} "
                          f"(“{ev.text}”)", [ev], 1.0)
    return None


def _names(text: str) -> list[str]:
    """The names of a comma list "OMB, DHS, and the General Services Administration (GSA), and is intended …",
    up to the first piece that is no name."""
    pieces = [p.strip() for chunk in text.split(",") for p in re.split(r"\s+and\s+|^and\s+", chunk.strip())]
    out = []
    for piece in (p for p in pieces if p):
        if not _NAME.match(piece):
            break
        out.append(piece.removeprefix("the "))
    return out


# people a question counts: "How many Apple officers had … plans, and who were they?"
_PEOPLE_Q = re.compile(r"\bhow\s+many\s+(?:[\w'’-]+\s+){0,2}?(?P<noun>officers|directors|executives|people|persons|"
                       r"individuals|members|authors|officials|contributors|reviewers|managers|employees|staff)\b",
                       re.IGNORECASE)
MAX_SCAN = 2000  # the characters of a sentence searched for a run of names (the search is quadratic in commas)
# a person's name: two to four capitalised words, initials among them ("Katherine L. Adams", "Deirdre O’Brien")
_PERSON = r"[A-Z][\w’'-]*\.?(?:\s+[A-Z][\w’'-]*\.?){1,3}"
_PEOPLE_RUN = re.compile(rf"(?<![\w’'-])(?P<run>{_PERSON}(?:,\s+{_PERSON})*,?\s+and\s+{_PERSON})")


def people_count(question: str, evidence: list[Evidence]) -> Answer | None:
    """"How many Apple officers had Rule 10b5-1 trading plans …?" of "During the three months ended September 24,
    2022, Katherine L. Adams, Timothy D. Cook, Luca Maestri, Deirdre O’Brien and Jeffrey Williams, each an officer
    for purposes of Section 16 …, had equity trading plans in place …": no number, a run of names a reader counts.
    The sentence must say the counted noun or most of what the question asks of them; None otherwise."""
    asked = _PEOPLE_Q.search(question)
    if asked is None:
        return None
    noun = asked["noun"].lower()
    counted = re.compile(rf"\b(?:\d[\d,]*|{COUNT_WORD})\s+(?:[\w'’-]+\s+){{0,2}}?{noun}\b", re.IGNORECASE)
    if any(counted.search(ev.text) for ev in evidence):
        return None  # a sentence giving the number ("approximately 164,000 full-time employees") answers it
    subject = {s for s in bare_stems(question) if s not in STOPWORDS} - bare_stems(f"how many {noun}")
    for ev in evidence:
        run = _PEOPLE_RUN.search(ev.text[:MAX_SCAN])  # a run of names is short; a hostile one is read in bound
        if ev.row or run is None:
            continue
        said = bare_stems(ev.text)
        if stem(noun) not in said and len(subject & said) < max(2, len(subject) // 2):
            continue
        names = [n for n in _names(run["run"]) if n.lower() not in question.lower()]
        if 2 <= len(names) <= MAX_NAMES:
            return Answer(f"There are {len(names)} {noun}: {', '.join(names[:-1])} and {names[-1]} "
                          f"(“{ev.text}”)", [ev], 1.0)
    return None
