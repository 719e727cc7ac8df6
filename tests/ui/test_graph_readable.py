"""The Query Graph read as a stakeholder reads it, in Chromium through the protocol harness.

Topic groups coloured and named in the legend, laid out apart; labels that never overlap (the boxes the
component drew, compared pairwise) at the fitted and at a zoomed-in view; focus on a question's nodes; a click
that leaves the view where it was; search by a phrase of a summary; and the replay of the real notes sample,
whose conflict must be seen pending (the red dashed link) before cross-validation settles it. Screenshots go to
artifacts/.
"""

from __future__ import annotations

import glob
import itertools
import math
from pathlib import Path

import pytest

from memory_bank import MemoryBank, Settings
from tests.support.graphs import TOPICS, planted
from tests.ui.graph_helpers import args, click, render
from ui.graph_data import build_graph, graph_from_snapshot
from ui.replay import replay_events

ROOT = Path(__file__).resolve().parents[2]
DRAWN = "n => window.__graphStats.lastDrawnAt !== null && window.__graphStats.renders >= n"


def _overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    return [(a["id"], b["id"]) for a, b in itertools.combinations(boxes, 2)
            if a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"]
            and b["y"] < a["y"] + a["h"]]


def _redrawn(page, frame) -> list[dict]:  # noqa: ANN001
    page.wait_for_timeout(250)
    frame.evaluate("() => window.__graphDebug.zoom(window.__graphDebug.scale())")  # one more draw, settled
    page.wait_for_timeout(150)
    return frame.evaluate("() => window.__graphDebug.labelBoxes()")


def test_topics_are_coloured_named_apart_and_labels_never_overlap(harness, artifacts) -> None:
    page, frame = harness
    nodes, edges = planted(per_group=60)
    data = build_graph(nodes, edges)
    render(page, args(data), 1)
    chips = frame.locator("#legend .chip.group")
    assert chips.count() == len(TOPICS)
    assert {chips.nth(i).locator(".name").inner_text().split(" · ")[0] for i in range(chips.count())} == set(TOPICS)
    colour = {n.id: frame.evaluate("id => window.__graphDebug.node(id).color.background", n.id) for n in nodes}
    assert len({colour[n.id] for n in nodes}) == len(TOPICS)
    # groups laid out apart: each group's centre is farther from every other centre than its nodes are from it
    pos = {n.id: frame.evaluate("id => window.__graphDebug.canvasPosition(id)", n.id) for n in nodes}
    centres, spread = {}, {}
    for g in range(len(TOPICS)):
        pts = [pos[n.id] for n in nodes if n.id.startswith(f"g{g}n")]
        cx, cy = sum(p["x"] for p in pts) / len(pts), sum(p["y"] for p in pts) / len(pts)
        centres[g] = (cx, cy)
        spread[g] = sum(math.hypot(p["x"] - cx, p["y"] - cy) for p in pts) / len(pts)
    for a, b in itertools.combinations(centres, 2):
        assert math.dist(centres[a], centres[b]) > 1.5 * max(spread[a], spread[b]), (a, b, centres, spread)

    hubs = {n["id"] for n in data.nodes if n["hub"]}
    fitted = _redrawn(page, frame)
    assert fitted and {b["id"] for b in fitted} <= hubs, "zoomed out, only hubs are labelled"
    assert _overlaps(fitted) == []
    page.screenshot(path=str(artifacts / "graph_topics_fitted.png"))
    frame.evaluate("() => window.__graphDebug.zoom(1.3)")
    zoomed = _redrawn(page, frame)
    assert len(zoomed) > len(fitted) and {b["id"] for b in zoomed} - hubs, "zoomed in, other nodes get labels"
    assert _overlaps(zoomed) == []
    page.screenshot(path=str(artifacts / "graph_topics_zoomed.png"))


