"""Offline classification and structure on real text: verbatim clusters of bounded size, headings kept as
topics, summaries at 30-50% of the cluster that keep numbers, and the same output for the same input."""

from __future__ import annotations

import re

from memory_bank.engines.models import ClassificationInput, StructureInput
from memory_bank.engines.offline.classification import OfflineClassifier
from memory_bank.engines.offline.nlp import numbers, sentences
from memory_bank.engines.offline.structure import OfflineStructurer


def book(article: dict) -> str:
    return article["title"].replace("_", " ") + "\n\n" + "\n\n".join(p["context"] for p in article["paragraphs"])


def test_clusters_are_verbatim_bounded_and_cover_the_text(embedder, squad_article) -> None:
    text = book(squad_article)
    clusters = OfflineClassifier(embedder).run(ClassificationInput(context=text)).clusters
    assert len(clusters) > 20
    cursor = 0
    for c in clusters:
        at = text.find(c.content, cursor)
        assert at >= cursor, "cluster content must be a verbatim slice of the input, in order"
        cursor = at + len(c.content)
        assert len(c.content.split()) <= 120 or len(sentences(c.content)) == 1
        assert c.context and c.keywords
    covered = sum(len(c.content.split()) for c in clusters)
    assert covered == len(text.split())


def test_heading_names_the_clusters_that_follow(embedder, squad_article) -> None:
    text = book(squad_article)
    clusters = OfflineClassifier(embedder).run(ClassificationInput(context=text)).clusters
    title = squad_article["title"].replace("_", " ")
    assert all(c.context.startswith(f"{title}:") for c in clusters)


def test_classification_is_deterministic(embedder, squad_article) -> None:
    inp = ClassificationInput(context=book(squad_article))
    assert OfflineClassifier(embedder).run(inp) == OfflineClassifier(embedder).run(inp)


def test_summary_ratio_and_numbers(squad_article) -> None:
    structurer = OfflineStructurer()
    checked = 0
    for para in squad_article["paragraphs"][:30]:
        content = para["context"]
        if len(content.split()) < 60:
            continue
        summary = structurer.run(StructureInput(content=content, context="", keywords=[])).summary
        ratio = len(summary.split()) / len(content.split())
        assert 0.30 <= ratio <= 0.50, (ratio, content)
        flat = " ".join(content.split())
        copied = [s.removeprefix("… ").removesuffix(" …") for s in sentences(summary)]  # one may be cut to fit
        assert all(s in flat for s in copied), "summary sentences are copied from the content"
        if numbers(content):
            assert numbers(summary), "a cluster with numbers keeps at least one in its summary"
        checked += 1
    assert checked >= 10


def test_one_long_sentence_is_cut_not_kept_whole() -> None:
    long_sentence = " ".join(f"word{i}" for i in range(80)) + "."
    summary = OfflineStructurer().run(StructureInput(content=long_sentence, context="", keywords=[])).summary
    ratio = len(re.sub(r"\s*…$", "", summary).split()) / 80
    assert 0.30 <= ratio <= 0.50
