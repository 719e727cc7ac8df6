"""Merges and conflicts: a timeline with before/after; selecting an item highlights its nodes in the graph."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from memory_bank import BankSnapshot, ConflictView, MemoryBankError, MergeEventView
from ui.format import clock, md_escape, short
from ui.graph_panel import graph_block
from ui.panels import stop_unless
from ui.session import TaskSession, get_task

task = get_task()
st.title("Merges & conflicts")
stop_unless(task.bank is not None, "The memory is empty: start a task or import an export first.")


def timeline_rows(snapshot: BankSnapshot) -> list[dict]:
    rows = [{"time": e.timestamp, "what": "merge" if e.kind == "merge" else "conflict merged",
             "nodes": [*e.merged_node_ids, e.new_node_id], "description": e.description, "item": e}
            for e in snapshot.merge_events]
    rows += [{"time": c.created, "what": f"conflict ({c.status})",
              "nodes": [c.node_a, c.node_b] + ([c.merged_into] if c.merged_into else []),
              "description": c.description, "item": c} for c in snapshot.conflicts]
    return sorted(rows, key=lambda r: r["time"])


def node_text(task: TaskSession, node_id: str) -> str:
    """A node's context and summary, or, for a merged-away node, the raw text it was built from."""
    try:
        node = task.bank.node(node_id)
        return f"{node.context}\n\n{short(node.summary, 700)}"
    except KeyError:
        entries = task.bank.entries_for(node_id)
        text = "\n\n".join(e.text for e in entries)
        return f"(merged away) {short(text, 700)}" if text else "(merged away; no entries recorded)"


def before_after(task: TaskSession, row: dict) -> None:
    item: MergeEventView | ConflictView = row["item"]
    if isinstance(item, MergeEventView):
        before_ids, after_id, resolution = list(item.merged_node_ids), item.new_node_id, ""
    else:
        before_ids, after_id, resolution = [item.node_a, item.node_b], item.merged_into, item.resolution
    st.text(row["description"])
    if resolution:
        st.text(f"Resolution: {resolution}")
    before, after = st.columns(2)
    with before:
        st.markdown("**Before**")
        for node_id in before_ids:
            with st.container(border=True):
                st.caption(f"`{node_id}`")
                st.text(node_text(task, node_id))
    with after:
        st.markdown("**After**")
        if after_id is None:
            st.caption("Pending: a CROSS_VALIDATE task will check it, then the nodes are merged.")
        else:
            with st.container(border=True):
                st.caption(f"`{after_id}`")
                st.text(node_text(task, after_id))
            if st.button("Open in deep retrieval", key=f"open-{after_id}"):
                task.selected = after_id
                st.switch_page("pages/graph.py")


snapshot = task.bank.snapshot()
rows = timeline_rows(snapshot)
if not rows:
    st.info("No merges or conflicts in this memory yet. Duplicated passages are merged at once; contradictions "
            "(same subject, different number, date or name) show up here as conflicts.", icon=":material/info:")
    st.stop()

table_col, graph_col = st.columns([2, 3], gap="medium")
with table_col:
    frame = pd.DataFrame([{"time": clock(r["time"]), "event": r["what"], "nodes": len(r["nodes"]),
                           "description": short(r["description"], 140)} for r in rows])
    picked = st.dataframe(frame, hide_index=True, on_select="rerun", selection_mode="single-row", key="timeline",
                          column_config={"description": st.column_config.TextColumn(width="large"),
                                         "nodes": st.column_config.NumberColumn(width="small")})
    chosen = picked.selection.rows if picked is not None else []
    row = rows[chosen[0]] if chosen else None
    task.highlight = [n for n in row["nodes"]] if row else []
    if row is None:
        st.caption("Select a row to see before/after and highlight its nodes in the graph.")
    else:
        st.markdown(f"##### {md_escape(row['what'].capitalize())} at {clock(row['time'])}")
        try:
            before_after(task, row)
        except MemoryBankError as exc:
            st.error(f"This item cannot be shown: {exc}")
with graph_col:
    graph_block(task, snapshot, key="timeline-graph", height=600, highlight=task.highlight)
