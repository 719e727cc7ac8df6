"""Classical NLP shared by the offline agents: sentence spans, idf weights, key phrases, facts.

Everything here is lexical and cheap on purpose: embedding cost dominates ingestion, so the offline engine only
embeds where similarity in meaning really changes a decision, and uses these helpers for everything else.
All outputs are deterministic: ties are broken by first occurrence, never by set or dict iteration order.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from ...text.split import Span, paragraph_breaks, sentence_breaks, stripped_span
from ...text.tokens import STOPWORDS, tokenize

_LIST_LINE = re.compile(r"\n(?=[ \t]*(?:[|*•\-–]\s|\d{1,3}[.)]\s|\|))")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-']*[A-Za-z0-9]|[A-Za-z0-9]")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:%| percent)?")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
           "dec")
_MONTH_RE = re.compile(r"\b(" + "|".join(m.capitalize() for m in MONTHS) + r")\b\.?")
# Abbreviations after which a period does not end a sentence (the sentence regex would otherwise cut there). A
# month's short form only ("on Dec. 25"): "The pilot starts in June. The meeting ..." is two sentences
_ABBREV = frozenset(("mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "gen", "col", "lt", "sgt", "capt", "rev",
                     "vs", "no", "fig", "e.g", "i.e", "etc", "inc", "ltd", "co", "corp", "u.s", "u.k", *MONTHS[12:]))
_PHRASE_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”‘’—–/|]+|\s-\s|\n")
# Function words the general stopword list lacks but that never head a key phrase.
_PHRASE_STOP = frozenset(["several", "many", "much", "either", "neither", "although", "though", "however",
                          "another", "every", "various", "among", "around", "including", "since", "well",
                          "even", "still", "yet", "whose", "upon", "onto", "toward", "towards", "across"])
_LEADER = re.compile(r"(?:\.\s?){5,}|(?:…\s?){2,}|_{5,}")
_NAME_GLUE = frozenset({"of", "de", "da", "del", "der", "van", "von", "la", "le", "du", "and", "the", "&"})


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Sentences of `text[start:end]` as verbatim spans (abbreviations such as "Dr." do not end a sentence)."""
    end = len(text) if end is None else end
    spans: list[Span] = []
    for line_start, line_end in _line_blocks(text, start, end):
        _sentences_in(text, line_start, line_end, spans)
    return spans


