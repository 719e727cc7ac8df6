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

import numpy as np

from ...retrieval.embedding import TokenVectors, token_source
from ...text.tokens import STOPWORDS, stems


def _is_content(piece: str) -> bool:
    """A whole word (not a '##' continuation, not punctuation) that is not a stopword."""
    return piece.isalnum() and piece not in STOPWORDS


def soft_recall(question: TokenVectors, sentence: TokenVectors) -> float:
    keep = [i for i, piece in enumerate(question.pieces) if _is_content(piece)]
    if not keep or not len(sentence.vectors):
        return 0.0
    similarity = question.vectors[keep] @ sentence.vectors.T
    return float(np.clip(similarity.max(axis=1), 0.0, 1.0).mean())


class Aligner:
    def __init__(self, embedder: object) -> None:
        self.tokens = token_source(embedder)

    def run(self, question: str, sentences: list[str]) -> np.ndarray:
        """The alignment of each sentence with the question, in [0, 1]."""
        if not sentences:
            return np.zeros(0, dtype=np.float32)
        if self.tokens is None:
            wanted = set(stems(question))
            return np.array([len(wanted & set(stems(s))) / len(wanted) if wanted else 0.0 for s in sentences],
                            dtype=np.float32)
        vectors = self.tokens.token_vectors([question, *sentences])
        return np.array([soft_recall(vectors[0], v) for v in vectors[1:]], dtype=np.float32)
