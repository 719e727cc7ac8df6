"""Run: live progress, the graph as it grows, the Insight Doc, answers with citations, follow-ups, Cancel."""

from __future__ import annotations

import streamlit as st

from ui.call_panel import live_calls_panel
from ui.format import md_escape
from ui.graph_panel import graph_block
from ui.links import keep_copy_fresh
from ui.long_term_views import long_term_answer
from ui.panels import (
    answer_view,
    deep_retrieval_panel,
    errors_view,
    insight_doc_view,
    save_status_view,
    stop_unless,
)
from ui.run_view import log_view, metrics_row, progress_view, queued_text, scroll_to_deep_retrieval
from ui.session import get_task, launch, resume, start_pending
from ui.style import status_pill

task = get_task()
st.title("Run")
keep_copy_fresh(task)  # a read-only copy of a task another server writes: live from the store


@st.fragment(run_every=1.0)
def waiting_for_model() -> None:
    """A Start clicked while the embedding model loads: said here, and begun as soon as the model is ready."""
    if start_pending(task):
        st.rerun()
    pending = task.pending
    if pending is None:  # ended meanwhile (the task was cleared in another view)
        st.rerun()
    status_pill("starting")
    st.markdown(f"**{md_escape(pending.question)}**")
    st.info(f"Starting — the embedding model is still loading ({pending.waited:.0f} s so far). The first run "
            "after the server starts waits for it; the run begins by itself as soon as it is ready.",
            icon=":material/hourglass_top:")


if task.pending is not None:
    waiting_for_model()
    st.stop()
stop_unless(task.bank is not None and bool(task.runs), "No run yet: start a task (or the sample) first.")

live_mode = task.running


@st.fragment(run_every=1.0 if live_mode else None)
def live() -> None:
    run = task.current_run
    view = run.monitor.view()
    snapshot = task.bank.snapshot()
    head, action = st.columns([5, 1], vertical_alignment="center")
    with head:
        status_pill("running" if view.running and not view.cancel_requested else view.status)
        st.markdown(f"**{md_escape(view.question)}**")
    if (view.running or view.queued) and action.button(
            "Cancel", icon=":material/stop_circle:", disabled=view.cancel_requested,
            help="Stops at the next safe point; everything built so far stays."):
        run.cancel()
        st.toast("Cancelling — the memory built so far is kept.")
    if view.queued and not view.cancel_requested:
        st.info(queued_text(view.ahead), icon=":material/hourglass_top:")
    if view.cancel_requested and view.running:
        st.caption("Cancelling at the next safe point…")
    elif view.status == "cancelled":
        st.caption("Cancelled — everything built before the cancel stays in memory.")
    if view.status == "interrupted" and action.button(
            "Resume", icon=":material/resume:", type="primary", key="resume-run",
            help="Continues the run from where it stopped: the pages and files not yet read, then the loop."):
        resume(task)
        st.rerun()
    metrics_row(snapshot, view, uses_llm=task.bank.engine.uses_llm)
    live_calls_panel(snapshot.live, running=view.running, uses_llm=task.bank.settings.needs_llm)
    save_status_view(task.bank)
    errors_view(view)

    graph_col, side = st.columns([3, 2], gap="medium")
    with graph_col:
        graph_block(task, snapshot, key="run-graph", height=540)
    with side, st.container(height=720, border=False):
        if task.selected:
            with st.container(border=True):
                if st.button("Close", key="run-close-node", icon=":material/close:", type="tertiary"):
                    task.selected = None
                    st.rerun(scope="fragment")
                deep_retrieval_panel(task, task.selected, key="run")
            scroll_to_deep_retrieval()
        st.markdown("**Progress**")
        progress_view(view)
        st.markdown("**Insight Doc**")
        insight_doc_view(snapshot.insight_doc, view.status)

    answers, events = st.columns([3, 2], gap="medium")
    with answers:
        st.subheader("Answers")
        for i, handle in enumerate(task.runs):
            answer_view(task, handle.monitor.view(), key=f"answer-{i}")
            long_term_answer(handle.monitor.view(), task.bank.long_term, key=f"long-term-{i}")
        follow_up_form()
    with events:
        st.subheader("Event log")
        log_view(view)
    if live_mode and not task.running:
        st.rerun()  # the run just ended: one full rerun draws the final state and stops the timer


def follow_up_form() -> None:
    with st.form("follow-up", clear_on_submit=True, border=True):
        question = st.text_input("Ask a follow-up on the same memory (nothing is re-ingested)",
                                 key="follow-up-question")
        asked = st.form_submit_button("Ask", icon=":material/send:", disabled=task.running)
    if asked and question.strip():
        launch(task, question.strip(), [], None)
        st.rerun()


live()
