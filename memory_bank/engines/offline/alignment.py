"""How well each sentence covers the question word by word, paraphrases included.

For every content word of the question, its closest word of the sentence by contextual token vector (MiniLM's,
the embedder already loaded); the sentence's alignment is the mean of those closest similarities — the recall
half of BERTScore. A sentence the question was worded from aligns nearly word for word even where it rephrases
("weary Mongol forces" / "exhausted Mongols"); a sentence that only shares the topic leaves the question's
specific words unmatched. One sentence vector (the cosine signal) blurs exactly that difference. Measured on
bench/squad_unanswerable.py's dumps (seed 13, answerable questions answered right vs made-unanswerable ones): AUC
0.85, against 0.83 for the phrase signal and 0.77 for the cosine (bench/OFFLINE_RESULTS.md, section 1b).

Without token vectors (the hashing fallback, a test double) a word aligns only with itself: the alignment is
the share of the question's content words the sentence contains.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from ...retrieval.embedding import TokenVectors, token_source
from ...text.tokens import STOPWORDS, stems


def _is_content(piece: str) -> bool:
    """A whole word (not a '##' continuation, not punctuation) that is not a stopword."""
    return piece.isalnum() and piece not in STOPWORDS


def word_matches(question: TokenVectors, sentence: TokenVectors, given: frozenset[str] = frozenset()) -> np.ndarray:
    """For each content word of the question, its closest similarity in the sentence, in [0, 1]; a word in
    `given` (lower case) is matched outright."""
    keep = [i for i, piece in enumerate(question.pieces) if _is_content(piece)]
    if not keep or not len(sentence.vectors):
        return np.zeros(len(keep), dtype=np.float32)
    similarity = question.vectors[keep] @ sentence.vectors.T
    out = np.clip(similarity.max(axis=1), 0.0, 1.0).astype(np.float32)
    if given:
        out[[k for k, i in enumerate(keep) if _whole_word(question.pieces, i) in given]] = 1.0
    return out


def _whole_word(pieces: Sequence[str], i: int) -> str:
    """The word whose first piece is `pieces[i]` ("acme" of "ac", "##me")."""
    j = i + 1
    while j < len(pieces) and pieces[j].startswith("##"):
        j += 1
    return pieces[i] + "".join(p[2:] for p in pieces[i + 1:j])


def soft_recall(question: TokenVectors, sentence: TokenVectors) -> float:
    return recall(word_matches(question, sentence))


def recall(matches: np.ndarray, weights: np.ndarray | None = None) -> float:
    """The alignment of per-word matches: their mean (0 for a question with no content word), weighted by
    `weights` when given (one per word: how much each word decides)."""
    if not len(matches):
        return 0.0
    if weights is None or not float(weights.sum()):
        return float(matches.mean())
    return float(matches @ weights / weights.sum())


class Aligner:
    def __init__(self, embedder: object) -> None:
        self.tokens = token_source(embedder)

    def run(self, question: str, sentences: list[str]) -> np.ndarray:
        """The alignment of each sentence with the question, in [0, 1]."""
        return np.array([recall(m) for m in self.matches(question, sentences)], dtype=np.float32)

    def matches(self, question: str, sentences: list[str],
                given: list[frozenset[str]] | None = None) -> list[np.ndarray]:
        """Per sentence, how closely it matches each content word of the question (one array length for all
        sentences): the alignment before it is averaged, so the matches of several sentences of one passage can
        be combined word by word (a question worded from two sentences, or a sentence whose subject another one
        names). `given`: per sentence, lower-case question words it meets without saying them (`named_by`)."""
        return self.aligned(question, sentences, given)[1]

    def aligned(self, question: str, sentences: list[str],
                given: list[frozenset[str]] | None = None) -> tuple[list[str], list[np.ndarray]]:
        """`matches`, with the question's content words (lower case) the entries of each array stand for, so
        that a caller can weigh the words (a word every sentence at hand says decides little)."""
        if not sentences:
            return [], []
        given = given or [frozenset()] * len(sentences)
        if self.tokens is None:
            wanted = list(dict.fromkeys(stems(question)))
            have = [set(stems(s)) | set(g) for s, g in zip(sentences, given)]
            return wanted, [np.array([w in words for w in wanted], dtype=np.float32) for words in have]
        vectors = self.tokens.token_vectors([question, *sentences])
        pieces = vectors[0].pieces
        words = [_whole_word(pieces, i) for i, piece in enumerate(pieces) if _is_content(piece)]
        return words, [word_matches(vectors[0], v, g) for v, g in zip(vectors[1:], given)]


_NAME_WORD = re.compile(r"[A-Za-z]{3,}")
_FILE_WORDS = frozenset({"pdf", "txt", "html", "htm", "docx", "md", "markdown", "csv", "json"})


_SELF = re.compile(r"\b(?:we|our|us|the company(?:['’]s)?)\b", re.IGNORECASE)


def named_by(question: str, sentence: str, source: str) -> frozenset[str]:
    """The question's capitalised words that name the document itself ("Oracle" of a question on
    ORACLE_2023_10K.pdf), met by a sentence of it that speaks of its author as "we" or "the Company"."""
    if not _SELF.search(sentence):
        return frozenset()
    in_name = {w.lower() for w in _NAME_WORD.findall(source)} - _FILE_WORDS
    return frozenset(w.lower() for w in re.findall(r"\b[A-Z][A-Za-z]{2,}", question) if w.lower() in in_name)


# a sentence that points back at its topic: "The primary benefit of this model …", "It is …"
_POINTS_BACK = re.compile(r"\b(?:this|these|such)\s+[a-z]|^\s*(?:it|they)\b", re.IGNORECASE)


def titled_by(question: str, sentence: str, section: tuple[str, ...]) -> frozenset[str]:
    """The question's words (lower case) its sub-section's title says, for a sentence that points back at its
    topic: "The primary benefit of this model over the others …" under "3.2.3 Resource Portal-Based Deployment"
    meets "resource portal" without saying it. Only a sub-section's title: a top section (an article, a chapter,
    a filing's part) names the whole document's subject, which every sentence of it would then meet."""
    if len(section) < 2 or not _POINTS_BACK.search(sentence):
        return frozenset()
    title = {w.lower() for w in _NAME_WORD.findall(section[-1])}
    return frozenset(w.lower() for w in _NAME_WORD.findall(question) if w.lower() in title)


MAX_SPELLED = 500  # acronyms looked for in one question (a document defines tens; an import may define anything)
_ACRONYM_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9&]{0,11}")


def spelled_forms(question: str, acronyms: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """The acronyms whose long form the question writes out, each with the question words that long form is made
    of (lower case, and their stems for the word-count fallback): "Can the policy engine and the policy
    administrator be combined …?" writes out "PE" and "PA", the forms the document's sentences then use."""
    asked = " ".join(question.lower().split())
    out: dict[str, frozenset[str]] = {}
    for acronym, long_form in list(acronyms.items())[:MAX_SPELLED]:
        words = long_form.lower().split()
        if len(words) < 2 or len(acronym) < 2:
            continue
        phrase = r"[\s-]+".join(re.escape(w) for w in words)
        if re.search(rf"(?<![\w-]){phrase}(?![\w-])", asked):
            content = [w for w in words if w not in STOPWORDS]
            out[acronym] = frozenset([*content, *stems(" ".join(content))])
    return out


def spelled_by(forms: Mapping[str, frozenset[str]], sentence: str) -> frozenset[str]:
    """The question's words a sentence meets by the acronym of their long form ("PE" for "policy engine"): a
    document defines an acronym once and then says only it."""
    if not forms:
        return frozenset()
    said = set(_ACRONYM_TOKEN.findall(sentence))
    return frozenset(w for acronym, words in forms.items() if acronym in said or f"{acronym}s" in said
                     for w in words)
