"""A sentence too long to show whole, cut to what answers the question without reading as a torn-off fragment.

Filings write a whole list into one sentence ("… increased primarily due to A; higher B, which …; and C"). Cut at
any word, the shown stretch opened and ended mid-clause ("… currency rate fluctuations, our total operating
expenses …"). Cut at its clauses, it reads as the document wrote it: the framing clause that opens the sentence,
then the clauses that hold the question's words, in order, an elision marked " … " between them.
"""

from __future__ import annotations

import re

from ...text.tokens import stem, stems

# a clause of a list written in one sentence ends at a semicolon
_CLAUSE_END = re.compile(r"(?<=;)\s+")
# words left over at a sentence's start or end that are shown rather than cut off with "…"
SNAP_WORDS = 12
# whole clauses may take this much more than the word budget: a clause is not cut
CLAUSE_ROOM = 1.5


def window(sentence: str, question: str, limit: int) -> str:
    """At most about `limit` words of `sentence` holding the question's words: whole clauses when the sentence is
    a list of them, else the stretch of words around the question's words (`word_window`)."""
    clauses = [c for c in _CLAUSE_END.split(sentence.strip()) if c]
    if len(clauses) >= 2 and len(clauses[0].split()) <= limit:
        return _clauses(clauses, set(stems(question)), limit)
    return word_window(sentence, question, limit)


def _clauses(clauses: list[str], q_stems: set[str], limit: int) -> str:
    """The opening clause (it says what the list is of), then the clauses matching most of the question's words
    the opening clause does not, then the next clauses in order, while they fit (`CLAUSE_ROOM` times the
    budget); shown in the sentence's order, a clause left out between two shown marked " … ", the shown stretch
    ending on a full stop where the sentence goes on."""
    q_stems = q_stems - set(stems(clauses[0]))  # what the opening clause matched tells no later clause apart
    hits = [sum(stem(w.strip(".,;:()\"'").lower()) in q_stems for w in c.split()) for c in clauses]
    limit = int(CLAUSE_ROOM * limit)
    kept, size = {0}, len(clauses[0].split())
    for i in sorted(range(1, len(clauses)), key=lambda i: (-hits[i], i)):
        words = len(clauses[i].split())
        if hits[i] and size + words <= limit:
            kept.add(i)
            size += words
    for i in range(1, len(clauses)):  # the clauses right after the opening one while they fit: read on in order
        if i in kept:
            continue
        if size + len(clauses[i].split()) > limit:
            break
        kept.add(i)
        size += len(clauses[i].split())
    shown, last = [], -1
    for i in sorted(kept):
        if last >= 0 and i != last + 1:
            shown.append("…")
        shown.append(clauses[i])
        last = i
    text = " ".join(shown)
    return text if last == len(clauses) - 1 else text.rstrip(" ;,") + "."


def word_window(sentence: str, question: str, limit: int) -> str:
    """The `limit`-word stretch of a long sentence holding most of the question's words; on ties the one they sit
    most in the middle of (earliest then): what a sentence says of them is around them, not all before them ("…
    align to how our chief operating decision makers (CODMs), which include our Chief Executive Officer and Chief
    Technology Officer, view …" answers "Who are the CODMs?" after its one matched word). A stretch within
    `SNAP_WORDS` of the sentence's start or end reaches it: a reader gets the few words more, not an "…"."""
    words_ = sentence.split()
    q_stems = set(stems(question))
    hits = [1 if stem(w.strip(".,;:()\"'").lower()) in q_stems else 0 for w in words_]
    counts, places = [0], [0]  # running sums of the hits and of their places: each window read in one step
    for i, hit in enumerate(hits):
        counts.append(counts[-1] + hit)
        places.append(places[-1] + hit * i)
    best_start, best = 0, (-1, 0.0)
    for start in range(0, len(words_) - limit + 1):
        end = start + limit
        count, place = counts[end] - counts[start], places[end] - places[start]
        off = abs(place / count - (start + (limit - 1) / 2)) if count else 0.0
        if (count, -off) > best:
            best_start, best = start, (count, -off)
    start = 0 if best_start <= SNAP_WORDS else best_start
    end = len(words_) if len(words_) - (best_start + limit) <= SNAP_WORDS else best_start + limit
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(words_) else ""
    return prefix + " ".join(words_[start:end]) + suffix
