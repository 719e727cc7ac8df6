"""The Query Graph block shared by the Run, Graph and Timeline pages.

Building the component's data costs about 0.3 s at 2,000 nodes, and the live pages redraw every second, so the
last build is kept in the session keyed by a cheap signature of the snapshot. A click from the component becomes
the session's selected node once (each click carries a new nonce).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from components.graph_view import GraphData, graph_view
from memory_bank import BankSnapshot

from .graph_data import graph_from_snapshot
from .session import TaskSession

CACHE_KEY = "graph_cache"


def signature(snapshot: BankSnapshot, show_lineage: bool) -> int:
    nodes = tuple((n.id, n.context, n.merged_from, n.source_labels) for n in snapshot.nodes)
    conflicts = tuple((c["id"], c["status"]) for c in snapshot.conflicts)
    return hash((nodes, tuple(snapshot.edges), conflicts, len(snapshot.merge_events), show_lineage))


def graph_data(snapshot: BankSnapshot, show_lineage: bool) -> GraphData:
    sig = signature(snapshot, show_lineage)
    cached = st.session_state.get(CACHE_KEY)
    if cached is not None and cached[0] == sig:
        return cached[1]
    data = graph_from_snapshot(snapshot, show_lineage=show_lineage)
    st.session_state[CACHE_KEY] = (sig, data)
    return data


def graph_block(task: TaskSession, snapshot: BankSnapshot, *, key: str, height: int = 560,
                show_lineage: bool = True, highlight: Sequence[str] = ()) -> None:
    """Draw the graph; a click selects the node in the session (the caller shows deep retrieval)."""
    data = graph_data(snapshot, show_lineage)
    value = graph_view(data, graph_id=task.graph_id, key=key, height=height, selected=task.selected,
                       highlight=highlight)
    if isinstance(value, dict) and value.get("nonce") != task.click_nonce and value.get("node_id"):
        task.click_nonce = value["nonce"]
        task.selected = str(value["node_id"])
