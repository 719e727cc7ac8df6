"""Topic communities of the Query Graph: planted groups are found, named by their keywords, furniture left out."""

from __future__ import annotations

from memory_bank import NodeView, find_communities
from tests.support.graphs import TOPICS, planted
from ui.graph_data import build_graph


def test_planted_groups_are_found_and_named_by_their_keywords() -> None:
    nodes, edges = planted()
    groups = find_communities(nodes, edges)
    named = [g for g in groups if g.index >= 0]
    assert len(named) == len(TOPICS)
    for group in named:
        prefixes = {m.split("n")[0] for m in group.members}
        assert len(prefixes) == 1, f"a found group mixes planted groups: {prefixes}"
        topic = TOPICS[int(next(iter(prefixes))[1:])]
        assert group.keywords[0] == topic, group.keywords
        assert "zero trust" not in group.keywords  # shared by every group: names none
    assert find_communities(nodes, edges) == groups  # the same graph gives the same groups


def test_furniture_takes_no_part_and_small_groups_are_pooled() -> None:
    nodes, edges = planted(per_group=6)
    toc = NodeView(id="toc", context="Contents", summary="1 Intro ... 5", keywords=("contents",), kind="text",
                   timestamp=0.0, source_names=("doc0.pdf",), source_labels=("doc0.pdf, p. 1",), pages=(1,),
                   merged_from=(), role="contents")
    loners = [NodeView(id=f"lone{i}", context="x", summary="x", keywords=("x",), kind="text", timestamp=0.0,
                       source_names=("doc0.pdf",), source_labels=(), pages=(), merged_from=()) for i in range(2)]
    edges = edges + [("toc", n.id) for n in nodes]
    groups = find_communities([*nodes, toc, *loners], edges)
    members = [m for g in groups for m in g.members]
    assert "toc" not in members
    assert sorted(members) == sorted([n.id for n in nodes] + ["lone0", "lone1"])
    pool = [g for g in groups if g.index == -1]
    assert len(pool) == 1 and {"lone0", "lone1"} <= set(pool[0].members) and pool[0].name == "other topics"
    assert find_communities([], []) == []


def test_one_source_is_coloured_by_topic_several_by_source() -> None:
    nodes, edges = planted()
    data = build_graph(nodes, edges)
    assert data.legend["by"] == "community"
    colour = {n["id"]: n["color"]["background"] for n in data.nodes}
    for g in range(len(TOPICS)):
        assert len({colour[f"g{g}n{i:02d}"] for i in range(24)}) == 1
    assert len({colour[f"g{g}n00"] for g in range(len(TOPICS))}) == len(TOPICS)
    assert {entry["name"].split(" · ")[0] for entry in data.legend["groups"]} == set(TOPICS)
    hubs = [n for n in data.nodes if n["hub"]]
    assert 4 <= len(hubs) <= 40 and all(n["rank"] >= 1 for n in hubs)

    several = build_graph(*planted(sources=3))
    assert several.legend["by"] == "source"
    assert [g["name"] for g in several.legend["groups"]] == ["doc0.pdf", "doc1.pdf", "doc2.pdf"]

    # a long document beside a short note: still coloured by topic (one colour for nearly all says nothing)
    note = NodeView(id="note", context="vendor note", summary="s", keywords=("vendor",), kind="text",
                    timestamp=999.0, source_names=("note.txt",), source_labels=("note.txt",), pages=(),
                    merged_from=())
    assert build_graph([*nodes, note], edges).legend["by"] == "community"
