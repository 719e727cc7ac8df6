"""Word-by-word alignment of a question to sentences, with MiniLM's token vectors and without them."""

from __future__ import annotations

import numpy as np

from memory_bank.engines.offline.alignment import Aligner, soft_recall
from memory_bank.retrieval.embedding import CachedEmbedder, HashingEmbedder, TokenVectors, token_source

QUESTION = "What feature of the Shah's army enabled the weary Mongol forces to win easy early victories?"
SOURCE = ("The fragmentation of the Shah's army allowed the exhausted Mongol troops to gain quick victories "
          "early in the campaign.")
TOPIC = "The Mongol Empire was founded by Genghis Khan and grew into the largest contiguous empire in history."


def test_the_sentence_a_question_was_worded_from_aligns_above_one_that_shares_its_topic(embedder) -> None:
    source, topic, unrelated = Aligner(embedder).run(QUESTION, [SOURCE, TOPIC, "Chloroplasts hold chlorophyll."])
    assert source > topic > unrelated
    assert 0.0 <= unrelated and source <= 1.0


def test_token_vectors_are_unit_rows_one_per_word_piece(embedder) -> None:
    [vectors] = token_source(embedder).token_vectors(["Weary Mongol forces"])
    assert vectors.pieces[0] == "weary" and len(vectors.pieces) == len(vectors.vectors)
    assert np.allclose(np.linalg.norm(vectors.vectors, axis=1), 1.0, atol=1e-4)


def test_without_token_vectors_a_word_aligns_only_with_itself() -> None:
    class SentenceOnly:  # an embedder that gives sentence vectors only (a test double, a custom model)
        name, dim, warning = "plain", 8, None

        def embed(self, texts: list[str]) -> np.ndarray:
            return np.ones((len(texts), 8), dtype=np.float32)

    assert token_source(SentenceOnly()) is None and token_source(CachedEmbedder(SentenceOnly())) is None
    [share] = Aligner(CachedEmbedder(SentenceOnly())).run("Mongol army victories", ["The Mongol army marched."])
    assert share == np.float32(2 / 3)


def test_the_hashing_fallback_matches_words_exactly() -> None:
    hashing = HashingEmbedder()
    assert token_source(CachedEmbedder(hashing)) is not None
    exact, other = Aligner(hashing).run("Mongol army victories", ["Mongol army victories", "Persian navy defeats"])
    assert exact > 0.99 and other < 0.5


def test_a_question_of_stopwords_only_aligns_with_nothing() -> None:
    question = TokenVectors(("what", "is", "it", "?"), np.eye(4, dtype=np.float32))
    assert soft_recall(question, TokenVectors(("it",), np.eye(4, dtype=np.float32)[:1])) == 0.0


def test_per_word_matches_average_to_the_alignment(embedder) -> None:
    aligner = Aligner(embedder)
    matches = aligner.matches(QUESTION, [SOURCE, TOPIC])
    assert [len(m) for m in matches] == [len(matches[0])] * 2 and len(matches[0]) >= 6  # one per content word
    assert np.allclose([m.mean() for m in matches], aligner.run(QUESTION, [SOURCE, TOPIC]), atol=1e-6)
    assert all(((m >= 0.0) & (m <= 1.0)).all() for m in matches)
    [exact] = Aligner(HashingEmbedder()).matches("Mongol army victories", ["The Mongol army marched."])
    assert exact.tolist() == [1.0, 1.0, 0.0]  # without MiniLM a word matches only itself


def test_only_a_sentence_pointing_back_meets_the_words_of_its_sub_sections_title() -> None:
    from memory_bank.engines.offline.alignment import titled_by

    question = "What are the benefits of the resource portal model?"
    section = ("3 Logical Components", "3.2.3 Resource Portal-Based Deployment")
    assert titled_by(question, "The primary benefit of this model is that nothing is installed.", section) == {
        "resource", "portal"}
    assert titled_by(question, "A gateway sits in front of each resource.", section) == frozenset()
    # a top section names the whole document's subject (an article, a chapter): no sentence meets it that way
    assert titled_by(question, "This model is flexible.", ("Resource Portal",)) == frozenset()
