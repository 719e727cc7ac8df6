"""Tasks: the user's stored tasks (in shared mode, those this browser created) with open, rename, end and delete."""

from __future__ import annotations

import time

import streamlit as st

from memory_bank import MAX_TASK_NAME, TaskBusy
from ui.format import md_escape
from ui.links import open_or_copy, share_links
from ui.session import detach, end_task, get_task, open_task
from ui.tasks import registry_for

task = get_task()
registry = registry_for(task.settings)
st.title("Tasks")
if task.settings.shared:
    st.caption("Shared server: this list holds the tasks created in this browser. Another task opens through its "
               "link only.")
    if task.browser_ids is None:
        st.caption("Reading this browser's task list…")
        st.stop()
    mine = set(registry.store.owners.owned(task.user))
    tasks = registry.store.list_tasks(ids=[i for i in task.browser_ids if i in mine])
else:
    tasks = registry.store.list_tasks(ids=registry.store.owners.owned(task.user))
if task.settings.retention_days:
    st.caption(f"Tasks untouched for {task.settings.retention_days} days are deleted.")

if st.button("New task", icon=":material/add_circle:", key="tasks-new",
             help="Leaves the current task as it is (it stays in this list) and starts an empty one."):
    detach(task)
    st.switch_page("pages/new_task.py")
if not tasks:
    st.info("No task yet: start one on the New task page.", icon=":material/info:")


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


for item in tasks:
    current = item.id == task.task_id
    live = registry.get(item.id)
    with st.container(border=True, key=f"task-{item.id}"):
        head, actions = st.columns([4, 3], vertical_alignment="center")
        with head:
            badge = " · **open here**" if current else ""
            running = " · running" if live is not None and live.running else (
                f" · {item.last_status}" if item.last_status else "")
            st.markdown(f"**{md_escape(item.name or 'Untitled task')}**{badge}{running}")
            sources = ", ".join(item.sources) or item.origin or "no files"
            st.caption(f"{item.nodes} nodes · {md_escape(sources)} · changed {_when(item.updated)}")
            if item.last_question:
                st.caption(f"Last question: {md_escape(item.last_question)}")
        with actions:
            open_col, end_col, delete_col = st.columns(3)
            if open_col.button("Open", key=f"open-{item.id}", icon=":material/open_in_new:", disabled=current):
                open_or_copy(task, item.id)
                st.switch_page("pages/run.py")
            if end_col.button("End task", key=f"end-{item.id}", icon=":material/stop_circle:",
                              help="Clears the task's memory (its nodes, entries and answers); the task stays."):
                try:
                    if not current:
                        open_task(task, item.id)
                    end_task(task)
                    st.rerun()
                except TaskBusy as exc:
                    st.error(f"Not ended: {exc}.", icon=":material/lock:")
            confirm = delete_col.toggle("Delete", key=f"confirm-{item.id}", help="Deletes the task and its files.")
        if confirm:
            st.warning("Delete this task, its memory, answers and files for good?")
            if st.button("Yes, delete it", key=f"delete-{item.id}", type="primary", icon=":material/delete:"):
                try:
                    registry.delete(item.id, task.user)
                except TaskBusy as exc:
                    st.error(f"Not deleted: {exc}.", icon=":material/lock:")
                else:
                    if current:
                        detach(task)
                    st.rerun()
        with st.expander("Share read-only"):
            share_links(registry.store, item.id, task.user)
        with st.expander("Rename"):
            name = st.text_input("Name", value=item.name, key=f"name-{item.id}", max_chars=MAX_TASK_NAME)
            if st.button("Save name", key=f"rename-{item.id}") and name.strip():
                registry.store.rename_task(item.id, name.strip())
                st.rerun()
