"""Export / import: the whole memory as one JSON document, and a session restored from one."""

from __future__ import annotations

import json

import streamlit as st

from memory_bank import ImportFormatError
from ui.format import md_escape
from ui.session import get_task, import_task

task = get_task()
st.title("Export / import")

left, right = st.columns(2, gap="large")
with left, st.container(border=True):
    st.subheader("Download the memory")
    if task.bank is None:
        st.caption("Nothing to export yet.")
    else:
        data = task.bank.export()
        counts = task.bank.snapshot().counts
        st.markdown(f"Insight Doc, Query Graph ({counts['nodes']} nodes with embeddings, {counts['edges']} edges), "
                    f"{len(data.get('conflicts', []))} conflicts, the Interaction Tree ({counts['entries']} entries, "
                    f"{counts['merges']} merge events), attachments' metadata, the run log and the settings "
                    "— never an API key.")
        if task.running:
            st.caption("A run is in progress: the export is the memory as it is right now.")
        st.download_button("Download memory.json", json.dumps(data, ensure_ascii=False).encode("utf-8"),
                           file_name=f"memory-{task.graph_id}.json", mime="application/json", type="primary",
                           icon=":material/download:", key="download-export")

with right, st.container(border=True):
    st.subheader("Restore from an export")
    st.caption("Becomes a new task (the current one stays on the Tasks page): graph, answers with citations, "
               "Insight Doc and event log, without running anything.")
    upload = st.file_uploader("Memory export (.json)", type=["json"], key="import-file")
    if st.button("Import", icon=":material/upload:", disabled=upload is None or task.running, key="import-button"):
        try:
            bank = import_task(task, upload.name, upload.getvalue())
        except ImportFormatError as exc:
            st.error(f"{md_escape(upload.name)} cannot be imported: {exc}")
        else:
            counts = bank.snapshot().counts
            # kept in the session: the import changes the URL's task (and, shared, the browser's task list), and
            # the rerun that follows must not wipe the confirmation
            st.session_state["import-notice"] = (f"Imported {md_escape(upload.name)}: {counts['nodes']} nodes, "
                                                 f"{counts['edges']} edges, {counts['merges']} merges.",
                                                 task.task_id)
    notice = st.session_state.get("import-notice")
    if notice is not None and notice[1] == task.task_id:  # only while the imported task is the one shown
        st.success(notice[0])
        st.page_link("pages/graph.py", label="Open the Query Graph", icon=":material/hub:")
