"""Offline analysis on small real texts: a changed year is a conflict, a re-scraped copy merges, unrelated
topics stay apart, and pages about different people of the same name do not conflict."""

from __future__ import annotations

import json

import pytest

from memory_bank.engines.models import AnalysisInput, NodeInfo
from memory_bank.engines.offline.analysis import OfflineAnalyzer
from memory_bank.memory.query_graph import Relation
from tests.conftest import SHARED_DATA

from .texts import LIGHTHOUSE, LIGHTHOUSE_EDITED, PHOTOSYNTHESIS, SUPER_BOWL, SUPER_BOWL_RESCRAPED

RAMDOCS = SHARED_DATA / "ramdocs" / "ramdocs_dev_visible.jsonl"


def node(node_id: str, text: str, context: str = "", keywords: list[str] | None = None) -> NodeInfo:
    return NodeInfo(id=node_id, summary=text, context=context or text.split(".")[0], keywords=keywords or [])


def judge(analyzer: OfflineAnalyzer, new: NodeInfo, *candidates: NodeInfo) -> dict[str, Relation]:
    out = analyzer.run(AnalysisInput(new_node=new, candidates=list(candidates)))
    return {j.existing_node_id: j.relationship for j in out.relationships}


def test_changed_year_is_a_conflict(embedder) -> None:
    analyzer = OfflineAnalyzer(embedder)
    out = analyzer.run(AnalysisInput(new_node=node("new", LIGHTHOUSE_EDITED), candidates=[node("old", LIGHTHOUSE)]))
    (judgement,) = out.relationships
    assert judgement.relationship is Relation.CONFLICT
    assert "1920" in judgement.conflict_description and "1875" in judgement.conflict_description


def test_rescraped_copy_merges(embedder) -> None:
    analyzer = OfflineAnalyzer(embedder)
    assert judge(analyzer, node("new", SUPER_BOWL_RESCRAPED), node("old", SUPER_BOWL)) == {"old": Relation.MERGE}


def test_unrelated_topics_do_not_link(embedder) -> None:
    analyzer = OfflineAnalyzer(embedder)
    assert judge(analyzer, node("new", PHOTOSYNTHESIS), node("old", SUPER_BOWL)) == {"old": Relation.UNRELATED}


def test_related_topics_link(embedder, squad_article) -> None:
    first, second = (p["context"] for p in squad_article["paragraphs"][:2])
    analyzer = OfflineAnalyzer(embedder)
    assert judge(analyzer, node("new", second), node("old", first)) == {"old": Relation.RELATED}


def test_people_of_the_same_name_do_not_conflict(embedder) -> None:
    """Three Vermont senators called Bloomer, each page with its own birth date (RAMDocs dev)."""
    if not RAMDOCS.is_file():
        pytest.skip(f"shared data missing: {RAMDOCS}")
    rows = [json.loads(line) for line in RAMDOCS.read_text(encoding="utf-8").splitlines()]
    (row,) = [r for r in rows if r["question"] == "When was Senator Bloomer born?"]
    docs = [node(f"d{i}", d["text"]) for i, d in enumerate(row["documents"])]
    analyzer = OfflineAnalyzer(embedder)
    for i, new in enumerate(docs[1:], 1):
        relations = judge(analyzer, new, *docs[:i])
        assert Relation.CONFLICT not in relations.values(), relations


def test_raw_entries_are_compared_not_only_summaries(embedder) -> None:
    """The summaries agree; the entries behind them disagree on the year."""

    class View:
        def entries_for(self, node_id: str):  # noqa: ANN202
            from memory_bank.memory.interaction_tree import InteractionEntry

            text = LIGHTHOUSE if node_id == "old" else LIGHTHOUSE_EDITED
            return [InteractionEntry(entry_id=f"e-{node_id}", text=text, timestamp=0.0)]

    summary = "Egg Rock Light is a lighthouse on Egg Rock, an island in Frenchman Bay, Maine."
    analyzer = OfflineAnalyzer(embedder, View())
    assert judge(analyzer, node("new", summary), node("old", summary)) == {"old": Relation.CONFLICT}


def test_same_input_same_judgements(embedder) -> None:
    analyzer = OfflineAnalyzer(embedder)
    inp = AnalysisInput(new_node=node("new", LIGHTHOUSE_EDITED),
                        candidates=[node("a", LIGHTHOUSE), node("b", SUPER_BOWL), node("c", PHOTOSYNTHESIS)])
    assert analyzer.run(inp) == analyzer.run(inp)
