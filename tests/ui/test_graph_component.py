"""The graph component alone in Chromium, hosted by the protocol harness (no Streamlit server).

Checks what a user would notice: clicks come back as node ids, document text is never run as HTML, the layout
does not jump when the graph grows, search finds nodes, and nothing is fetched from outside 127.0.0.1. Rendering
in Streamlit writes nothing into the source tree.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components.graph_view import FRONTEND, VENDOR_FILES, build_dir
from components.graph_view.harness import synthetic_memory
from tests.ui.graph_helpers import args as _args
from tests.ui.graph_helpers import click as _click
from tests.ui.graph_helpers import render as _render
from ui.graph_data import build_graph

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


def test_click_returns_node_and_text_is_never_html(harness, artifacts) -> None:
    page, frame = harness
    nodes, edges, conflicts, merges = synthetic_memory(120, 200, hostile_text=HOSTILE)
    _render(page, _args(build_graph(nodes, edges, conflicts, merges)), 1)
    stats = frame.evaluate("() => window.__graphStats")
    ghosts = sum(len(m.merged_node_ids) for m in merges)
    assert stats["nodes"] == len(nodes) + ghosts
    assert stats["edges"] == len(edges) + len(conflicts) + ghosts

    assert _click(page, frame, nodes[5].id) == (nodes[5].id, nodes[5].id)
    # hover shows the node's text literally; no element from the document made it into the DOM
    pos = frame.evaluate("id => window.__graphDebug.position(id)", nodes[9].id)
    box = page.locator("#frame").bounding_box()
    page.mouse.move(box["x"] + pos["x"], box["y"] + pos["y"])
    tooltip = frame.locator("div.vis-tooltip")
    tooltip.wait_for(state="visible", timeout=5_000)
    assert "<script>window.__pwned=1</script>" in tooltip.inner_text()
    assert frame.locator("div.vis-tooltip script, div.vis-tooltip img").count() == 0
    page.screenshot(path=str(artifacts / "component_tooltip.png"))
    assert frame.evaluate("() => window.__pwned === undefined") and page.evaluate("() => window.__pwned === undefined")


def test_growth_keeps_positions_and_flashes_new_nodes(harness) -> None:
    page, frame = harness
    nodes, edges, _, _ = synthetic_memory(200, 320, conflicts=0, merges=0)
    first, first_edges = nodes[:150], [e for e in edges if e[0] < "n00150" and e[1] < "n00150"]
    _render(page, _args(build_graph(first, first_edges)), 1)
    before = {n.id: frame.evaluate("id => window.__graphDebug.canvasPosition(id)", n.id) for n in first[:40]}
    _render(page, _args(build_graph(nodes, edges)), 2)
    after = {n: frame.evaluate("id => window.__graphDebug.canvasPosition(id)", n) for n in before}
    assert after == before, "nodes already on screen moved when the graph grew"
    new = frame.evaluate("id => window.__graphDebug.node(id)", nodes[180].id)
    assert new["shadow"]["enabled"] is True, "a new node is not highlighted"
    # a node that reappears with a changed context is updated in place, not re-added elsewhere
    changed = [n if n.id != nodes[3].id else type(n)(**{**asdict(n), "context": "Rewritten context"}) for n in nodes]
    _render(page, _args(build_graph(changed, edges)), 3)
    assert frame.evaluate("id => window.__graphDebug.label(id)", nodes[3].id) == "Rewritten context"
    assert frame.evaluate("id => window.__graphDebug.canvasPosition(id)", nodes[3].id) == after[nodes[3].id]
    _render(page, _args(build_graph(nodes[:100], [e for e in edges if e[1] < "n00100"])), 4)
    assert frame.evaluate("() => window.__graphStats.nodes") == 100


def test_search_focuses_and_opens_a_node(harness) -> None:
    page, frame = harness
    nodes, edges, _, _ = synthetic_memory(150, 220, conflicts=0, merges=0)
    _render(page, _args(build_graph(nodes, edges)), 1)
    frame.locator("#search").fill("Topic 42")
    assert frame.locator("#hit-count").inner_text() == "1 match"
    frame.locator("#hits li").first.dispatch_event("mousedown")
    page.wait_for_function("() => window.__values.length > 0")
    assert page.evaluate("() => window.__values[0].value.node_id") == nodes[42].id


def test_selection_from_python_and_conflict_edges(harness) -> None:
    page, frame = harness
    nodes, edges, conflicts, merges = synthetic_memory(100, 150, conflicts=3, merges=2)
    data = build_graph(nodes, edges, conflicts, merges)
    conflict_edge = next(e for e in data.edges if e["id"].startswith("conflict:"))
    assert conflict_edge["dashes"] and conflict_edge["color"]["color"] == "#e03131"
    assert conflict_edge["tip"]["body"] == conflicts[0].description
    _render(page, _args(data, highlight=[conflicts[0].node_a, conflicts[0].node_b]), 1)
    selected = frame.evaluate("() => window.__graphDebug.selected()")
    assert sorted(selected) == sorted([conflicts[0].node_a, conflicts[0].node_b])
    # a merged-away ghost opens the node it was merged into
    frame.locator("#btn-fit").click()
    page.wait_for_timeout(700)  # the fit animation lasts 400 ms; on a loaded machine, wait until the view is still
    frame.wait_for_function("""() => { const s = window.__graphDebug.scale(), was = window.__lastScale;
      window.__lastScale = s; return was === s; }""", polling=200, timeout=10_000)
    ghost = merges[0].merged_node_ids[0]
    assert _click(page, frame, ghost) == (merges[0].new_node_id, ghost)


def _tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder below `folder` (bytecode caches aside) with its size and mtime."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if "__pycache__" not in p.parts}


def _render_the_component() -> None:
    from components.graph_view import GraphData, graph_view

    graph_view(GraphData(nodes=[{"id": "a", "label": "a"}, {"id": "b", "label": "b"}],
                         edges=[{"from": "a", "to": "b"}]), graph_id="t", key="graph")


def test_rendering_writes_nothing_into_the_source_tree() -> None:
    before = _tree(ROOT / "components")
    at = AppTest.from_function(_render_the_component, default_timeout=60)
    at.run()
    at.run()
    assert not at.exception, at.exception
    assert at.get("component_instance")[0].proto.component_name.endswith("graph_view")
    assert _tree(ROOT / "components") == before

    served = build_dir()
    assert served == build_dir()  # assembled once per process
    assert not served.is_relative_to(ROOT)
    assert {p.name for p in FRONTEND.iterdir()} <= {p.name for p in served.iterdir()}
    assert all((served / "vendor" / name).stat().st_size > 0 for name in VENDOR_FILES)


def test_a_long_unique_title_keeps_what_sets_it_apart_when_cut() -> None:
    from ui.graph_data import LABEL_CHARS, short_label

    titles = ["3 Logical Components of Zero Trust Architecture · policy",
              "3 Logical Components of Zero Trust Architecture · resource access",
              "3 Logical Components of Zero Trust Architecture (2)",
              "3 Logical Components of Zero Trust Architecture"]
    labels = [short_label(t, LABEL_CHARS) for t in titles]
    assert len(set(labels)) == len(labels) and all(len(label) <= LABEL_CHARS for label in labels)
    assert labels[0].endswith("· policy") and labels[2].endswith("(2)")