def _line_blocks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Table rows and list items are sentences of their own even without a full stop: cut before a line that
    starts with a table or list marker, and at a blank line (a paragraph ends there, full stop or not: a
    heading, a caption); other line breaks (hard-wrapped prose) are not boundaries."""
    cuts = {m.start() + 1 for m in _LIST_LINE.finditer(text, start, end)}
    cuts |= {gap_end for _, gap_end in paragraph_breaks(text, start, end)}
    bounds = [start, *sorted(cuts), end]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if a < b]


def _sentences_in(text: str, start: int, end: int, spans: list[Span]) -> None:
    cursor = start
    for gap_start, gap_end in sentence_breaks(text, start, end):
        before = text[cursor:gap_start].rstrip("\"')]")
        last_word = before.rsplit(None, 1)[-1].lower().rstrip(".") if before.split() else ""
        if last_word in _ABBREV or (len(last_word) == 1 and last_word.isalpha()):
            continue
        _append_span(text, cursor, gap_start, spans)
        cursor = gap_end
    _append_span(text, cursor, end, spans)


def _append_span(text: str, start: int, end: int, out: list[Span]) -> None:
    span = stripped_span(text, start, end)
    if span is not None:
        out.append(span)


def sentences(text: str) -> list[str]:
    """Whitespace-normalised sentences (for summaries and answers, where verbatim offsets do not matter)."""
    return [" ".join(s.text.split()) for s in sentence_spans(text)]


def is_leader_line(sentence: str) -> bool:
    """A table-of-contents or index line: dot leaders run to a page number. It names a topic and answers
    nothing, so it is no evidence."""
    return bool(_LEADER.search(sentence))


def word_count(text: str) -> int:
    return len(text.split())


def trim_words(text: str, limit: int) -> str:
    parts = text.split()
    return " ".join(parts) if len(parts) <= limit else " ".join(parts[:limit]) + " …"


# --- term weights ------------------------------------------------------------------------------------------------

class Idf:
    """Inverse document frequency over a small local corpus (the passages of one chunk, or two nodes)."""

    def __init__(self, documents: list[list[str]]) -> None:
        self.n = max(1, len(documents))
        self.df: Counter[str] = Counter()
        for doc in documents:
            self.df.update(set(doc))
        self._weights: dict[str, float] = {}  # a term is weighed once: key phrases ask for each of their words

    def __call__(self, term: str) -> float:
        weight = self._weights.get(term)
        if weight is None:
            weight = self._weights[term] = math.log(1.0 + self.n / (1.0 + self.df.get(term, 0))) + 0.1
        return weight


def tfidf_vector(tokens: list[str], idf: Idf) -> dict[str, float]:
    counts = Counter(tokens)
    vec = {t: (1.0 + math.log(c)) * idf(t) for t, c in counts.items()}
    norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
    return {t: v / norm for t, v in vec.items()}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())


# --- key phrases -------------------------------------------------------------------------------------------------

def candidate_phrases(text: str, max_len: int = 3) -> list[str]:
    """Runs of content words (no stopwords, no bare numbers) up to `max_len` words: noun-phrase-like candidates."""
    found: list[str] = []
    for segment in _PHRASE_BREAK.split(text):
        run: list[str] = []
        for raw in _TOKEN.findall(segment) + [""]:
            if raw and _phrase_word(raw):
                run.append(raw)
                continue
            for size in range(1, max_len + 1):
                for i in range(len(run) - size + 1):
                    found.append(" ".join(run[i:i + size]))
            run = []
    return found


def _phrase_word(raw: str) -> bool:
    """Words that can sit inside a noun-phrase-like run: no stopwords, bare numbers, adverbs or verb forms
    (a crude, lexicon-free stand-in for a part-of-speech filter; capitalised words always qualify)."""
    word = raw.lower()
    if word in STOPWORDS or word in _PHRASE_STOP or len(word) < 2 or word.replace(",", "").replace(".", "").isdigit():
        return False
    if raw[:1].isupper():
        return True
    return not word.endswith(("ly", "ing", "ed", "'s"))


def keyphrases(text: str, idf: Idf, limit: int = 8) -> list[str]:
    """Phrases ranked by summed tf-idf of their words, longer phrases preferred; contained phrases dropped."""
    candidates = candidate_phrases(text)
    counts = Counter(p.lower() for p in candidates)
    surface: dict[str, str] = {}
    for p in candidates:
        surface.setdefault(p.lower(), p)
    order = {p: i for i, p in reversed(list(enumerate(p.lower() for p in candidates)))}

    def score(phrase: str) -> float:
        words_ = phrase.split()
        weight = sum(idf(w) for w in words_) / len(words_)
        return weight * (1.0 + math.log(counts[phrase])) * (1.0 + 0.35 * (len(words_) - 1))

    ranked = sorted(counts, key=lambda p: (-score(p), order[p]))
    chosen: list[str] = []
    for phrase in ranked:
        words_ = set(phrase.split())
        if any(len(words_ & set(c.lower().split())) * 2 >= len(words_) for c in chosen):
            continue  # mostly the same words as a phrase already chosen
        chosen.append(surface[phrase])
        if len(chosen) >= limit:
            break
    return chosen


# --- facts -------------------------------------------------------------------------------------------------------

def numbers(text: str) -> list[str]:
    return [m.group(0).rstrip(",") for m in _NUMBER.finditer(text)]


def years(text: str) -> list[str]:
    return [m.group(1) for m in _YEAR.finditer(text)]


def has_month(text: str) -> bool:
    return bool(_MONTH_RE.search(text))


def names(text: str) -> list[str]:
    """Capitalised word sequences that are not just a sentence-initial function word ("The", "In")."""
    found: list[str] = []
    for sentence in sentences(text):
        tokens = _TOKEN.findall(sentence)
        run: list[str] = []
        for i, tok in enumerate(tokens + [""]):
            capital = tok[:1].isupper() and not (i == 0 and tok.lower() in STOPWORDS)
            if capital or (run and tok.lower() in _NAME_GLUE and i + 1 < len(tokens)
                           and tokens[i + 1][:1].isupper()):
                run.append(tok)
                continue
            while run and run[-1].lower() in _NAME_GLUE:
                run.pop()
            if run:
                found.append(" ".join(run))
            run = []
    return found


def fact_density(sentence: str) -> float:
    """How many checkable facts a sentence carries: numbers and dates count double (they are what a question
    asks for and what a contradiction changes), names once, each kind capped so a list does not win."""
    quantities = len(numbers(sentence)) + int(has_month(sentence))
    return 2.0 * min(2, quantities) + min(3, len(names(sentence)))


def content_tokens(text: str) -> list[str]:
    return tokenize(text)
