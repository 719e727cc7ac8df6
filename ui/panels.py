"""Drawing blocks the pages share: deep retrieval, Insight Doc and answers (meters, progress, citations and the
run log are in `run_view`).

Document text is shown with `st.text` or in dataframes (never parsed), and wherever Streamlit parses Markdown
(labels, headers) it goes through `md_escape`, so a document can neither format the page nor make the browser
fetch anything.
"""

from __future__ import annotations

import base64
import html

import pandas as pd
import streamlit as st

from memory_bank import (
    CompletedTask,
    DeepRetrieval,
    EntryView,
    InsightDoc,
    MemoryBank,
    MemoryBankError,
    TaskStatus,
    is_not_found,
    page_span,
    pages_label,
    place_label,
    section_label,
)

from .format import clock, md_escape, safe_markdown
from .run_view import citations_view
from .session import TaskSession
from .worker import RunView

# why a run that returned an answer ended before its loop was through (RunResult.termination), as a reader says it
ENDED_EARLY = {"max_rounds": "it reached its cap on rounds (MAX_ROUNDS) before the answer's own work was done",
               "budget": "its LLM budget ran out", "cancelled": "it was cancelled"}


def stop_unless(ready: bool, message: str) -> None:
    """Pages that draw memory stop here with a way forward when there is nothing to draw yet."""
    if ready:
        return
    st.info(message, icon=":material/info:")
    st.page_link("pages/new_task.py", label="New task", icon=":material/add_circle:")
    st.stop()


def deep_retrieval_panel(task: TaskSession, node_id: str | None, *, key: str) -> None:
    """Everything memory holds about one node, or a hint when nothing is selected."""
    if not node_id:
        st.info("Click a node in the graph (or a citation) to open its raw sources here.", icon=":material/touch_app:")
        return
    if task.bank is None:
        return
    try:
        deep = task.bank.deep_retrieve(node_id)
    except (KeyError, MemoryBankError) as exc:
        st.error(f"Node {md_escape(node_id)} cannot be opened: {md_escape(str(exc))}")
        return
    node = deep.node
    # HTML-escaped into a fixed tag rather than Markdown: no autolinked URLs from documents in the heading
    st.html(f'<div class="amb-node-title">{html.escape(node.label() or node.id)}</div>')
    facts = [md_escape(node.id), md_escape(node.kind), clock(node.timestamp)]  # imported values: plain text
    if node.section():
        facts.insert(0, md_escape(" › ".join(node.section())))
    if node.merged_from:
        facts.append(f"merged from {len(node.merged_from)} nodes")
    if node.role.is_furniture:
        facts.append(f"furniture: {node.role.value} (ranked below body text as evidence)")
    st.caption(" · ".join(facts))
    if node.keywords:
        st.text("Keywords: " + ", ".join(node.keywords))
    with st.container(border=True):
        st.text(node.summary)
    sources = [{"file": s.name, "section": section_label(s.section),
                "pages": pages_label(page_span(s.page_start, s.page_end), s.printed_pages)
                if s.page_start is not None else (s.url or "")} for s in node.sources]
    if sources:
        st.dataframe(pd.DataFrame(sources), hide_index=True)
    _neighbours(task, deep, key)
    _entries(deep)
    _merge_history(deep)


def _neighbours(task: TaskSession, deep: DeepRetrieval, key: str) -> None:
    if not deep.neighbors:
        st.caption("No related nodes yet.")
        return
    st.markdown(f"**Related nodes** ({len(deep.neighbors)}) — pick one to open it")
    rows = pd.DataFrame([{"node": n.label(), "source": ", ".join(dict.fromkeys(s.name for s in n.sources)),
                          "id": n.id} for n in deep.neighbors])
    picked = st.dataframe(rows, hide_index=True, on_select="rerun",
                          selection_mode="single-row", key=f"{key}-nb-{deep.node.id}",
                          height=min(38 + 35 * len(rows), 250))
    chosen = picked.selection.rows if picked is not None else []
    if chosen:
        task.selected = rows.iloc[chosen[0]]["id"]
        if _in_fragment():
            st.rerun(scope="fragment")
        st.rerun()


def _in_fragment() -> bool:
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(ctx and ctx.current_fragment_id)


def _entry_title(view: EntryView) -> str:
    meta = view.entry.metadata
    where = meta.get("source") or meta.get("name") or "entry"
    place = place_label(str(where), view.entry.section, view.entry.pages, view.entry.printed_pages)
    title = md_escape(" · ".join(p for p in (place, clock(view.entry.timestamp)) if p))
    return f"{title} · :red[rejected by cross-validation]" if view.rejected else title


def _entries(deep: DeepRetrieval) -> None:
    st.markdown(f"**Interaction entries** ({len(deep.entries)})")
    for i, view in enumerate(deep.entries):
        with st.expander(_entry_title(view), expanded=i == 0):
            if view.rejected:
                st.caption("Its claim lost the cross-validation: kept for the record, not used as evidence.")
            st.text(view.entry.text)
            for content in view.attachments:
                _attachment(content)


