"""Memory → the graph component's data, through a pyvis `Network`.

Kept apart from the pages so the same drawing rules apply on the Run and Graph pages and in the render benchmark:
colour by topic community when the memory holds one source (communities found by the core, named by their
keywords in the legend) and by source document when it holds several; size by degree, the best-connected nodes
marked as hubs whose labels are always drawn; conflict and lineage edges; merged-node marks; document furniture
faded and small.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pyvis.network import Network

from components.graph_view import GraphData
from memory_bank import BankSnapshot, ConflictView, MergeEventView, NodeView, find_communities

PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#72b7b2", "#d4a017", "#9d755d", "#ff9da6",
           "#6f4e7c", "#5fa2ce", "#c85200", "#7b848f")
CONFLICT = "#e03131"
MERGED_BORDER = "#b7791f"
GHOST = "#94a3b8"
LABEL_CHARS = 34
FURNITURE_FADE = 0.65  # share of white mixed into a furniture node's source colour
FURNITURE_FONT = "#8a94a3"
OTHER_TOPICS = "#9aa5b1"  # the pool of small topic groups and lone nodes
DOMINANT_SOURCE = 0.8  # a source with this share of the body nodes is coloured by topic, not as one blot
FIND_SUMMARY_CHARS = 1200  # the summary text searched in the browser, per node


def shorten(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


TITLE_SEPARATOR = " · "  # a node title's section part and what sets the node apart ("3.1 … · policy")


def short_label(text: str, limit: int) -> str:
    """A node's label within `limit` characters, its distinguishing end kept: titles are unique by their suffix
    ("3 Logical Components of Zero Trust Architecture · policy", "Overview (2)"), so a cut keeps the suffix and
    shortens the section part before it."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    base, sep, suffix = text.rpartition(TITLE_SEPARATOR)
    if not sep:
        base, sep, suffix = text.rpartition(" (")
        suffix = f"({suffix}" if sep else suffix
        sep = " " if sep else ""
    if sep and len(suffix) + len(sep) + 8 <= limit:
        return shorten(base, limit - len(sep) - len(suffix)) + sep + suffix
    return shorten(text, limit)


def primary_source(node: NodeView) -> str:
    return node.source_names[0] if node.source_names else "(no source)"


def source_colors(nodes: Iterable[NodeView]) -> dict[str, str]:
    """Colour per source document, in order of first appearance so colours do not shift as the graph grows."""
    colors: dict[str, str] = {}
    for node in sorted(nodes, key=lambda n: n.timestamp):
        name = primary_source(node)
        if name not in colors:
            colors[name] = PALETTE[len(colors) % len(PALETTE)]
    return colors


def is_furniture(node: NodeView) -> bool:
    return node.role != "body"


