"""The run log → the compact event list the graph's timeline plays back.

The component replays in the browser (no Streamlit round trip per frame), so it gets only what changes the
drawing, as short arrays: `[t, "n", node_id, "", label]` node added, `[t, "e", a, b]` related edge,
`[t, "c", conflict_id, [a, b], description]` conflict flagged, `[t, "r", conflict_id, "", resolution]` conflict
settled, `[t, "m", new_id, [merged ids], description]` merge. Progress, usage and tool events are left out.
Labels and descriptions are cut short here: the timeline shows one line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .format import short

MAX_EVENTS = 20_000  # a longer log is replayed from its most recent part (older nodes are there from the start)
TEXT = 90


def _time(event: dict[str, Any]) -> float:
    ts = event.get("ts")
    return round(float(ts), 3) if isinstance(ts, int | float) and math.isfinite(ts) else 0.0


def replay_events(log: Iterable[dict[str, Any]]) -> list[list[Any]]:
    """The events that change the graph, oldest first, in the component's compact form (an imported log is
    untrusted: an event missing its ids is left out)."""
    out: list[list[Any]] = []
    for event in log:
        item = _compact(event)
        if item is not None:
            out.append(item)
    return out[-MAX_EVENTS:]


def _compact(event: dict[str, Any]) -> list[Any] | None:
    kind, t, get = event.get("kind"), _time(event), event.get
    if kind == "node_added" and get("node_id"):
        return [t, "n", str(get("node_id")), "", short(get("context") or "", TEXT)]
    if kind == "edge_added" and get("a") and get("b"):
        return [t, "e", str(get("a")), str(get("b"))]
    if kind == "conflict_flagged" and get("conflict_id") and get("node_a") and get("node_b"):
        return [t, "c", str(get("conflict_id")), [str(get("node_a")), str(get("node_b"))],
                short(get("description") or "", TEXT)]
    if kind == "conflict_resolved" and get("conflict_id"):
        return [t, "r", str(get("conflict_id")), "", short(get("resolution") or "", TEXT)]
    if kind == "nodes_merged" and get("new_node_id") and isinstance(get("merged_ids"), list | tuple):
        return [t, "m", str(get("new_node_id")), [str(i) for i in get("merged_ids")],
                short(get("description") or "", TEXT)]
    return None
