"""Query Graph: the whole memory as a graph, and deep retrieval of the clicked node beside it."""

from __future__ import annotations

import streamlit as st

from ui.graph_panel import graph_block
from ui.panels import deep_retrieval_panel, stop_unless
from ui.session import get_task

task = get_task()
st.title("Query Graph")
stop_unless(task.bank is not None, "The memory is empty: start a task or import an export first.")

live_mode = task.running


@st.fragment(run_every=1.0 if live_mode else None)
def live() -> None:
    snapshot = task.bank.snapshot()
    counts = snapshot.counts
    info, toggle = st.columns([4, 1], vertical_alignment="center")
    info.caption(f"{counts['nodes']} nodes · {counts['edges']} related edges · {counts['merges']} merges · "
                 f"{counts['pending_conflicts']} pending conflicts · {counts['entries']} interaction entries. "
                 "Hover a node or a red dashed conflict for details; click a node to open it.")
    lineage = toggle.toggle("Lineage", value=True, help="Show merged-away nodes, linked to what they became")
    graph_col, detail = st.columns([3, 2], gap="medium")
    with graph_col:
        graph_block(task, snapshot, key="graph-page", height=660, show_lineage=lineage)
    with detail, st.container(height=720, border=False):
        deep_retrieval_panel(task, task.selected, key="graph")
    if live_mode and not task.running:
        st.rerun()


live()
