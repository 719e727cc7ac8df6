"""Extractive answering: pick the sentences of the evidence that best answer a question, within ~50 words.

A sentence answers well when it repeats the question's rarer words (lexical match, weighted by idf over the
evidence), means the same thing (embedding cosine), and contains the kind of thing the question asks for (a year
for "when", a number for "how many", a name for "who"). The answer is the best sentence, completed with the
next best one while the word limit allows, cut around the question's words when a sentence alone is too long.
Document furniture (a table of contents, an acronym list, a notice) is cited only when no body sentence
answers: it names topics, body text explains them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ...retrieval.embedding import Embedder
from ...text.coverage import coverage
from ...text.furniture import Role
from ...text.tokens import stem, stems
from .alignment import Aligner, recall
from .classification import is_heading
from .nlp import Idf, has_month, is_leader_line, numbers, sentences, years

_DATE_Q = re.compile(r"\b(when|what year|which year|what date|what day|what month|what century|what decade|"
                     r"which century|which decade|how long ago|since when)\b")
_NUMBER_Q = re.compile(r"\b(how many|how much|how long|how far|how old|how large|how big|how high|how tall|"
                       r"how deep|how fast|what percentage|what percent|what number|what amount|what size)\b")
_NAME_Q = re.compile(r"\b(who|whom|whose|where|which company|which team|what company|what team|what city|"
                     r"what country|which city|which country|what state|which state|what name)\b")
_WORD = re.compile(r"\S+")
# "How does the policy engine decide ...?" asks for a manner or a means: a sentence saying what is used, by what
# process or on what input ("the trust algorithm is the process used by the policy engine to grant or deny")
_MANNER_Q = re.compile(r"^\s*how (?:does|do|did|is|are|was|were|can|could|should|would|will|has|have|had)\b")
_MEANS = re.compile(r"\b(?:by|through|using|uses?|used|via|based on|according to|process|method|mechanism|"
                    r"algorithm|input|means)\b", re.IGNORECASE)
PHRASE_WINDOW = 3  # content words at most this far apart form a pair of a phrase
_DEFINITION_Q = re.compile(r"^\s*what(?: is|'s| are) (?:an? |the )?(?P<term>[\w\- ]{2,60}?)\s*\??\s*$", re.IGNORECASE)
# "What are the core components of X?" asks for several things: a sentence that announces or holds a list
# (a bullet, "the following", a colon opening numbered items) is the kind of sentence that answers it
_LIST_Q = re.compile(r"^\s*(?:what|which) (?:are|were) the\b[^?]*?\b[a-z]{3,}s\b", re.IGNORECASE)
_ANNOUNCES = re.compile(r":\s*(?:1[.)])?\s*$")  # "... the following tenets:" or "... tenets: 1."
_LISTS = re.compile(r"•|:\s*$|\bthe following\b|:\s*(?:\d{1,2}[.)]|[-*])\s", re.IGNORECASE)
_NOT_A_TERM = frozenset({"of", "in", "for", "on", "to", "by", "with", "from", "that", "which", "when", "where", "why",
                         "how", "who", "does", "did", "do", "name", "purpose", "role", "difference"})


@dataclass(frozen=True)
class Evidence:
    """A sentence of the documents and where it came from."""

    text: str
    node_id: str
    source: str = ""
    pages: tuple[int, ...] = ()
    prior: float = 0.0  # how strongly retrieval ranked the text it came from, in [0, 1]
    role: Role = Role.BODY  # the role of the node it came from: furniture is cited only when body text fails
    printed: tuple[tuple[int, str], ...] = ()  # (PDF page, printed page) for the pages known: hashable


@dataclass(frozen=True)
class Signals:
    """What the best sentence says about whether the evidence answers the question at all.

    `cosine`: its embedding cosine with the question; `phrase`: the share of the question's word pairs (content
    words at most PHRASE_WINDOW apart, in order) that it repeats in the same order: a question worded from a
    paragraph that is gone still finds its topic words elsewhere in the article, but rarely its phrases
    ("Kenyatta's second term" is worded apart from "Kenyatta" and "term"). `align`: the word-by-word alignment
    of the question (alignment.py), each word matched in any sentence of the best sentence's node, so a
    question worded from two sentences, or a sentence whose subject another sentence of its passage names ("Kenya
    ..." / "The country's literacy level ..."), is not taken for an absent answer.
    """

    cosine: float
    phrase: float
    align: float


@dataclass(frozen=True)
class FoundModel:
    """A logistic model of "the best sentence answers the question" over its `Signals`; below 0 the honest
    answer is "not found". Fit by bench/not_found_fit.py on made-unanswerable SQuAD questions, seeds 13, 7, 1, 2
    and 3 pooled (500 questions whose paragraph was removed against the answerable ones whose best two sentences
    hold the gold answer; balanced classes), seed 21 held out; the bias is where those seeds refuse 0.62 of the
    removed-paragraph questions. The idf-weighted word share, a signal of the first models, adds
    nothing once the alignment is in; the margin of the best sentence over the next one helped on those
    questions but refused more answerable ones on the full book (bench/OFFLINE_RESULTS.md, section 1b)."""

    bias: float = -8.95
    cosine: float = 2.50
    phrase: float = 2.19
    align: float = 11.61

    def logit(self, s: Signals) -> float:
        return self.bias + self.cosine * s.cosine + self.phrase * s.phrase + self.align * s.align

    def found(self, s: Signals) -> bool:
        return self.logit(s) >= 0.0


@dataclass(frozen=True)
class AnswerConfig:
    """Weights of the sentence score, and the model that decides whether the evidence answers at all."""

    max_words: int = 50
    lexical_weight: float = 0.5
    cosine_weight: float = 0.4
    align_weight: float = 0.6
    type_weight: float = 0.12
    prior_weight: float = 0.08
    found: FoundModel = field(default_factory=FoundModel)
    min_fill_words: int = 8


@dataclass
class Answer:
    text: str
    used: list[Evidence] = field(default_factory=list)
    score: float = 0.0
    found: bool = True


def expected_type(question: str) -> str:
    q = question.lower()
    if _DATE_Q.search(q):
        return "date"
    if _NUMBER_Q.search(q):
        return "number"
    if _NAME_Q.search(q):
        return "name"
    if _LIST_Q.search(q):
        return "list"
    if _MANNER_Q.search(q):
        return "manner"
    return ""


def defined_term(question: str) -> str | None:
    """The term a "What is X?" question asks to define (at most four words, no relation such as "the capital
    of"), or None."""
    match = _DEFINITION_Q.match(question)
    if not match:
        return None
    term = match.group("term").strip()
    words_ = term.lower().split()
    return term if 0 < len(words_) <= 4 and not _NOT_A_TERM & set(words_) else None


def defines(sentence: str, term: str) -> bool:
    """Does the sentence define the term: "X is ...", "X (abbreviation) are ...", "X refers to ...", "X: ..."?"""
    pattern = rf"\b{re.escape(term)}\b(?:\s*\([^)]{{1,20}}\))?(?:\s+(?:is|are|refers to|means|denotes)\b|\s*:)"
    return re.search(pattern, sentence, re.IGNORECASE) is not None


def has_type(sentence: str, kind: str, question_stems: set[str]) -> bool:
    """Does the sentence hold something of the asked kind that the question does not already contain?"""
    if kind == "date":
        return any(stem(y) not in question_stems for y in years(sentence)) or has_month(sentence)
    if kind == "number":
        return any(n not in question_stems for n in numbers(sentence))
    if kind == "name":
        caps = [w.strip(".,;:()\"'") for w in _WORD.findall(sentence)[1:] if w[:1].isupper()]
        return any(stem(c.lower()) not in question_stems for c in caps if c)
    if kind == "list":
        return _LISTS.search(sentence) is not None
    if kind == "manner":
        return _MEANS.search(sentence) is not None
    return False


@dataclass
class Ranked:
    """The evidence's sentences scored for a question: what the answer is composed from, and what the
    `FoundModel` reads of a sentence before it is given as the answer."""

    pool: list[Evidence]
    scores: list[float]
    order: list[int]  # indices into pool, best first
    cosine: list[float]
    matches: list[np.ndarray]  # per sentence, its match of each content word of the question (alignment.py)
    question_pairs: set[tuple[str, str]]

    def signals(self, i: int) -> Signals:
        pairs = self.question_pairs
        phrase = len(pairs & ordered_pairs(stems(self.pool[i].text))) / len(pairs) if pairs else 0.0
        return Signals(cosine=self.cosine[i], phrase=phrase, align=recall(_node_matches(self.matches, self.pool, i)))


class Answerer:
    def __init__(self, embedder: Embedder, config: AnswerConfig | None = None) -> None:
        self.embedder = embedder
        self.config = config or AnswerConfig()
        self.aligner = Aligner(embedder)

    def answer(self, question: str, evidence: list[Evidence], said: frozenset[str] = frozenset()) -> Answer:
        """`said`: sentences another part of the same reply already shows; they are not repeated as filler."""
        ranked = self.rank(question, evidence)
        if ranked is None:
            return Answer(text="", found=False)
        pool, order, found = ranked.pool, ranked.order, self.config.found.found
        body = [i for i in order if pool[i].role is Role.BODY]
        if body and found(ranked.signals(body[0])):
            return self._compose(question, pool, body, ranked.scores[body[0]], said)
        best = order[0]
        if (body and best == body[0]) or not found(ranked.signals(best)):  # body[0] was judged just above
            return Answer(text="", used=[pool[best]], score=ranked.scores[best], found=False)
        return self._compose(question, pool, order, ranked.scores[best], said)

    def rank(self, question: str, evidence: list[Evidence]) -> Ranked | None:
        """The distinct sentences of the evidence scored for the question, best first (None without any)."""
        pool = _dedupe(evidence)
        if not pool:
            return None
        sent_stems = [frozenset(stems(ev.text)) for ev in pool]
        idf = Idf([list(st) for st in sent_stems])  # over the evidence at hand: a word all of it has decides little
        weights = {t: idf(t) for t in dict.fromkeys(stems(question))}
        lexical = [coverage(weights, st) for st in sent_stems]
        cosine = [float(c) for c in self._cosine(question, pool)]
        matches = self.aligner.matches(question, [ev.text for ev in pool])
        kind = expected_type(question)
        term = None if kind else defined_term(question)
        q_stems = set(stems(question))
        cfg = self.config
        scores = [cfg.lexical_weight * lexical[i] + cfg.cosine_weight * cosine[i]
                  + cfg.align_weight * recall(matches[i])
                  + cfg.type_weight * (defines(ev.text, term) if term else has_type(ev.text, kind, q_stems))
                  + cfg.prior_weight * ev.prior
                  for i, ev in enumerate(pool)]
        order = sorted(range(len(pool)), key=lambda i: (-scores[i], i))
        return Ranked(pool, scores, order, cosine, matches, ordered_pairs(stems(question)))

    def _cosine(self, question: str, pool: list[Evidence]) -> np.ndarray:
        vectors = self.embedder.embed([question] + [ev.text for ev in pool])
        return vectors[1:] @ vectors[0]

    def _compose(self, question: str, pool: list[Evidence], order: list[int], score: float,
                 said: frozenset[str] = frozenset()) -> Answer:
        """Best sentence first; then the next best ones while they fit, the last one cut to the room left
        around the question's words (a second sentence often holds the answer next to the matching one). A best
        sentence ending in a colon announces a list: the sentences that follow it in its source come next."""
        limit = self.config.max_words
        first = pool[order[0]]
        if len(first.text.split()) > limit:
            return Answer(text=window(first.text, question, limit), used=[first], score=score)
        used, parts = [first], [first.text]
        size = len(first.text.split())
        announced = _following(pool, order[0]) if announces_list(first.text) else []
        for i in announced + [i for i in order[1:4] if i not in announced and pool[i].text not in said]:
            room = limit - size
            extra = len(pool[i].text.split())
            if extra <= room:
                used.append(pool[i])
                parts.append(pool[i].text)
                size += extra
            elif room >= self.config.min_fill_words:
                used.append(pool[i])
                parts.append(window(pool[i].text, question, room))
                break
        return Answer(text=" ".join(parts), used=used, score=score)


def announces_list(sentence: str) -> bool:
    """Does the sentence open a list its next sentences hold ("... the following tenets:")?"""
    return _ANNOUNCES.search(sentence) is not None


def ordered_pairs(seq: list[str], window: int = PHRASE_WINDOW) -> set[tuple[str, str]]:
    """Every (earlier, later) pair of words at most `window` apart: a phrase's trace that survives an inserted
    adjective or a stopword dropped."""
    return {(seq[i], seq[j]) for i in range(len(seq)) for j in range(i + 1, min(len(seq), i + window + 1))}


def window(sentence: str, question: str, limit: int) -> str:
    """The `limit`-word stretch of a long sentence holding most of the question's words (earliest on ties)."""
    words_ = sentence.split()
    q_stems = set(stems(question))
    hits = [1 if stem(w.strip(".,;:()\"'").lower()) in q_stems else 0 for w in words_]
    best_start, best_hits = 0, -1
    for start in range(0, len(words_) - limit + 1):
        count = sum(hits[start:start + limit])
        if count > best_hits:
            best_start, best_hits = start, count
    cut = words_[best_start:best_start + limit]
    prefix = "… " if best_start > 0 else ""
    suffix = " …" if best_start + limit < len(words_) else ""
    return prefix + " ".join(cut) + suffix


def _following(pool: list[Evidence], index: int, limit: int = 6) -> list[int]:
    """The sentences after `pool[index]` from the same node, in source order (the pool keeps that order)."""
    out: list[int] = []
    for j in range(index + 1, min(len(pool), index + 1 + limit)):
        if pool[j].node_id != pool[index].node_id:
            break
        out.append(j)
    return out


def _node_matches(matches: list[np.ndarray], pool: list[Evidence], index: int) -> np.ndarray:
    """Each question word's best match in any sentence of the evidence from the node `pool[index]` came from."""
    best = matches[index]
    for j, ev in enumerate(pool):
        if ev.node_id == pool[index].node_id:
            best = np.maximum(best, matches[j])
    return best


def _dedupe(evidence: list[Evidence]) -> list[Evidence]:
    seen: set[str] = set()
    out: list[Evidence] = []
    for ev in evidence:
        key = " ".join(ev.text.lower().split())
        if key and key not in seen:
            seen.add(key)
            out.append(ev)
    return out


def answerable(sentence: str) -> bool:
    """Contents lines and headings are no evidence: they name a topic and answer nothing."""
    return not is_leader_line(sentence) and not is_heading(sentence)


def split_evidence(text: str, node_id: str, source: str, pages: tuple[int, ...], prior: float,
                   role: Role = Role.BODY, printed: Mapping[int, str] | None = None) -> list[Evidence]:
    """Every answerable sentence of a text."""
    known = tuple(sorted((printed or {}).items()))
    return [Evidence(s, node_id, source, pages, prior, role, known) for s in sentences(text) if answerable(s)]
