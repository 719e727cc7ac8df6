"""New task: documents, images, a question and pasted context; or the one-click sample."""

from __future__ import annotations

import streamlit as st

from memory_bank import cost_per_page, money, supported_suffixes
from ui.format import md_escape
from ui.pending import page_params
from ui.session import (
    SAMPLES,
    cost_estimate,
    end_task,
    engine_label,
    get_task,
    launch,
    save_upload,
    start_sample,
)

ACCEPTED = sorted(supported_suffixes())  # the loaders' own list, so the picker never offers what cannot be read

task = get_task()
st.title("New task")
st.caption(f"Upload long documents, ask a question, and watch the memory form. Engine: "
           f"{md_escape(engine_label(task))} — change it in Settings.")

if task.bank is not None:
    counts = task.bank.snapshot().counts
    with st.container(border=True):
        st.markdown(f"**A task is in memory** — {counts['nodes']} nodes, {counts['edges']} related edges "
                    f"({md_escape(task.origin or 'run')}). Files and a question below are added to it; ask "
                    "follow-ups on the Run page.")
        left, right = st.columns(2)
        left.page_link("pages/run.py", label="Go to the Run page", icon=":material/play_circle:")
        if right.button("Clear memory and start over", icon=":material/delete:", disabled=task.running,
                        help="Ends the task: the memory and every temp file of this session are deleted."):
            end_task(task)
            st.rerun()

samples, custom = st.columns([2, 3], gap="large")
with samples:
    st.subheader("Try a sample")
    for sample in SAMPLES:
        with st.container(border=True):
            st.markdown(f"**{md_escape(sample.title)}** — {md_escape(sample.blurb)} The question:")
            st.text(sample.question)
            if not sample.missing() and (estimate := cost_estimate(task.settings, sample.files)):
                st.caption(f"Reading it costs about {money(estimate[1])} ({estimate[0]} pages at your prices; "
                           "an estimate from the tokens a page took when measured).")
            if missing := sample.missing():
                st.error(f"A sample file is missing: {missing[0]}")
            elif st.button(sample.button, type="primary", icon=":material/rocket_launch:", disabled=task.running,
                           key=sample.key, help="Starts a new task: the memory in this session is cleared first"
                           if task.bank is not None else None):
                start_sample(task, sample)
                st.switch_page("pages/run.py", query_params=page_params(task.pending, task.task_id))
            if task.bank is not None:
                st.caption("Runs as a new task: the current memory is cleared first (export it to keep it).")

with custom, st.form("new-task", border=True):
    st.subheader("Your own task")
    files = st.file_uploader("Documents and images (PDF, TXT, Markdown, HTML, PNG/JPEG…)", type=ACCEPTED,
                             accept_multiple_files=True)
    question = st.text_area("Question or task", placeholder="What should the agent find out?", height=90)
    context = st.text_area("Pasted context (optional)", placeholder="Notes, an e-mail, a transcript…", height=110)
    if (per_page := cost_per_page(task.settings)) is not None:
        st.caption(f"At your prices, reading costs about {money(per_page)} a page (an estimate; the Run page "
                   "shows the estimate for your files beside the live cost).")
    submitted = st.form_submit_button("Start", type="primary", icon=":material/play_arrow:", disabled=task.running)

if task.running:
    st.info("A run is in progress — follow it on the Run page.", icon=":material/hourglass_top:")

if submitted:
    if not question.strip():
        st.error("Type a question or a task first.")
    elif not files and not context.strip() and task.bank is None:
        # a Start pressed while a picked file is still uploading submits none: say so, the question is kept
        st.error("Add at least one file or paste some context (or run the sample). A file just picked may still "
                 "be uploading: once it is listed under the picker, press Start again — your question is kept.")
    else:
        paths = [save_upload(task, f.name, f.getvalue()) for f in files or []]
        launch(task, question.strip(), paths, context.strip() or None)
        st.switch_page("pages/run.py", query_params=page_params(task.pending, task.task_id))