def test_focus_fades_all_but_the_question_nodes(harness, artifacts) -> None:
    page, frame = harness
    nodes, edges = planted(per_group=30)
    focus = [n.id for n in nodes[:8]]
    render(page, args(build_graph(nodes, edges), focus=focus), 1)
    opacity = "id => { const o = window.__graphDebug.node(id).opacity; return o === undefined ? 1 : o; }"
    assert frame.evaluate("() => window.__graphDebug.focus().on") is True
    assert all(frame.evaluate(opacity, i) == 1 for i in focus)
    assert frame.evaluate(opacity, nodes[-1].id) < 0.5
    labelled = {b["id"] for b in _redrawn(page, frame)}
    assert labelled and labelled <= set(focus), "in focus only the question's nodes are labelled"
    page.screenshot(path=str(artifacts / "graph_focus.png"))
    frame.locator("#btn-focus").click()
    assert frame.locator("#btn-focus").get_attribute("aria-pressed") == "false"
    assert frame.evaluate(opacity, nodes[-1].id) == 1


def test_a_click_selects_without_moving_the_graph(harness) -> None:
    page, frame = harness
    nodes, edges = planted(per_group=30)
    data = build_graph(nodes[:120], [e for e in edges if e[0] in {n.id for n in nodes[:120]}
                                     and e[1] in {n.id for n in nodes[:120]}])
    render(page, args(data), 1)
    target = nodes[40].id
    before = frame.evaluate("id => window.__graphDebug.position(id)", target)
    assert click(page, frame, target)[0] == target
    # what Streamlit sends back after the click: the node selected, and the graph grown meanwhile
    render(page, args(build_graph(nodes, edges), selected=target), 2)
    page.wait_for_timeout(500)
    assert frame.evaluate("id => window.__graphDebug.position(id)", target) == before
    assert frame.evaluate("() => window.__graphDebug.selected()") == [target]


@pytest.fixture(scope="module")
def notes_bank(embedder, tmp_path_factory) -> MemoryBank:  # noqa: ANN001
    """The real notes sample through the offline engine: a merge, a conflict flagged, then cross-validated."""
    folder = tmp_path_factory.mktemp("notes")
    bank = MemoryBank(Settings(temp_dir=str(folder)), embedder=embedder, workdir=folder / "bank")
    files = sorted(glob.glob(str(ROOT / "samples" / "northwind" / "*.md")))
    bank.run("What is the Northwind project budget, and who approved it?", files=files)
    return bank


def test_replay_shows_the_conflict_pending_before_it_is_settled(harness, artifacts, notes_bank) -> None:
    page, frame = harness
    events = replay_events(notes_bank.event_log())
    flagged = next(i for i, e in enumerate(events) if e[1] == "c")
    settled = next(i for i, e in enumerate(events) if e[1] == "r" and e[2] == events[flagged][2])
    assert flagged < settled
    snapshot = notes_bank.snapshot()
    assert not [c for c in snapshot.conflicts if c.pending], "the sample settles its conflict"
    render(page, args(graph_from_snapshot(snapshot), replay={"events": events}), 1)
    assert frame.locator("#timeline").is_visible()
    edge = f"replay:c:{events[flagged][2]}"

    frame.evaluate("k => window.__graphReplay.seek(k)", flagged + 1)
    drawn = frame.evaluate("id => window.__graphDebug.edge(id)", edge)
    assert drawn and drawn["dashes"], "no pending conflict link"
    assert edge in frame.evaluate("() => window.__graphDebug.drawnEdges()"), "the pending conflict is not drawn"
    assert drawn["color"]["color"] == "#e03131"
    assert "conflict flagged" in frame.locator("#rp-status").inner_text()
    page.screenshot(path=str(artifacts / "replay_pending_conflict.png"))
    visible = "() => window.__graphDebug.drawnNodes().length"
    assert frame.evaluate("k => window.__graphReplay.seek(k)", 0) is None
    assert frame.evaluate(visible) == 0  # the start: an empty memory

    frame.evaluate("k => window.__graphReplay.seek(k)", settled + 1)
    assert edge not in frame.evaluate("() => window.__graphDebug.drawnEdges()")

    frame.evaluate("() => { window.__graphReplay.setSpeed(240); window.__graphReplay.play(); }")
    frame.wait_for_function("() => !window.__graphReplay.state().playing", timeout=10_000)
    state = frame.evaluate("() => window.__graphReplay.state()")
    assert state["step"] == state["total"] == len(events)
    shown = "() => [window.__graphDebug.drawnNodes().sort(), window.__graphDebug.drawnEdges().sort()]"
    played = frame.evaluate(shown)  # reached step by step ...
    frame.evaluate("k => { window.__graphReplay.seek(0); window.__graphReplay.seek(k); }", len(events))
    assert frame.evaluate(shown) == played  # ... is what a jump to the end shows
    frame.locator("#rp-exit").click()
    assert frame.evaluate(visible) == len(graph_from_snapshot(snapshot).nodes)
    assert frame.evaluate("() => window.__graphDebug.edgeIds().filter(i => i.startsWith('replay:')).length") == 0


