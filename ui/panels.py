"""Drawing blocks the pages share: deep retrieval, Insight Doc, answers, progress, usage and the run log.

Document text is shown with `st.text` or in dataframes (never parsed), and wherever Streamlit parses Markdown
(labels, headers) it goes through `md_escape`, so a document can neither format the page nor make the browser
fetch anything.
"""

from __future__ import annotations

import base64
import html
import time

import pandas as pd
import streamlit as st

from memory_bank import BankSnapshot, DeepRetrieval, EntryView, MemoryBankError, page_span, pages_label

from .format import STAGE_TITLES, clock, duration, md_escape, safe_markdown, short
from .session import TaskSession
from .worker import RunView


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
        st.error(f"Node {node_id} cannot be opened: {exc}")
        return
    node = deep.node
    # HTML-escaped into a fixed tag rather than Markdown: no autolinked URLs from documents in the heading
    st.html(f'<div class="amb-node-title">{html.escape(node.context or node.id)}</div>')
    facts = [f"`{node.id}`", node.kind, clock(node.timestamp)]
    if node.merged_from:
        facts.append(f"merged from {len(node.merged_from)} nodes")
    if node.role.is_furniture:
        facts.append(f"furniture: {node.role.value} (ranked below body text as evidence)")
    st.caption(" · ".join(facts))
    if node.keywords:
        st.text("Keywords: " + ", ".join(node.keywords))
    with st.container(border=True):
        st.text(node.summary)
    sources = [{"file": s.name, "pages": pages_label(page_span(s.page_start, s.page_end), s.printed_pages)
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
    rows = pd.DataFrame([{"context": n.context, "source": ", ".join(dict.fromkeys(s.name for s in n.sources)),
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
    pages = view.entry.pages_label()
    title = md_escape(" · ".join(p for p in (str(where), pages, clock(view.entry.timestamp)) if p))
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


def insight_doc_view(doc: dict) -> None:
    st.markdown(f"**Goal** — {md_escape(doc.get('task_goal') or '(none yet)')}")
    done = doc.get("completed_tasks") or []
    if done:
        st.dataframe(pd.DataFrame([{"type": t["type"], "status": ("✓ " if t["status"] == "success" else "✗ ")
                                    + t["status"], "task": t["description"], "learned": t.get("context", "")}
                                   for t in done]), hide_index=True)
    pending = doc.get("pending_tasks") or []
    if pending:
        st.info(f"**Next:** {md_escape(pending[0]['type'])} — {md_escape(pending[0]['description'])}",
                icon=":material/pending_actions:")
    elif done:
        st.success("No pending task.", icon=":material/task_alt:")


def progress_view(view: RunView) -> None:
    """Ingestion stages per document (bars with counts and time), then the loop's counters."""
    if not view.stages:
        st.caption("Reading the inputs…" if view.running else "No ingestion in this run (follow-up on memory).")
    documents: dict[str, list] = {}
    for stage in view.stages:
        documents.setdefault(stage.message, []).append(stage)
    order = list(STAGE_TITLES)
    for document, stages in documents.items():
        began, last = min(s.started for s in stages), max(s.updated for s in stages)
        finished = all(s.done >= s.total for s in stages) and "link" in {s.name for s in stages}
        took = (last if finished or not view.running else time.time()) - began
        st.markdown(f"**{md_escape(document or 'input')}** · {duration(took)}")
        for stage in sorted(stages, key=lambda s: order.index(s.name) if s.name in order else 99):
            frac = stage.done / stage.total if stage.total else 1.0
            title = STAGE_TITLES.get(stage.name, stage.name)
            st.progress(min(1.0, frac), text=md_escape(f"{title} — {stage.done}/{stage.total}"))
    tasks = view.counts.get("task_completed", 0)
    tools = view.counts.get("tool_called", 0)
    st.caption(f"Loop: {tasks} sub-task(s) done · {tools} tool call(s) · {view.counts.get('node_added', 0)} nodes "
               f"added · {view.counts.get('nodes_merged', 0)} merges · {view.counts.get('conflict_flagged', 0)} "
               "conflicts flagged")


def metrics_row(snapshot: BankSnapshot, view: RunView | None) -> None:
    usage, counts = snapshot.usage, snapshot.counts
    cols = st.columns(6)
    cols[0].metric("Elapsed", duration(view.elapsed) if view else "—")
    cols[1].metric("Nodes", counts["nodes"])
    cols[2].metric("Related edges", counts["edges"])
    settled = counts["conflicts"] - counts["pending_conflicts"]
    cols[3].metric("Merges / conflicts", f"{counts['merges']} / {counts['conflicts']}",
                   delta=f"{counts['pending_conflicts']} pending" if counts["pending_conflicts"] else
                   (f"{settled} settled" if settled else None), delta_color="off", delta_arrow="off",
                   help="merge events / conflicts flagged (pending ones wait for cross-validation)")
    calls, max_calls = usage.get("calls", 0), usage.get("max_llm_calls", 0)
    tokens = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
    cols[4].metric("LLM calls", f"{calls:,} / {max_calls:,}", help="used / budget")
    cols[5].metric("Tokens", f"{tokens:,}", help=f"budget {usage.get('max_tokens', 0):,} tokens")
    if max_calls:
        st.progress(min(1.0, calls / max_calls), text=f"LLM call budget used: {calls / max_calls:.0%}")


def answer_view(task: TaskSession, view: RunView, *, key: str) -> None:
    """The question, the answer (Markdown without links or images) and its citations as buttons."""
    st.markdown(f"##### {md_escape(view.question)}")
    result = view.result
    if result is None:
        if view.error:
            st.error(f"The run failed: {view.error}")
        elif view.draft is not None and view.draft.text:
            with st.container(border=True):
                st.markdown(safe_markdown(view.draft.text) + " ▍")
            st.caption(f"Writing the answer… {view.draft.llm_calls} LLM call(s), ~{view.draft.tokens:,} tokens so far")
        else:
            st.caption("Working on it…")
        return
    with st.container(border=True):
        st.markdown(safe_markdown(result.answer))
    if result.termination != "done":
        st.warning(f"The run ended early: {result.termination}. What was built stays in memory.")
    for i, cite in enumerate(result.citations, start=1):
        left, right = st.columns([2, 5], vertical_alignment="center")
        label = md_escape(f"[{i}] {short(cite.source, 40)} {pages_label(cite.pages, cite.printed_pages)}")
        left.button(label, key=f"{key}-cite-{i}", help="Open this source", width="stretch",
                    on_click=_select, args=(task, cite.node_id))
        right.text(short(cite.quote, 260) if cite.quote else "")


def _select(task: TaskSession, node_id: str) -> None:
    """A callback, so the selection is in place before the page draws the deep-retrieval panel."""
    task.selected = node_id


def log_view(view: RunView) -> None:
    lines = list(view.log)[::-1][:400]
    if not lines:
        st.caption("No events yet.")
        return
    st.dataframe(pd.DataFrame([{"time": clock(line.ts), "kind": line.level, "event": line.text} for line in lines]),
                 hide_index=True, height=260)


def errors_view(view: RunView) -> None:
    """Every error of the run, each naming where it happened (a bad file names the file)."""
    for line in view.errors:
        st.error(line.text, icon=":material/error:")
