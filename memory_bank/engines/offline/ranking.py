"""Which sentence of the evidence answers the question: a linear model over what each sentence shows.

Each distinct sentence gets the features below and a score, their weighted sum (`SentenceModel`); the answer is
composed from the best. The weights are a conditional logit (the gold sentence against the rest of its pool)
fit by bench/answer_rank_fit.py on SQuAD questions of the dev book, through the product's own evidence and
these features; the questions it is checked on (seeds 13, 7 and 21 of the benchmarks) are left out of the fit.

The features: `lexical`, the idf-weighted share of the question's words it repeats (idf over the evidence at
hand: a word all of it has decides little); `cosine`, its embedding cosine with the question; `align`, the
word-by-word alignment of the question (alignment.py); `typed`, whether it holds the kind of thing asked (a date
for "when", a definition for "What is X?", question_types.py); `prior`, how high retrieval ranked its node;
`node_align`, the alignment over every shown sentence of its node (a question worded from a passage, not from
one sentence of it); `context`, how much the sentence before it in the document adds to its alignment (the
answer often follows the sentence that repeats the question: "The plugs-out test began ... and was plagued with
problems." / "First the crew noticed a strange odor ..."), and `anaphor_context` the same when it opens by
pointing back ("He", "Its", "The event"); `sure`, the share of the question's words it matches closely.

A sentence naming the asked quarter of another year ("the fourth quarter of 2021" for a question on the fourth
quarter of 2022, text/periods.py) is ranked after every other: its words match, its period does not. So is, for a
question asking an amount done ("How much did Apple spend on ...?"), a sentence stating an amount as a limit or an
authorisation (text/capacity.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import astuple, dataclass, field, fields

import numpy as np

from ...retrieval.embedding import Embedder
from ...text.capacity import asks_amount_done, states_capacity
from ...text.counts import counted_marks, question_terms, sentence_terms
from ...text.coverage import coverage
from ...text.furniture import Role, in_capitals, in_furniture_section, name_run
from ...text.periods import misdated_month, misdated_period, periods
from ...text.signposts import asks_where, points_elsewhere
from ...text.tokens import stem, stems
from .alignment import Aligner, named_by, recall, spelled_by, spelled_forms, titled_by
from .constraints import opposite_words, other_member, unmet_terms, unsaid_measure
from .dated_event import redated
from .denied import denied
from .evidence import Evidence, distinct
from .found import Signals
from .nlp import Idf
from .question_types import COUNT, asked_title, defined_term, definition, expected_type, has_type, holds_title
from .slots import other_agent, renumbered, swapped_names
from .specifics import asked_years, misdated

# a sentence counting the very noun a "how many" question asks about ("164,000 full-time employees") holds the
# asked kind more surely than one holding any number, the evidence `typed`'s weight was fit on
COUNT_TYPED = 2.0
# a sentence naming someone beside the office a "Who is …'s Chief Executive Officer?" asks about ("Safra A. Catz, the
# Chief Executive Officer") holds the asked kind as surely as a glossary entry defines its term
HOLDER_TYPED = 2.0
PHRASE_WINDOW = 3  # content words at most this far apart form a pair of a phrase
SURE_MATCH = 0.8  # a question word matched at least this closely is matched for sure
SUBJECT_SHARE = 0.5  # a question word at least this share of the evidence says is its subject (found_alignment)
_ANAPHOR = re.compile(r"^(?:he|she|it|its|they|their|his|her|this|these|those|each|both|first|then|there|here|the)\b",
                      re.IGNORECASE)


@dataclass(frozen=True)
class SentenceModel:
    """The weight of each feature in a sentence's score (the features are described in the module docstring)."""

    lexical: float = 3.18
    cosine: float = 3.77
    align: float = 5.39
    typed: float = 1.69
    prior: float = 1.65
    node_align: float = 5.30
    context: float = 3.76
    anaphor_context: float = 2.24
    sure: float = 0.62

    @staticmethod
    def names() -> list[str]:
        return [f.name for f in fields(SentenceModel)]

    def weights(self) -> np.ndarray:
        return np.array(astuple(self), dtype=np.float64)


