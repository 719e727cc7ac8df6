"""What the URL asks for: `?task=<id>` (one of the user's tasks), `?share=<token>` (a read-only link), or
`?start=<token>` (a Start waiting for the embedding model, `pending`).

A task the user may write is opened through the registry, as before. Two cases show a read-only copy instead,
loaded from the store without the task's lease and kept by this session alone: a shared link, and a task another
app process has open for writing (shown as that process last saved it, and followed on the Run page). Nothing
done to a copy is saved; a question asked over it starts a task of one's own.
"""

from __future__ import annotations

import time
import uuid

import streamlit as st

from memory_bank import SqlTaskStore, TaskBusy, TaskNotFound

from .session import TaskSession, detach, follow_pending, forget_pending, open_task, task_embedder
from .tasks import registry_for

GONE = "That task link is not valid any more (the task was deleted, or the link is incomplete)."
SHARE_GONE = "That shared link is not valid any more (it expired or was revoked, or the task was deleted)."
LINK_DAYS = (1, 7, 30, 90)  # what an owner chooses a link's lifetime from
DEFAULT_LINK_DAYS = 7


def sync_with_url(task: TaskSession) -> str | None:
    """Every page view: show what the URL names, or name the session's task in the URL (navigation drops it).
    Returns a message when the URL names nothing this user may see (an unknown id and another user's task read
    the same)."""
    follow_pending(task)
    shared = st.query_params.get("share")
    if shared:
        if shared != task.viewing_key:
            try:
                show_copy(task, registry_for(task.settings).store.shares.resolve(shared), shared,
                          "A read-only copy, shared by its owner: nothing done here changes their task.")
            except TaskNotFound:
                detach(task)
                return SHARE_GONE
        return None
    wanted = st.query_params.get("task")
    if wanted and wanted != task.task_id and wanted != task.viewing_key:
        try:
            open_or_copy(task, wanted)
        except TaskNotFound:
            detach(task)
            return GONE
    elif task.task_id and wanted != task.task_id:
        st.query_params["task"] = task.task_id
    return None


def open_or_copy(task: TaskSession, task_id: str) -> None:
    """Open the user's task for writing, or, while another app process has it, show a read-only copy
    (`TaskNotFound` when there is no such task of theirs)."""
    try:
        open_task(task, task_id)
    except TaskBusy as exc:
        show_copy(task, task_id, task_id, f"Read-only here: {exc}. The Run page follows it from the store.")


def keep_copy_fresh(task: TaskSession, every: float = 5.0) -> None:
    """On the Run page of a read-only copy: live from the store. Every few seconds, a copy of a task another
    server is writing is loaded again when the store has it changed, and once that server has closed it, it
    opens here for writing; a shared task that was deleted meanwhile says so."""
    copy = task.viewing
    if copy is None or not copy.copy_of:
        return

    @st.fragment(run_every=every)
    def watch() -> None:
        if task.viewing is not copy:  # the session has moved on
            return
        registry = registry_for(task.settings)
        try:
            if copy.copy_of == task.viewing_key:  # open elsewhere, not a shared link: is it free now?
                try:
                    open_task(task, copy.copy_of)
                    st.rerun(scope="app")
                except TaskBusy:
                    pass  # still open there: look whether it changed
            if registry.changed_at(copy.copy_of) > copy.copied_at:
                show_copy(task, copy.copy_of, task.viewing_key, task.read_only)
                st.rerun(scope="app")
        except TaskNotFound:
            detach(task)
            st.rerun(scope="app")

    watch()


def show_copy(task: TaskSession, task_id: str, key: str, why: str) -> None:
    """Show a read-only copy of the stored task (`TaskNotFound` when there is none)."""
    live = registry_for(task.settings).snapshot(task_id, task.settings, task_embedder(task))
    task.task_id, task.bank, task.runs, task.origin = None, live.bank, live.runs, live.origin
    task.read_only, task.viewing, task.viewing_key = why, live, key
    task.selected, task.highlight, task.graph_id = None, [], uuid.uuid4().hex[:10]
    forget_pending(task)


def share_links(store: SqlTaskStore, task_id: str, user: str) -> None:
    """On the Tasks page, per task: its read-only links, each with Revoke, and a button that makes one."""
    shares = store.shares
    base = st.context.url.split("?")[0].rsplit("/", 1)[0] if st.context.url else ""
    for token, created, expires in shares.of_task(task_id, user):
        link, revoke = st.columns([5, 1], vertical_alignment="center")
        link.code(f"{base}/run?share={token}", language=None)
        link.caption(f"made {_when(created)}, works until {_when(expires)}")
        if revoke.button("Revoke", key=f"revoke-{token}", icon=":material/link_off:"):
            shares.revoke(token, user)
            st.rerun()
    lasts, make = st.columns([2, 3], vertical_alignment="bottom")
    days = lasts.selectbox("The link works for", LINK_DAYS, index=LINK_DAYS.index(DEFAULT_LINK_DAYS),
                           format_func=lambda d: f"{d} day{'s' if d > 1 else ''}", key=f"share-days-{task_id}")
    if make.button("Make a read-only link", key=f"share-{task_id}", icon=":material/link:",
                   help="Whoever has the link can read this task (graph, answers, export), never change it, "
                        "until it expires or you revoke it."):
        shares.create(task_id, user, lifetime=days * 86400.0)
        st.rerun()


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))
