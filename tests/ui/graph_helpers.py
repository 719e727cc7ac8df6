"""Driving the graph component in the protocol harness: render, wait for the draw, click where a node is."""

from __future__ import annotations

from dataclasses import asdict

READY = """() => { const f = document.getElementById('frame').contentWindow;
  return f.__graphStats && f.__graphStats.renders >= %d && f.__graphStats.lastDrawnAt !== null; }"""


def args(data, **extra) -> dict:  # noqa: ANN001 - GraphData
    return {**asdict(data), "graph_id": "test", "height": 560, **extra}


def render(page, render_args: dict, renders: int) -> None:  # noqa: ANN001 - playwright Page
    page.evaluate("a => window.renderGraph(a)", render_args)
    page.wait_for_function(READY % renders, timeout=20_000)


def click(page, frame, node_id: str) -> tuple[str, str]:  # noqa: ANN001
    """Click where `node_id` is drawn; returns (the id the component sent, the id vis found under the mouse)."""
    pos = frame.evaluate("id => window.__graphDebug.position(id)", node_id)
    box = page.locator("#frame").bounding_box()
    expected = frame.evaluate("p => window.__graphDebug.nodeAt(p.x, p.y)", pos)
    before = page.evaluate("() => window.__values.length")
    page.mouse.click(box["x"] + pos["x"], box["y"] + pos["y"])
    page.wait_for_function(f"() => window.__values.length > {before}")
    value = page.evaluate("() => window.__values[window.__values.length - 1].value")
    return value["node_id"], expected