# the feature columns the FoundModel's signals read back (Signals.cosine, Signals.align)
_COSINE, _NODE_ALIGN = SentenceModel.names().index("cosine"), SentenceModel.names().index("node_align")


@dataclass
class Ranked:
    """The evidence's sentences scored for a question: what the answer is composed from, and what the
    `FoundModel` reads of a sentence before it is given as the answer."""

    pool: list[Evidence]
    features: np.ndarray  # one row per sentence, one column per SentenceModel field
    scores: list[float]
    order: list[int]  # indices into pool, best first
    question_pairs: set[tuple[str, str]]
    years: tuple[str, ...] = ()  # the years the question asks about (specifics.asked_years)
    question: str = ""
    placed_align: list[float] | None = None  # per sentence, `found_alignment`: what the FoundModel reads
    # `near_miss` per sentence and question, read once: the answerer, its fallback and its account branch each judge
    # the lead
    _unmet: dict[tuple[int, str], list[str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def body(self) -> list[int]:
        """The body sentences, best first: furniture (by its node's role, or by a section it was read in: a
        table of contents, an index of exhibits), and a caption or heading set in capitals, is cited only when no
        body sentence answers; so is a run of names read as one sentence (an exhibit's list of subsidiaries), and a
        sentence saying only where the document discusses a thing ("Section 5 discusses threats …", signposts.py)."""
        return [i for i in self.order if self.pool[i].role is Role.BODY and not in_capitals(self.pool[i].text)
                and not name_run(self.pool[i].text)
                and not in_furniture_section(self.pool[i].section)
                and not (points_elsewhere(self.pool[i].text) and not asks_where(self.question))]

    def lead(self) -> int:
        """The sentence an answer opens with when it is found, and the one judged first: the best body
        sentence, else the best of all."""
        return (self.body() or self.order)[0]

    def misdated(self, i: int) -> bool:
        """Does the passage of sentence `i` (its node's sentences among the evidence) give other years than the
        question asks about, and the evidence of its part of the documents (its top section) too: a near miss,
        not an answer. The section's word is wanted because a passage leaves out the year its section is about
        ("the regular season" of an article on the 2015 season). A sentence dating itself by other months of the
        asked month's year is misdated too ("in May 2022" of a repurchase row for "August 28, 2022 to September
        24, 2022")."""
        ev = self.pool[i]
        if misdated_month(self.question, ev.text):
            return True
        passage = " ".join(e.text for e in self.pool if e.node_id == ev.node_id or e.section == ev.section)
        section = " ".join(e.text for e in self.pool if e.section[:1] == ev.section[:1])
        return misdated(self.years, passage) and misdated(self.years, section)

    def near_miss(self, i: int) -> list[str]:
        """What the question asks that sentence `i` does not say (constraints.py): a name, number or year of
        the question absent from it and its neighbours, a word it says the other way round or answers with another
        member of its closed set ("breakfast" / "dinner"), the share, year or thing counted that the question asks
        for; or (slots.py) a name whose place the sentence gives another name, a numbered name of which it names
        a sibling, or an asked agent's act it says was done by other names; or (dated_event.py) the asked year said
        of another of its events. Empty when it meets every constraint checked."""
        key = (i, self.question)
        if key not in self._unmet:
            self._unmet[key] = self._near_miss(i)
        return list(self._unmet[key])

    def _near_miss(self, i: int) -> list[str]:
        ev = self.pool[i]
        near = " ".join(e.text for e in self.pool if e.node_id == ev.node_id and abs(e.position - ev.position) <= 1)
        topic = " ".join((ev.source, *ev.section))
        near = near or ev.text
        # a name its part of the documents says throughout need not be said near it (themes.py); a name put in
        # another's place is still a swap, however often the section says it ("the Carolina Panthers defeat")
        passage = " ".join(e.text for e in self.pool if e.node_id == ev.node_id or e.section == ev.section)
        return (unmet_terms(self.question, near, " ".join((topic, *ev.themes)), ev.text, passage)
                + opposite_words(self.question, ev.text)
                + unsaid_measure(self.question, ev.text, near) + other_member(self.question, ev.text, near)
                + swapped_names(self.question, ev.text, near, topic)
                + renumbered(self.question, ev.text) + denied(self.question, ev.text)
                + redated(self.question, ev.text) + other_agent(self.question, ev.text))

    def signals(self, i: int) -> Signals:
        pairs = self.question_pairs
        phrase = len(pairs & ordered_pairs(stems(self.pool[i].text))) / len(pairs) if pairs else 0.0
        align = self.placed_align[i] if self.placed_align is not None else float(self.features[i, _NODE_ALIGN])
        return Signals(cosine=float(self.features[i, _COSINE]), phrase=phrase, align=align)


class SentenceRanker:
    def __init__(self, embedder: Embedder, model: SentenceModel | None = None,
                 acronyms: Callable[[], Mapping[str, str]] | None = None) -> None:
        """`acronyms`: the ones the documents define (the view's), read at each question (documents are added)."""
        self.embedder = embedder
        self.model = model or SentenceModel()
        self.aligner = Aligner(embedder)
        self.acronyms = acronyms

    def run(self, question: str, evidence: list[Evidence]) -> Ranked | None:
        """The distinct sentences of the evidence scored for the question, best first (None without any)."""
        pool = distinct(evidence)
        if not pool:
            return None
        # token vectors first: their pass also gives the sentence vectors, which the cosine then finds cached
        # a word is met by the document's own name for it: "Oracle" by "we", a sub-section's title by "this model",
        # "policy engine" by its acronym "PE"
        spelled = spelled_forms(question, self.acronyms()) if self.acronyms is not None else {}
        given = [named_by(question, ev.text, ev.source) | titled_by(question, ev.text, ev.section)
                 | spelled_by(spelled, ev.text) for ev in pool]
        words, matches = self.aligner.aligned(question, [ev.text for ev in pool], given)
        cosine = [float(c) for c in self._cosine(question, pool)]
        features = _features(question, pool, cosine, matches, words, spelled)
        scores = [float(s) for s in features @ self.model.weights()]
        # "the fourth quarter of 2021" says the words of "the fourth quarter of 2022" and is about another quarter
        # "up to $405 billion" is what the board authorised, not what "How much did Apple spend ...?" asks
        period = periods(question)
        done = asks_amount_done(question)
        order = sorted(range(len(pool)), key=lambda i: (misdated_period(period, pool[i].text),
                                                        done and states_capacity(pool[i].text), -scores[i], i))
        return Ranked(pool, features, scores, order, ordered_pairs(stems(question)), asked_years(question), question,
                      found_alignment(pool, matches, words))

    def _cosine(self, question: str, pool: list[Evidence]) -> np.ndarray:
        vectors = self.embedder.embed([question] + [ev.text for ev in pool])
        return vectors[1:] @ vectors[0]


def _features(question: str, pool: list[Evidence], cosine: list[float], matches: list[np.ndarray],
              words: list[str], spelled: Mapping[str, frozenset[str]]) -> np.ndarray:
    # a sentence saying "ZTA" says "zero trust architecture": the idf counts it, so a long form the document's
    # sentences all say by its acronym weighs as little as any word they all say
    sentence_stems = [sentence_terms(ev.text) | spelled_by(spelled, ev.text) for ev in pool]
    idf = Idf([list(st) for st in sentence_stems])
    weights = {t: idf(t) for t in question_terms(question)}
    # the alignment weighs each question word by its idf, softened (square root): a word the evidence says throughout
    # (a document's own subject, "zero trust architecture" in NIST SP 800-207) tells its sentences apart little, and
    # yet a question's common words still count ("net sales" of "net sales in India": the full idf let a sentence on
    # manufacturing in India lead)
    word_weights = np.sqrt(np.array([idf(stem(w)) for w in words], dtype=np.float64)) if words else None
    kind = expected_type(question)
    term = None if kind else defined_term(question)
    title = asked_title(question)  # "Who is Oracle's Chief Executive Officer?": its holder named beside it
    question_stems = set(stems(question))
    counted = counted_marks(question)
    typed = COUNT_TYPED if kind == COUNT else 1.0
    at = {(ev.node_id, ev.position): i for i, ev in enumerate(pool) if ev.position >= 0}
    node_align = {node: recall(best, word_weights) for node, best in _node_matches(matches, pool).items()}
    rows = []
    for i, ev in enumerate(pool):
        align = recall(matches[i], word_weights)
        before = at.get((ev.node_id, ev.position - 1)) if ev.position > 0 else None
        context = (recall(np.maximum(matches[i], matches[before]), word_weights) - align
                   if before is not None else 0.0)
        rows.append((coverage(weights, sentence_stems[i]), cosine[i], align,
                     typed * (definition(ev.text, term) if term
                              # a count: a number counting the asked noun ("164,000 full-time employees")
                              else not sentence_stems[i].isdisjoint(counted) if kind == COUNT
                              else HOLDER_TYPED if title and holds_title(ev.text, title)
                              else has_type(ev.text, kind, question_stems)),
                     ev.prior, node_align[ev.node_id], context,
                     context if _ANAPHOR.match(ev.text) else 0.0,
                     float((matches[i] >= SURE_MATCH).mean()) if len(matches[i]) else 0.0))
    return np.array(rows, dtype=np.float64).reshape(len(pool), len(SentenceModel.names()))


def found_alignment(pool: list[Evidence], matches: list[np.ndarray], words: list[str]) -> list[float]:
    """Per sentence, the plain (unweighted) alignment of its node, the `FoundModel`'s signal, with the question's
    subject words met by where the sentence stands: a word most of the evidence says (`SUBJECT_SHARE`) that the
    titles of the sentence's sections say. A sentence under "3 Logical Components of Zero Trust Architecture" is
    about zero trust architecture without saying it, and answers "Is a VPN required in a zero trust architecture?".
    A rarer word of a title ("iPhone", a year of "Fiscal 2022 Highlights") is still to be said: it narrows what is
    asked. The ranking leaves titles out (every sentence of a part would meet them alike)."""
    said = [set(stems(ev.text)) for ev in pool]
    subject = {w for w in words if w.isalpha() and sum(stem(w) in s for s in said) >= SUBJECT_SHARE * len(pool)}
    best = _node_matches(matches, pool)
    out: list[float] = []
    for ev in pool:
        titled = set(stems(" ".join(ev.section)))
        met = np.array([w in subject and stem(w) in titled for w in words], dtype=bool)
        node = best[ev.node_id]
        out.append(recall(np.where(met, 1.0, node) if len(met) == len(node) else node))
    return out


def ordered_pairs(seq: list[str], window: int = PHRASE_WINDOW) -> set[tuple[str, str]]:
    """Every (earlier, later) pair of words at most `window` apart: a phrase's trace that survives an inserted
    adjective or a stopword dropped."""
    return {(seq[i], seq[j]) for i in range(len(seq)) for j in range(i + 1, min(len(seq), i + window + 1))}


def _node_matches(matches: list[np.ndarray], pool: list[Evidence]) -> dict[str, np.ndarray]:
    """Per node, each question word's best match in any of its sentences among the evidence."""
    best: dict[str, np.ndarray] = {}
    for ev, m in zip(pool, matches):
        best[ev.node_id] = np.maximum(best[ev.node_id], m) if ev.node_id in best else m
    return best
