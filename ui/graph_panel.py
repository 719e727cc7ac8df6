"""The Query Graph block shared by the Run, Graph and Timeline pages.

Building the component's data costs about 0.3 s at 2,000 nodes (plus the topic communities), and the live pages
redraw every second, so the last build is kept in the session keyed by a cheap signature of the snapshot. A
click from the component becomes the session's selected node once (each click carries a new nonce). The graph
also gets the focus of the current question (the nodes it retrieved and their neighbours, once its run has
answered) and the run log for the replay timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from components.graph_view import GraphData, graph_view
from memory_bank import BankSnapshot

from .graph_data import graph_from_snapshot
from .replay import replay_events
from .session import TaskSession

CACHE_KEY = "graph_cache"
FOCUS_KEY = "graph_focus"


def signature(snapshot: BankSnapshot, show_lineage: bool) -> int:
    nodes = tuple((n.id, n.context, n.merged_from, n.source_labels) for n in snapshot.nodes)
    conflicts = tuple((c.id, c.status) for c in snapshot.conflicts)
    return hash((nodes, tuple(snapshot.edges), conflicts, len(snapshot.merge_events), show_lineage))


def graph_data(snapshot: BankSnapshot, show_lineage: bool) -> GraphData:
    sig = signature(snapshot, show_lineage)
    cached = st.session_state.get(CACHE_KEY)
    if cached is not None and cached[0] == sig:
        return cached[1]
    data = graph_from_snapshot(snapshot, show_lineage=show_lineage)
    st.session_state[CACHE_KEY] = (sig, data)
    return data


def focus_nodes(task: TaskSession, snapshot: BankSnapshot) -> list[str]:
    """The nodes the last answered question retrieved (top-k and their one-hop neighbours) and cited."""
    run = task.current_run
    result = run.monitor.view().result if run is not None else None
    if result is None or task.bank is None:
        return []
    key = (id(result), len(snapshot.nodes))
    cached = st.session_state.get(FOCUS_KEY)
    if cached is not None and cached[0] == key:
        return cached[1]
    ids = [n.id for n in task.bank.retrieve(result.question)]
    ids += [c.node_id for c in result.citations if c.node_id not in ids]
    st.session_state[FOCUS_KEY] = (key, ids)
    return ids


def graph_block(task: TaskSession, snapshot: BankSnapshot, *, key: str, height: int = 560,
                show_lineage: bool = True, highlight: Sequence[str] = ()) -> None:
    """Draw the graph; a click selects the node in the session (the caller shows deep retrieval)."""
    data = graph_data(snapshot, show_lineage)
    value = graph_view(data, graph_id=task.graph_id, key=key, height=height, selected=task.selected,
                       highlight=highlight, focus=focus_nodes(task, snapshot),
                       replay=replay_events(task.bank.event_log()) if task.bank is not None else (),
                       settled=not task.running)
    if isinstance(value, dict) and value.get("nonce") != task.click_nonce and value.get("node_id"):
        task.click_nonce = value["nonce"]
        task.selected = str(value["node_id"])
