from __future__ import annotations

import numpy as np
import pytest

from memory_bank.retrieval.hybrid_index import HybridIndex


def unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


def test_bm25_prefers_rare_matching_terms_and_normalises_to_best() -> None:
    idx = HybridIndex(dim=2)
    idx.upsert("a", ["zero", "trust", "policy"], unit([1, 0]))
    idx.upsert("b", ["policy", "engine"], unit([1, 0]))
    idx.upsert("c", ["network", "segment"], unit([1, 0]))
    hits = idx.search(["zero", "trust"], None, 3, alpha=1.0)
    assert hits[0] == ("a", 1.0)  # the best lexical score is normalised to 1
    assert [k for k, _ in hits[1:]] == ["b", "c"] and all(s == 0 for _, s in hits[1:])


def test_bm25_adds_each_distinct_query_terms_share_in_query_order() -> None:
    """The textbook BM25 share of every query term (a repeated term counts once), added up in float32 term by
    term in the order the query names them: a node's score does not depend on how the postings are gathered."""
    docs = {"a": ["zero", "trust", "zero", "policy"], "b": ["policy", "engine"], "c": ["trust"] * 5,
            "d": ["network"]}
    idx = HybridIndex(dim=2)
    for key, tokens in docs.items():
        idx.upsert(key, tokens, unit([1, 0]))
    query = ["trust", "policy", "trust", "absent", "zero"]
    avgdl = sum(map(len, docs.values())) / len(docs)
    expected = np.zeros(len(docs), dtype=np.float32)
    for term in dict.fromkeys(query):
        df = sum(term in tokens for tokens in docs.values())
        if not df:
            continue
        idf = np.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
        for slot, tokens in enumerate(docs.values()):
            tf = np.float32(tokens.count(term))
            if tf:
                norm = tf + np.float32(1.5 * (1 - 0.75 + 0.75 * len(tokens) / avgdl))
                expected[slot] += np.float32(idf * tf * 2.5 / norm)
    assert np.allclose(idx.bm25(query), expected, rtol=1e-6)
    assert np.array_equal(idx.bm25(query), idx.bm25(["trust", "policy", "absent", "zero"]))


def test_alpha_blends_lexical_and_cosine() -> None:
    idx = HybridIndex(dim=2)
    idx.upsert("lexical", ["apple"], unit([0, 1]))
    idx.upsert("semantic", ["pear"], unit([1, 0]))
    q = unit([1, 0])
    assert idx.search(["apple"], q, 1, alpha=0.9)[0][0] == "lexical"
    assert idx.search(["apple"], q, 1, alpha=0.1)[0][0] == "semantic"
    score = dict(idx.search(["apple"], q, 2, alpha=0.5))
    assert np.isclose(score["lexical"], 0.5) and np.isclose(score["semantic"], 0.5)


def test_upsert_replaces_and_remove_forgets() -> None:
    idx = HybridIndex(dim=2)
    idx.upsert("a", ["old"], unit([1, 0]))
    idx.upsert("a", ["new"], unit([0, 1]))
    assert len(idx) == 1
    assert idx.search(["old"], None, 5, alpha=1.0)[0][1] == 0.0
    assert idx.search(["new"], None, 5, alpha=1.0)[0] == ("a", 1.0)
    idx.remove("a")
    assert idx.search(["new"], None, 5, alpha=1.0) == []


def test_exclude_and_k_larger_than_index() -> None:
    idx = HybridIndex(dim=2)
    for i in range(3):
        idx.upsert(f"n{i}", ["term"], unit([1, i]))
    keys = [k for k, _ in idx.search(["term"], unit([1, 0]), 10, 0.5, exclude={"n0"})]
    assert sorted(keys) == ["n1", "n2"]