def test_search_finds_a_phrase_of_a_summary_and_opens_it(harness, notes_bank) -> None:
    page, frame = harness
    snapshot = notes_bank.snapshot()
    render(page, args(graph_from_snapshot(snapshot)), 1)
    node = next(n for n in snapshot.nodes if "steering board" in n.summary and "steering board" not in n.context)
    frame.locator("#search").fill("Steering Board")
    hits = frame.locator("#hits li")
    assert hits.count() >= 1
    texts = [hits.nth(i).inner_text() for i in range(hits.count())]
    mine = next(i for i, t in enumerate(texts) if node.source_names[0] in t)
    assert "steering board" in hits.nth(mine).locator(".hit-snippet").inner_text().lower()
    hits.nth(mine).dispatch_event("mousedown")
    page.wait_for_function("() => window.__values.length > 0")
    opened = page.evaluate("() => window.__values[window.__values.length - 1].value.node_id")
    assert "steering board" in next(n for n in snapshot.nodes if n.id == opened).summary.lower()
    page.wait_for_timeout(800)  # the focus animation lasts 450 ms
    assert frame.evaluate("() => window.__graphDebug.scale()") > 0.95  # a readable zoom


def test_a_graph_grown_live_is_laid_out_into_topics_once_settled(harness) -> None:
    page, frame = harness
    nodes, edges = planted(per_group=40)
    first = {n.id for n in nodes[:12]}
    render(page, args(build_graph(nodes[:12], [e for e in edges if e[0] in first and e[1] in first])), 1)
    render(page, args(build_graph(nodes, edges)), 2)  # grown while the run goes on: nothing already drawn moves
    assert frame.evaluate("() => window.__graphStats.layoutRuns") == 0
    assert not frame.evaluate("() => window.__graphStats.laidOut")  # not yet: the run goes on, the graph grew
    render(page, args(build_graph(nodes, edges), settled=True), 3)  # the run ended
    assert frame.evaluate("() => window.__graphStats.layoutRuns") == 1
    assert frame.evaluate("() => window.__graphStats.laidOut")
    render(page, args(build_graph(nodes, edges), settled=True), 4)
    assert frame.evaluate("() => window.__graphStats.layoutRuns") == 1  # once


def test_a_graph_first_drawn_after_its_run_ended_is_laid_out_by_its_first_batch(harness) -> None:
    """A fast run can end before the graph is first drawn: its first batch is all of it, laid out into topics as it
    is placed, so no layout follows (nothing moves under a later click) and the graph says it is laid out."""
    page, frame = harness
    nodes, edges = planted(per_group=40)
    render(page, args(build_graph(nodes, edges), settled=True), 1)
    stats = frame.evaluate("() => window.__graphStats")
    assert stats["laidOut"] and stats["layoutRuns"] == 0, stats
    render(page, args(build_graph(nodes, edges), settled=True), 2)
    assert frame.evaluate("() => window.__graphStats.layoutRuns") == 0


def test_a_phrase_also_finds_the_nodes_that_use_its_acronym(harness) -> None:
    page, frame = harness
    nodes, edges = planted(per_group=6)
    texts = {0: "The policy enforcement point (PEP) enables connections.", 1: "Each PEP forwards requests.",
             2: "A pepper mill is not a PEP-like thing", 3: "Nothing relevant here."}
    nodes = [type(n)(**{**n.__dict__, "summary": texts.get(i, n.summary)}) for i, n in enumerate(nodes)]
    render(page, args(build_graph(nodes, edges)), 1)
    frame.locator("#search").fill("Policy Enforcement Point")
    hits = frame.locator("#hits li")
    found = [hits.nth(i).locator(".hit-snippet").inner_text() for i in range(hits.count())]
    assert len(found) == 3 and "policy enforcement point" in found[0].lower()  # the phrase itself first
    assert any("Each PEP forwards" in f for f in found) and not any("Nothing relevant" in f for f in found)