def faded(color: str, amount: float = FURNITURE_FADE) -> str:
    """`#rrggbb` mixed with white: furniture keeps its document's hue but steps back from the body text."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def _node_color(base: str, border: str) -> dict:
    return {"background": base, "border": border,
            "highlight": {"background": base, "border": "#1f2933"},
            "hover": {"background": base, "border": "#1f2933"}}


def _tip(node: NodeView, conflicted: bool) -> dict:
    badges = [{"text": label, "kind": ""} for label in node.source_labels[:3]]
    if len(node.source_labels) > 3:
        badges.append({"text": f"+{len(node.source_labels) - 3} sources", "kind": ""})
    if node.merged_from:
        badges.append({"text": f"merged from {len(node.merged_from)}", "kind": "merged"})
    if conflicted:
        badges.append({"text": "pending conflict", "kind": "conflict"})
    if node.kind == "image":
        badges.append({"text": "image", "kind": ""})
    if node.kind == "section":
        badges.append({"text": "section", "kind": ""})
    if is_furniture(node):
        badges.append({"text": f"furniture: {node.role}", "kind": "furniture"})
    lines = [f"Keywords: {', '.join(node.keywords[:10])}"] if node.keywords else []
    return {"title": node.label or node.id, "badges": badges, "lines": lines, "body": shorten(node.summary, 320)}


HUB_SHARE = 0.06  # the best-connected share of body nodes whose labels are always drawn (at least 4, at most 40)


def _hubs(degree: dict[str, int], nodes: Sequence[NodeView], group_of: dict[str, str]) -> set[str]:
    """The most important body nodes by degree, and the best-connected node of every group: their labels are
    drawn at every zoom (others when zoomed in, space permitting; the component never lets labels overlap)."""
    body = [n.id for n in nodes if not is_furniture(n)]
    count = max(4, min(40, round(len(body) * HUB_SHARE)))
    ranked = sorted(body, key=lambda n: (-degree.get(n, 0), n))
    hubs = {n for n in ranked[:count] if degree.get(n, 0) > 0 or len(body) <= count}
    hubs |= {n.id for n in nodes if n.kind == "section" and not is_furniture(n)}
    best: dict[str, str] = {}
    for n in ranked:
        best.setdefault(group_of.get(n, ""), n)
    return hubs | set(best.values())


@dataclass(frozen=True)
class Coloring:
    """How nodes are coloured: by topic community (one source) or by source document (several)."""

    by: str  # "community" | "source"
    color_of: dict[str, str]  # node id -> colour
    group_of: dict[str, str]  # node id -> layout group (nodes of a group are laid out together)
    legend: list[dict[str, Any]]


def by_source(nodes: Sequence[NodeView]) -> bool:
    """Several sources that each matter: colour by source. One source, or one that holds nearly all the body
    nodes (a long PDF beside a short note), is coloured by topic: one colour for 95 % of the graph says nothing."""
    counts: dict[str, int] = {}
    for node in nodes:
        if not is_furniture(node):
            counts[primary_source(node)] = counts.get(primary_source(node), 0) + 1
    return len(counts) > 1 and max(counts.values()) < DOMINANT_SOURCE * sum(counts.values())


def coloring(nodes: Sequence[NodeView], edges: Sequence[tuple[str, str]]) -> Coloring:
    colors = source_colors(nodes)
    if by_source(nodes):
        return Coloring("source", {n.id: colors[primary_source(n)] for n in nodes},
                        {n.id: "doc:" + primary_source(n) for n in nodes},
                        [{"name": name, "color": color} for name, color in colors.items()])
    color_of, group_of, legend = {}, {}, []
    for community in find_communities(nodes, edges, max_groups=len(PALETTE) - 1):
        color = PALETTE[community.index] if community.index >= 0 else OTHER_TOPICS
        legend.append({"name": community.name, "color": color, "count": len(community.members),
                       "members": list(community.members)})
        for member in community.members:
            color_of[member], group_of[member] = color, f"c{community.index}"
    for node in nodes:  # furniture: its document's colour (faded when drawn), laid out with the others
        color_of.setdefault(node.id, OTHER_TOPICS)
        group_of.setdefault(node.id, "furniture")
    return Coloring("community", color_of, group_of, legend)


def _add_nodes(net: Network, nodes: Sequence[NodeView], paint: Coloring, degree: dict[str, int],
               conflicted: set[str]) -> None:
    hubs = _hubs(degree, nodes, paint.group_of)
    top = max([degree.get(n.id, 0) for n in nodes if not is_furniture(n)] + [1])
    for node in nodes:
        source = primary_source(node)
        merged = bool(node.merged_from)
        furniture = is_furniture(node)
        weight = (degree.get(node.id, 0) / top) ** 0.5
        section = node.kind == "section"
        size = 7 if furniture else 9 + 15 * weight + (3 if merged else 0) + (6 if section else 0)
        font = {"size": 14 if node.id in hubs else 12}
        if furniture:
            font["color"] = FURNITURE_FONT
        color = paint.color_of[node.id]
        find = " ".join([node.label, " ".join(node.keywords), node.summary[:FIND_SUMMARY_CHARS]])
        net.add_node(node.id, label=short_label(node.label or node.id, LABEL_CHARS), shape=_shape(node),
                     color=_node_color(faded(color) if furniture else color,
                                       MERGED_BORDER if merged else "#ffffff"),
                     size=round(size, 1), borderWidth=3 if merged else 1.5, font=font,
                     tip=_tip(node, node.id in conflicted), find=find, doc=source, group_key=paint.group_of[node.id],
                     rank=round(-1.0 if furniture else weight + (1.0 if node.id in hubs else 0.0), 3),
                     hub=node.id in hubs, where=_where(node))


def _shape(node: NodeView) -> str:
    """A merge is a diamond, an image a square, a section (the hub of its passages) a hexagon."""
    if node.merged_from:
        return "diamond"
    return {"image": "square", "section": "hexagon"}.get(node.kind, "dot")


def _where(node: NodeView) -> str:
    """File and printed pages, as a search result shows them."""
    return "; ".join(node.source_labels[:2]) + (" …" if len(node.source_labels) > 2 else "")


def _live_target(node_id: str, successor: dict[str, str], live: set[str]) -> str | None:
    seen: set[str] = set()
    while node_id not in live and node_id in successor and node_id not in seen:
        seen.add(node_id)
        node_id = successor[node_id]
    return node_id if node_id in live else None


def _add_lineage(net: Network, merges: Sequence[MergeEventView], live: set[str], group_of: dict[str, str]) -> None:
    """Merged-away nodes as small grey ghosts, each linked to the node it went into."""
    successor = {old: e.new_node_id for e in merges for old in e.merged_node_ids}
    drawn = set(live)
    for event in sorted(merges, key=lambda e: e.timestamp):
        for old in event.merged_node_ids:
            target = _live_target(old, successor, live)
            if target is None or old in drawn:
                continue
            drawn.add(old)
            tip = {"title": "Merged away", "badges": [{"text": event.kind, "kind": "merged"}],
                   "lines": [f"Node {old} → {event.new_node_id}"], "body": shorten(event.description, 320)}
            net.add_node(old, label=" ", shape="dot", size=6, borderWidth=1.5,
                         color=_node_color("#ffffff", GHOST), shapeProperties={"borderDashes": [3, 3]},
                         tip=tip, find=old, ghost=True, target=target, group_key=group_of.get(target, ""))
    for event in merges:
        new_id = event.new_node_id
        for old in event.merged_node_ids:
            if old in drawn and new_id in drawn and old not in live:
                net.add_edge(old, new_id, id=f"lineage:{old}|{new_id}",
                             color={"color": GHOST, "highlight": GHOST, "hover": GHOST}, dashes=[2, 4],
                             width=1, arrows={"to": {"enabled": True, "scaleFactor": 0.5}})


def build_graph(nodes: Sequence[NodeView], edges: Sequence[tuple[str, str]],
                conflicts: Sequence[ConflictView] = (), merges: Sequence[MergeEventView] = (), *,
                show_lineage: bool = True) -> GraphData:
    """The component's data for one state of the memory (the lists of a `BankSnapshot`).

    The pyvis network is built `directed=True` only to skip pyvis's O(E) duplicate-edge scan on every
    `add_edge` (quadratic at 4,000 edges); edges come from a networkx Graph and are unique already, and every
    edge says explicitly whether it has an arrow.
    """
    net = Network(directed=True)
    live = {n.id for n in nodes}
    paint = coloring(nodes, edges)
    degree: dict[str, int] = {}
    for a, b in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    pending = [c for c in conflicts if c.pending and c.node_a in live and c.node_b in live]
    _add_nodes(net, nodes, paint, degree, {i for c in pending for i in (c.node_a, c.node_b)})
    for a, b in edges:
        if a in live and b in live:
            net.add_edge(a, b, id=f"related:{a}|{b}", arrows={"to": {"enabled": False}})
    for c in pending:
        net.add_edge(c.node_a, c.node_b, id=f"conflict:{c.id}", arrows={"to": {"enabled": False}},
                     color={"color": CONFLICT, "highlight": CONFLICT, "hover": CONFLICT}, dashes=[8, 6], width=2.4,
                     tip={"title": "Pending conflict", "body": shorten(c.description, 400)})
    if show_lineage:
        _add_lineage(net, merges, live, paint.group_of)
    legend = {"by": paint.by, "groups": paint.legend,
              "furniture": sorted({n.role for n in nodes if is_furniture(n)})}
    return GraphData.from_network(net, legend)


def graph_from_snapshot(snapshot: BankSnapshot, *, show_lineage: bool = True) -> GraphData:
    return build_graph(snapshot.nodes, snapshot.edges, snapshot.conflicts, snapshot.merge_events,
                       show_lineage=show_lineage)