def _attachment(content) -> None:  # noqa: ANN001 - AttachmentContent
    att = content.attachment
    label = md_escape(f"{att.type.value}: {att.path.rsplit('/', 1)[-1]}")
    if not content.ok:
        st.warning(f"{label} — {md_escape(content.content)}")
        return
    st.markdown(f"*{label}*")
    if att.type.value == "image" and content.content.startswith("data:"):
        st.image(base64.b64decode(content.content.split(",", 1)[1]), width=280)
        if att.description:
            st.text(att.description)
    elif att.type.value == "code":
        st.code(content.content)
    else:
        with st.container(height=220, border=True):
            st.text(content.content)


def _merge_history(deep: DeepRetrieval) -> None:
    if not deep.merge_history:
        return
    st.markdown("**Merge history**")
    st.dataframe(pd.DataFrame([{"time": clock(e.timestamp), "kind": e.kind, "merged": ", ".join(e.merged_node_ids),
                                "into": e.new_node_id, "description": e.description} for e in deep.merge_history]),
                 hide_index=True)


def insight_doc_view(doc: InsightDoc, run_status: str = "") -> None:
    """The goal, the tasks done and the next one. In a run whose inputs all failed, a task that "succeeded" did so
    on nothing: it is shown as such, not with a green tick."""
    st.markdown(f"**Goal** — {md_escape(doc.task_goal or '(none yet)')}")
    done = doc.completed_tasks
    if done:
        nothing_read = run_status == "failed"

        def status(t: CompletedTask) -> str:
            if t.status is TaskStatus.SUCCESS:
                return "✗ nothing was read" if nothing_read else "✓ success"
            return "✗ " + t.status.value

        st.dataframe(pd.DataFrame([{"type": t.type.value, "status": status(t), "task": t.description,
                                    "learned": t.context} for t in done]), hide_index=True)
    pending = doc.next_task
    if pending:
        st.info(f"**Next:** {md_escape(pending.type.value)} — {md_escape(pending.description)}",
                icon=":material/pending_actions:")
    elif done and run_status == "failed":
        st.error("The run failed: none of its inputs could be read.", icon=":material/error:")
    elif done:
        st.success("No pending task.", icon=":material/task_alt:")


def answer_view(task: TaskSession, view: RunView, *, key: str) -> None:
    """The question, the answer (Markdown without links or images) and its citations as buttons."""
    st.markdown(f"##### {md_escape(view.question)}")
    result = view.result
    if result is None:
        if view.error:
            st.error(f"The run failed: {view.error}")
        elif view.status == "interrupted":
            st.warning("Interrupted: the server stopped during this run. Resume continues it.")
        elif view.queued:
            st.caption("Waiting for its turn…")
        elif view.status.startswith("running "):  # a read-only copy of a run going on where its task is open
            st.caption("This read-only copy follows the run from the store: the answer appears when it is saved.")
        elif view.status == "cancelled":
            st.caption("Cancelled before it started: nothing was read.")
        elif view.draft is not None and view.draft.text:
            with st.container(border=True):
                st.markdown(safe_markdown(view.draft.text) + " ▍")
            st.caption(f"Writing the answer… {view.draft.llm_calls} LLM call(s), ~{view.draft.tokens:,} tokens so far")
        else:
            st.caption("Working on it…")
        return
    reading = result.follow_up  # a follow-up read against the previous question: the reading, then the answer
    answer = result.answer.removeprefix(f"{reading.note()}\n") if reading else result.answer
    if reading:
        st.caption(md_escape(reading.note()))
    if is_not_found(answer):  # told apart at a glance from an answer
        st.info(safe_markdown(answer), icon=":material/search_off:")
    else:
        with st.container(border=True):
            st.markdown(safe_markdown(answer))
    if result.termination == "endpoint_down":
        st.error(md_escape(result.stop_reason))
    elif result.termination != "done":
        why = ENDED_EARLY.get(result.termination, result.termination)
        said = f" ({md_escape(result.stop_reason)})" if result.stop_reason else ""
        st.warning(f"The run ended early: {why}{said}. What was built stays in memory.")
    citations_view(task, result, key=key)


def save_status_view(bank: MemoryBank) -> None:
    """The task's memory not all in the store (a full disk, a database gone): said at once, not at the next
    reload that would find less than was shown."""
    status = bank.save_status()
    if status is not None and not status.ok:
        st.error(f"Not saved yet: {md_escape(status.error)} The memory stays here and is saved as soon as the "
                 "store takes it.", icon=":material/sync_problem:")


def errors_view(view: RunView) -> None:
    """Every error of the run, each naming where it happened (a bad file names the file)."""
    for line in view.errors:
        st.error(line.text, icon=":material/error:")