def test_growth_and_compaction_keep_results_identical() -> None:
    rng = np.random.default_rng(0)
    idx = HybridIndex(dim=8, capacity=4)
    vecs = {}
    for i in range(3000):
        vecs[f"n{i}"] = unit(list(rng.standard_normal(8)))
        idx.upsert(f"n{i}", [f"w{i % 50}", f"v{i % 7}"], vecs[f"n{i}"])
    for i in range(0, 2800):
        idx.remove(f"n{i}")  # triggers compaction
    assert len(idx) == 200
    fresh = HybridIndex(dim=8)
    for i in range(2800, 3000):
        fresh.upsert(f"n{i}", [f"w{i % 50}", f"v{i % 7}"], vecs[f"n{i}"])
    q = unit(list(rng.standard_normal(8)))
    a = idx.search(["w3", "v2"], q, 10, 0.5)
    b = fresh.search(["w3", "v2"], q, 10, 0.5)
    assert [k for k, _ in a] == [k for k, _ in b]
    assert np.allclose([s for _, s in a], [s for _, s in b], atol=1e-5)


def test_insert_cost_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inserting must not rebuild: the elements copied while the index grows stay proportional to its size.
    Counted, not timed (a timing ratio flakes on a shared machine): every array growth goes through numpy's
    resize or concatenate, so the test counts the elements those calls produce."""
    import numpy as np

    from memory_bank.retrieval import hybrid_index

    copied = [0]

    class CountingNumpy:
        def __getattr__(self, name: str):  # noqa: ANN204 - delegate everything else to numpy
            return getattr(np, name)

        def resize(self, a, shape):  # noqa: ANN001, ANN201
            out = np.resize(a, shape)
            copied[0] += out.size
            return out

        def concatenate(self, arrays, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201
            out = np.concatenate(arrays, *args, **kwargs)
            copied[0] += out.size
            return out

    monkeypatch.setattr(hybrid_index, "np", CountingNumpy())

    def copies(n: int) -> int:
        copied[0] = 0
        idx = HybridIndex(dim=16)
        v = unit([1.0] * 16)
        for i in range(n):
            idx.upsert(f"n{i}", [f"w{i % 300}", "common"], v)
        return copied[0]

    small, large = copies(10_000), copies(40_000)
    assert 0 < large < small * 8, (small, large)  # linear growth is ~4x; rebuilding on insert would be ~16x
    assert large <= 8 * 40_000 * (16 + 4), large  # amortised: a few row copies per insert, never n per insert


def test_a_word_never_indexed_is_found_in_the_forms_the_index_has() -> None:
    from memory_bank.text.tokens import stem

    idx = HybridIndex(dim=1)
    idx.upsert("a", ["company", "headquarters", "located", "cupertino"], np.zeros(1, dtype=np.float32))
    idx.upsert("b", ["subsidiaries", "incorporation"], np.zeros(1, dtype=np.float32))
    assert idx.other_forms("headquartered", stem) == ["headquarters"]  # the question's form, the text's form
    assert idx.other_forms("headquarters", stem) == []  # a word the index has is searched as it is
    assert idx.other_forms("zebra", stem) == []


def test_each_indexed_word_is_stemmed_once_however_many_unseen_words_are_asked() -> None:
    """Counted, not timed: an unseen question word used to stem the whole vocabulary again."""
    from memory_bank.text.tokens import stem

    calls: list[str] = []

    def counted(word: str) -> str:
        calls.append(word)
        return stem(word)

    idx = HybridIndex(dim=1)
    zero = np.zeros(1, dtype=np.float32)
    idx.upsert("a", [f"word{i}" for i in range(500)] + ["headquarters"], zero)
    asked = ["headquartered", "locating", "acquires", "zebra", "incorporated"]
    assert [idx.other_forms(w, counted) for w in asked][0] == ["headquarters"]
    assert len(calls) == 501 + len(asked)  # the vocabulary once, each asked word once
    idx.upsert("b", ["located", "acquired"], zero)
    calls.clear()
    assert idx.other_forms("locating", counted) == ["located"] and idx.other_forms("acquires", counted) == [
        "acquired"]
    assert len(calls) == 2 + 2  # only the new words
    idx.remove("b")
    assert idx.other_forms("locating", counted) == []  # a word no live passage holds is no form to search
